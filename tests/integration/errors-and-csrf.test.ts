import { exports } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { AppError, appErrorStatus, type AppErrorCode } from "~/lib/errors";
import { handleError } from "~workers/error-handler";
import type { AppEnv } from "~workers/types";
import { csrfSession, origin } from "./helpers";

describe("the one error handler", () => {
  const codes = Object.keys(appErrorStatus) as AppErrorCode[];

  it.each(codes)("maps AppError %s to its status with a JSON { message, code } body", async (code) => {
    const app = new Hono<AppEnv>().get("/", () => {
      throw new AppError(code, "A message a person can act on.");
    });
    app.onError(handleError);
    const response = await app.request("/");
    expect(response.status).toBe(appErrorStatus[code]);
    const body = await response.json<Record<string, unknown>>();
    expect(body.code).toBe(code);
    expect(typeof body.message).toBe("string");
  });

  it("answers an unexpected error with a calm 500 that leaks no stack, SQL or error text", async () => {
    const app = new Hono<AppEnv>().get("/", () => {
      throw new Error("SQLITE_ERROR: no such column: secret_internal_thing at db.ts:42");
    });
    app.onError(handleError);
    const response = await app.request("/");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("SQLITE");
    expect(text).not.toContain("db.ts");
    expect(JSON.parse(text)).toMatchObject({ code: "INTERNAL_ERROR", message: expect.any(String) });
  });

  it("answers an unknown API path with a JSON 404 through the real Worker entry", async () => {
    const response = await exports.default.fetch(`${origin}/api/no-such-thing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "There is no such API endpoint.", code: "NOT_FOUND" });
  });

  it("answers invalid input with a 400 that names the field", async () => {
    const { cookie, token } = await csrfSession();
    const response = await exports.default.fetch(`${origin}/api/client-errors`, {
      method: "POST",
      headers: { cookie, "x-csrf-token": token, "content-type": "application/json" },
      body: JSON.stringify({ message: "", url: "not a url" }),
    });
    expect(response.status).toBe(400);
    const body = await response.json<{ code: string; message: string; fieldErrors: Record<string, string[]> }>();
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.message).toMatch(/^message: /);
    expect(Object.keys(body.fieldErrors)).toEqual(expect.arrayContaining(["message", "url"]));
  });

  it("answers a body that is not JSON at all with a 400, never a 500", async () => {
    const { cookie, token } = await csrfSession();
    const response = await exports.default.fetch(`${origin}/api/client-errors`, {
      method: "POST",
      headers: { cookie, "x-csrf-token": token, "content-type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
  });

  it("gives every response a request id", async () => {
    const response = await exports.default.fetch(`${origin}/api/health`);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("CSRF protection", () => {
  it("issues an HttpOnly, SameSite=Lax, __Host- prefixed secure cookie on https", async () => {
    const response = await exports.default.fetch(`${origin}/api/health`);
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^__Host-strongroom_csrf=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
  });

  it("accepts a POST that carries the cookie and its token", async () => {
    const { cookie, token } = await csrfSession();
    const response = await exports.default.fetch(`${origin}/api/client-errors`, {
      method: "POST",
      headers: { cookie, "x-csrf-token": token, "content-type": "application/json", origin },
      body: JSON.stringify({ message: "boom", url: `${origin}/ui` }),
    });
    expect(response.status).toBe(204);
  });

  it("refuses a POST without a token with 419", async () => {
    const { cookie } = await csrfSession();
    const response = await exports.default.fetch(`${origin}/api/client-errors`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ message: "boom", url: `${origin}/ui` }),
    });
    expect(response.status).toBe(419);
    expect(await response.json()).toMatchObject({ code: "CSRF_TOKEN_MISMATCH" });
  });

  it("refuses a POST whose token belongs to another cookie with 419", async () => {
    const first = await csrfSession();
    const second = await csrfSession();
    const response = await exports.default.fetch(`${origin}/api/client-errors`, {
      method: "POST",
      headers: { cookie: first.cookie, "x-csrf-token": second.token, "content-type": "application/json" },
      body: JSON.stringify({ message: "boom", url: `${origin}/ui` }),
    });
    expect(response.status).toBe(419);
  });

  it("refuses a cross-site POST with 419 even with a valid token", async () => {
    const { cookie, token } = await csrfSession();
    // `Origin: null` is a sandboxed document's (or a no-referrer page's without fetch metadata).
    const crossSite: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }, { origin: "null" }, { origin: "null", "sec-fetch-site": "cross-site" }];
    for (const headers of crossSite) {
      const response = await exports.default.fetch(`${origin}/api/client-errors`, {
        method: "POST",
        headers: { cookie, "x-csrf-token": token, "content-type": "application/json", ...headers },
        body: JSON.stringify({ message: "boom", url: `${origin}/ui` }),
      });
      expect(response.status).toBe(419);
    }
  });

  it("accepts a same-origin post with `Origin: null` (a page under Referrer-Policy: no-referrer) when the browser says same-origin and the token is right", async () => {
    const { cookie, token } = await csrfSession();
    const post = (extra: Record<string, string>) =>
      exports.default.fetch(`${origin}/api/client-errors`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", origin: "null", "sec-fetch-site": "same-origin", ...extra },
        body: JSON.stringify({ message: "boom", url: `${origin}/ui` }),
      });
    expect((await post({ "x-csrf-token": token })).status).toBe(204);
    expect((await post({ "x-csrf-token": "wrong" })).status).toBe(419);
  });

  it("accepts the token as a _csrf form field for plain form posts", async () => {
    const { cookie, token } = await csrfSession();
    const response = await exports.default.fetch(`${origin}/api/no-such-form-target`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: token }),
    });
    // Past the CSRF check, the unknown path is a plain 404.
    expect(response.status).toBe(404);
  });

  it("never asks for a token on GET", async () => {
    const response = await exports.default.fetch(`${origin}/api/health`, { headers: { origin: "https://evil.example" } });
    expect(response.status).toBe(200);
  });
});
