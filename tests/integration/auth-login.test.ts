import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashSessionToken } from "~/features/auth/session.server";
import { INVALID_CREDENTIALS_MESSAGE } from "~/features/auth/login.server";
import { createUser, uniqueEmail } from "~tests/factories/users";
import {
  authCheck,
  csrfSession,
  loginJson,
  logoutJson,
  mailsTo,
  newAuthClient,
  origin,
  postJson,
  sessionRowsFor,
  SESSION_COOKIE,
  testEnv,
  uniqueIp,
} from "./helpers";

function sessionSetCookie(response: Response): string {
  const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  expect(line, "the response sets the session cookie").toBeDefined();
  return line!;
}

// Each sign-in verifies a password with scrypt inside workerd: allow for a busy machine.
describe("signing in with e-mail and password", { timeout: 20_000 }, () => {
  it("signs a member in and sets a __Host- session cookie that scripts and other sites cannot use", async () => {
    const member = await createUser({ name: "Ada Lovelace" });
    const { response, body, client } = await loginJson(member.email, member.password);

    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(body).toMatchObject({
      user: { id: member.id, email: member.email, name: "Ada Lovelace", emailVerified: true, tier: "free" },
      requires_email_2fa: false,
      requires_google_2fa: false,
    });
    expect(body.csrf_token).toEqual(expect.any(String));

    const cookie = sessionSetCookie(response);
    const attributes = cookie.split(";").map((part) => part.trim());
    expect(attributes[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{20,64}$`));
    expect(attributes).toEqual(expect.arrayContaining(["HttpOnly", "Secure", "SameSite=Lax", "Path=/"]));
    expect(attributes.some((attribute) => /^Domain=/i.test(attribute))).toBe(false);
    expect(client.jar.get(SESSION_COOKIE)).toBeDefined();
  });

  it("tells the page who is signed in, and that nobody is without the cookie", async () => {
    const member = await createUser();
    const { client } = await loginJson(member.email, member.password);

    expect(await authCheck(client)).toEqual({
      authenticated: true,
      user: { id: member.id, name: member.name, email: member.email, emailVerified: true, tier: "free" },
      requires_verification: false,
    });
    expect(await authCheck("")).toEqual({ authenticated: false, user: null, requires_verification: false });
  });

  it("answers a wrong password and an unknown e-mail address identically, so nobody can probe for accounts", async () => {
    const member = await createUser();
    const wrongPassword = await loginJson(member.email, "not-the-right-password");
    const unknownEmail = await loginJson(uniqueEmail("nobody"), member.password);

    expect(wrongPassword.response.status).toBe(401);
    expect(unknownEmail.response.status).toBe(401);
    expect(wrongPassword.body).toEqual({ message: INVALID_CREDENTIALS_MESSAGE, code: "UNAUTHENTICATED" });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    expect(wrongPassword.response.headers.getSetCookie().some((cookie) => cookie.startsWith(SESSION_COOKIE))).toBe(false);
    expect(await sessionRowsFor(member.id)).toHaveLength(0);
  });

  it("refuses an account whose e-mail address is not confirmed yet and mails a fresh confirmation link", async () => {
    const member = await createUser({ verified: false });
    const { response, body } = await loginJson(member.email, member.password);

    expect(response.status).toBe(403);
    expect(body.code).toBe("FORBIDDEN");
    expect(body.message).toContain(member.email);
    expect(await sessionRowsFor(member.id)).toHaveLength(0);
    const mails = await mailsTo(member.email);
    expect(mails.map((mail) => mail.template)).toEqual(["verify-email"]);
    expect(mails[0]!.textBody).toContain(`${origin}/verify-email?token=`);
  });

  it("signing out ends the session on the server, so a copied cookie stops working", async () => {
    const member = await createUser();
    const { client } = await loginJson(member.email, member.password);
    const stolenCookie = client.jar.header();
    expect(await sessionRowsFor(member.id)).toHaveLength(1);

    const response = await logoutJson(client);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, csrf_token: expect.any(String) });
    const cleared = sessionSetCookie(response);
    expect(cleared).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    expect(cleared).toContain("Max-Age=0");
    expect(client.jar.get(SESSION_COOKIE)).toBeUndefined();

    expect(await sessionRowsFor(member.id)).toHaveLength(0);
    expect(await authCheck(stolenCookie)).toEqual({ authenticated: false, user: null, requires_verification: false });
    // A page visit with the dead cookie clears it; a background fetch leaves cookies alone (it may
    // have been in flight while the session rotated, and must not wipe the new cookie).
    const visit = await exports.default.fetch(`${origin}/api/health`, { headers: { cookie: stolenCookie, "sec-fetch-mode": "navigate" } });
    expect(sessionSetCookie(visit)).toContain("Max-Age=0");
    const backgroundFetch = await exports.default.fetch(`${origin}/auth-check`, { headers: { cookie: stolenCookie, "sec-fetch-mode": "cors" } });
    expect(backgroundFetch.headers.getSetCookie().some((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });

  it("gives the signed-in page a new CSRF token: the one from before sign-in no longer works", async () => {
    const member = await createUser();
    const client = await newAuthClient();
    const tokenBeforeSignIn = client.csrfToken;
    const { body } = await loginJson(member.email, member.password, { client });
    expect(body.csrf_token).not.toBe(tokenBeforeSignIn);

    const stale = await exports.default.fetch(`${origin}/logout`, {
      method: "POST",
      headers: { cookie: client.jar.header(), "x-csrf-token": tokenBeforeSignIn, origin, "content-type": "application/json" },
      body: "{}",
    });
    expect(stale.status).toBe(419);
    expect(await sessionRowsFor(member.id)).toHaveLength(1);

    expect((await logoutJson(client)).status).toBe(200);
    expect(await sessionRowsFor(member.id)).toHaveLength(0);
  });

  it("never stores the session token itself: the database holds only its SHA-256", async () => {
    const member = await createUser();
    const { client } = await loginJson(member.email, member.password);
    const token = client.jar.get(SESSION_COOKIE)!;

    const { results } = await testEnv.DB.prepare("select * from sessions").all<Record<string, unknown>>();
    for (const row of results) {
      for (const value of Object.values(row)) expect(value).not.toBe(token);
      expect(JSON.stringify(row)).not.toContain(token);
    }
    const rows = await sessionRowsFor(member.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(hashSessionToken(token));
    expect(rows[0]!.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a sign-in without the CSRF token with 419 and creates no session", async () => {
    const member = await createUser();
    const { cookie } = await csrfSession();
    const response = await exports.default.fetch(`${origin}/login`, {
      method: "POST",
      headers: { cookie, origin, "content-type": "application/json", "cf-connecting-ip": uniqueIp() },
      body: JSON.stringify({ email: member.email, password: member.password }),
    });

    expect(response.status).toBe(419);
    expect(await response.json()).toMatchObject({ code: "CSRF_TOKEN_MISMATCH", message: expect.any(String) });
    expect(response.headers.getSetCookie().some((line) => line.startsWith(SESSION_COOKIE))).toBe(false);
    expect(await sessionRowsFor(member.id)).toHaveLength(0);
  });

  it("answers a body that is not JSON with a 400 and a message, never a 500", async () => {
    const client = await newAuthClient();
    const response = await postJson(client, "/login", "{not json");

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "The request body must be JSON.", code: "VALIDATION_ERROR" });
  });

  it("answers a missing e-mail address with a 400 that says what to fix", async () => {
    const client = await newAuthClient();
    const response = await postJson(client, "/login", { password: "whatever-it-is" });

    expect(response.status).toBe(400);
    const body = await response.json<{ code: string; message: string; fieldErrors: Record<string, string[]> }>();
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.message).toMatch(/^email: /);
    expect(Object.keys(body.fieldErrors)).toContain("email");
  });

  it("gives every sign-in its own new session; each one lasts until it is signed out", async () => {
    const member = await createUser();
    const first = await loginJson(member.email, member.password);
    const second = await loginJson(member.email, member.password);
    const firstToken = first.client.jar.get(SESSION_COOKIE)!;
    const secondToken = second.client.jar.get(SESSION_COOKIE)!;

    expect(firstToken).not.toBe(secondToken);
    const ids = (await sessionRowsFor(member.id)).map((row) => row.id);
    expect(ids).toHaveLength(2);
    expect(ids).toEqual(expect.arrayContaining([hashSessionToken(firstToken), hashSessionToken(secondToken)]));
    expect((await authCheck(first.client)).authenticated).toBe(true);

    expect((await logoutJson(first.client)).status).toBe(200);
    expect((await authCheck(`${SESSION_COOKIE}=${firstToken}`)).authenticated).toBe(false);
    expect((await authCheck(second.client)).authenticated).toBe(true);
  });

  it("signing in again in the same browser replaces its session instead of leaving the old one alive", async () => {
    const member = await createUser();
    const { client } = await loginJson(member.email, member.password);
    const firstToken = client.jar.get(SESSION_COOKIE)!;
    await loginJson(member.email, member.password, { client });
    const secondToken = client.jar.get(SESSION_COOKIE)!;

    expect(secondToken).not.toBe(firstToken);
    expect((await sessionRowsFor(member.id)).map((row) => row.id)).toEqual([hashSessionToken(secondToken)]);
    expect((await authCheck(`${SESSION_COOKIE}=${firstToken}`)).authenticated).toBe(false);
  });

  it("mails the member a new-sign-in alert", async () => {
    const member = await createUser();
    await loginJson(member.email, member.password, { ip: "198.51.100.23" });

    const alert = (await mailsTo(member.email)).find((mail) => mail.template === "security-new-sign-in");
    expect(alert).toBeDefined();
    expect(alert!.textBody).toContain("198.51.100.23");
  });
});
