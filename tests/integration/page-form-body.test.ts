import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FORM_TOO_LARGE_MESSAGE, NOT_A_FORM_MESSAGE, UNREADABLE_FORM_MESSAGE } from "~workers/middleware/page-form-body";
import { csrfSession, origin } from "./helpers";

/**
 * The gate in front of every page action: a body that is not a readable form is refused with a
 * 4xx and a message before React Router's action could fail on it (tests/e2e/page-actions.spec.ts
 * walks every page that has an action against the real build).
 */
async function post(path: string, contentType: string | null, body: BodyInit | null) {
  const { cookie, token } = await csrfSession();
  const headers: Record<string, string> = { cookie, "x-csrf-token": token, origin };
  if (contentType) headers["content-type"] = contentType;
  return exports.default.fetch(`${origin}${path}`, { method: "POST", headers, body });
}

describe("page actions receive only forms", () => {
  it.each([
    ["JSON", "application/json", JSON.stringify({ name: "Ada" })],
    ["plain text", "text/plain", "name=Ada"],
    ["XML", "application/xml", "<name>Ada</name>"],
    ["no content type", null, "name=Ada"],
  ])("a %s body is refused with 415 and says which encodings a form may use", async (_kind, type, body) => {
    const response = await post("/register", type, body);
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ code: "UNSUPPORTED_MEDIA_TYPE", message: NOT_A_FORM_MESSAGE });
  });

  it("a multipart body that does not match its boundary is refused with 400 and a message", async () => {
    const response = await post("/settings/account", "multipart/form-data; boundary=----strongroom", "this is not multipart at all");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "VALIDATION_ERROR", message: UNREADABLE_FORM_MESSAGE });
  });

  it("a multipart content type without a boundary is refused with 400", async () => {
    const response = await post("/folders/new", "multipart/form-data", "--x\r\n");
    expect(response.status).toBe(400);
  });

  it("a form larger than 1 MiB is refused with 413 before it is parsed", async () => {
    const response = await post("/profile", "application/x-www-form-urlencoded", `name=${"a".repeat(1024 * 1024 + 10)}`);
    expect(response.status).toBe(413);
    expect((await response.json<{ message: string }>()).message).toBe(FORM_TOO_LARGE_MESSAGE);
  });

  it("a real form (either encoding) goes on to the page", async () => {
    const multipart = new FormData();
    multipart.set("name", "Ada");
    for (const [type, body] of [
      ["application/x-www-form-urlencoded;charset=UTF-8", "name=Ada"],
      [null, multipart],
    ] as const) {
      const response = await post("/register", type, body);
      // The page itself is React Router's (a stub in this layer): what matters is that the gate let it through.
      expect([400, 413, 415]).not.toContain(response.status);
    }
  });

  it("the JSON endpoints of the spec still take JSON", async () => {
    const response = await post("/login", "application/json", JSON.stringify({ email: "nobody@example.com", password: "not the password" }));
    expect(response.status).toBe(401);
  });
});
