import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "~workers/app";
import { CookieJar, SESSION_COOKIE, authCheck, countRows, csrfSession, origin, testEnv } from "./helpers";

/**
 * The test-only routes under /__test (docs/testing.md): on only where TEST_HOOKS is "on" (the e2e
 * server). The worker is called with the configuration under test, so each case can set its own.
 */
async function call(vars: Record<string, string>, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${origin}${path}`, init), { ...testEnv, ...vars } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const ON = { TEST_HOOKS: "on" };
/** What `npm run deploy` runs with: [env.production.vars] of wrangler.toml and its secrets, no .dev.vars. */
const PRODUCTION = { APP_ENV: "production", MAIL_DRIVER: "http", MAIL_API_KEY: "re_test_key", PASSWORD_HASH_COST: "standard", FILES_ENCRYPTION_KEY: "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=", PAYMENTS_DRIVER: "stripe", STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PRICES: "{}", PRINT_LAB_DRIVER: "off" };

async function postMember(vars: Record<string, string>, body: unknown, path = "/__test/members"): Promise<Response> {
  const { cookie, token } = await csrfSession();
  return call(vars, path, {
    method: "POST",
    headers: { cookie, "x-csrf-token": token, origin, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("the test-only member route", () => {
  it("makes a verified member with the asked tier and signs the caller in, in one request", async () => {
    const response = await postMember(ON, { tier: "business" });
    expect(response.status).toBe(201);
    const { member } = await response.json<{ member: { id: string; email: string; password: string; tier: string; totpKey: string | null } }>();
    expect(member).toMatchObject({ tier: "business", totpKey: null });
    const jar = new CookieJar().store(response);
    expect(jar.get(SESSION_COOKIE)).toBeTruthy();
    const check = await authCheck(jar.header());
    expect(check).toMatchObject({ authenticated: true, requires_verification: false, user: { email: member.email, tier: "business", emailVerified: true } });
  });

  it("gives a member with an authenticator app its key, and one with e-mail codes the flag, already past the second factor", async () => {
    const totp = await postMember(ON, { twoFactor: "totp" });
    const { member } = await totp.json<{ member: { id: string; totpKey: string } }>();
    expect(member.totpKey).toMatch(/^[A-Z2-7]{32}$/);
    const row = await testEnv.DB.prepare("select totp_enabled_at, email_2fa_enabled_at from users where id = ?").bind(member.id).first();
    expect(row?.totp_enabled_at).not.toBeNull();
    expect((await authCheck(new CookieJar().store(totp).header())).authenticated).toBe(true);

    const email = await postMember(ON, { twoFactor: "email", signIn: false });
    const made = await email.json<{ member: { id: string } }>();
    const emailRow = await testEnv.DB.prepare("select email_2fa_enabled_at from users where id = ?").bind(made.member.id).first();
    expect(emailRow?.email_2fa_enabled_at).not.toBeNull();
    expect(email.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });

  it("changes a member's tier and add-ons the way an operator does", async () => {
    const { member } = await (await postMember(ON, { tier: "free" })).json<{ member: { id: string; email: string } }>();
    const { cookie, token } = await csrfSession();
    const response = await call(ON, `/__test/members/${encodeURIComponent(member.email)}`, {
      method: "PATCH",
      headers: { cookie, "x-csrf-token": token, origin, "content-type": "application/json" },
      body: JSON.stringify({ tier: "pro", addons: { extra_datarooms: 2 } }),
    });
    expect(response.status).toBe(200);
    const row = await testEnv.DB.prepare("select tier from users where id = ?").bind(member.id).first<{ tier: string }>();
    expect(row?.tier).toBe("pro");
    const addon = await testEnv.DB.prepare("select quantity from user_addons where user_id = ? and addon = 'extra_datarooms'").bind(member.id).first<{ quantity: number }>();
    expect(addon?.quantity).toBe(2);
  });

  it("refuses an unknown tier with a message naming the field, and writes nothing", async () => {
    const before = await countRows("users");
    const response = await postMember(ON, { tier: "platinum" });
    expect(response.status).toBe(400);
    expect((await response.json<{ message: string }>()).message).toMatch(/^tier: /);
    expect(await countRows("users")).toBe(before);
  });

  it("does not exist without TEST_HOOKS=on: the paths are ordinary pages and nothing is written", async () => {
    const unknownPage = await call({}, "/no-such-page");
    for (const vars of [{}, PRODUCTION]) {
      const before = await countRows("users");
      const csrf = await call(vars, "/__test/csrf");
      expect(csrf.status).toBe(unknownPage.status);
      const withoutRequestId = async (response: Response) => (await response.text()).replace(/"requestId":"[^"]*"/, "");
      expect(await withoutRequestId(csrf)).toBe(await withoutRequestId(await call(vars, "/no-such-page")));
      const created = await postMember(vars, { tier: "custom" });
      expect(created.status).not.toBe(201);
      expect(created.status).toBe((await postMember(vars, { tier: "custom" }, "/no-such-page")).status);
      expect(await countRows("users")).toBe(before);
    }
  });

  it("a production configuration that turns them on is refused outright", async () => {
    const response = await call({ ...PRODUCTION, TEST_HOOKS: "on" }, "/__test/csrf");
    expect(response.status).toBe(500);
  });
});
