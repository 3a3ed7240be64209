import { describe, expect, it } from "vitest";
import type { AuthCall } from "~/features/auth/auth-context.server";
import { findUserById } from "~/features/auth/auth.queries.server";
import { confirmEmail, INVALID_LINK_MESSAGE, sendVerificationEmail } from "~/features/auth/email-verification.server";
import { isResetLinkOpen, requestPasswordReset, resetPassword } from "~/features/auth/password-reset.server";
import { COMMON_PASSWORD_MESSAGE, register } from "~/features/auth/registration.server";
import { AppError } from "~/lib/errors";
import { createServiceContext } from "~/lib/service-context.server";
import { createUser, uniqueEmail } from "~tests/factories/users";
import { authCheck, countRows, loginJson, mailsTo, origin, testEnv } from "./helpers";

const NEW_PASSWORD = "quiet-meadow-copper-97";
// Resets and sign-ups hash passwords with scrypt inside workerd: allow for a busy machine.
const SCRYPT_HEAVY = { timeout: 20_000 };

function authCall(): AuthCall {
  return {
    ctx: createServiceContext(testEnv, { requestId: "t" }),
    meta: { ipAddress: "203.0.113.9", userAgent: "vitest" },
    origin,
  };
}

/** SHA-256 (hex) computed here, independently of the code under test. */
async function sha256Hex(value: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The token of the newest mailed link of one template, as the member would click it. */
async function mailedToken(email: string, template: string, path: string): Promise<string> {
  const mail = (await mailsTo(email)).filter((entry) => entry.template === template).at(-1);
  expect(mail, `a ${template} mail to ${email}`).toBeDefined();
  const match = new RegExp(`${origin}${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail!.textBody);
  expect(match).not.toBeNull();
  return match![1]!;
}

async function tokenRows(userId: string) {
  const { results } = await testEnv.DB.prepare("select * from auth_tokens where user_id = ?").bind(userId).all<Record<string, unknown>>();
  return results;
}

async function expectOnlyHashStored(userId: string, token: string) {
  const rows = await tokenRows(userId);
  for (const row of rows) {
    for (const value of Object.values(row)) expect(value).not.toBe(token);
    expect(JSON.stringify(row)).not.toContain(token);
  }
  expect(rows.map((row) => row.token_hash)).toContain(await sha256Hex(token));
}

async function passwordHashOf(userId: string) {
  const row = await testEnv.DB.prepare("select password_hash as hash from users where id = ?").bind(userId).first<{ hash: string }>();
  return row?.hash;
}

const invalidLink = { code: "NOT_FOUND", status: 404, message: INVALID_LINK_MESSAGE };

describe("password-reset links", SCRYPT_HEAVY, () => {
  it("mails a link that works exactly once, ends every session, and sets the new password", async () => {
    const member = await createUser();
    const before = await loginJson(member.email, member.password);
    expect(before.response.status).toBe(200);
    const call = authCall();

    await requestPasswordReset(call, { email: member.email });
    const token = await mailedToken(member.email, "reset-password", "/reset-password");
    await expectOnlyHashStored(member.id, token);
    expect(await isResetLinkOpen(call, token)).toBe(true);

    expect(await resetPassword(call, { token, password: NEW_PASSWORD })).toEqual({ email: member.email });
    expect((await authCheck(before.client)).authenticated).toBe(false);
    expect((await mailsTo(member.email)).map((mail) => mail.template)).toContain("security-password-changed");

    expect(await isResetLinkOpen(call, token)).toBe(false);
    await expect(resetPassword(call, { token, password: "another-fresh-passphrase-31" })).rejects.toMatchObject(invalidLink);

    expect((await loginJson(member.email, NEW_PASSWORD)).response.status).toBe(200);
  });

  it("refuses an expired link and leaves the password alone", async () => {
    const member = await createUser();
    const call = authCall();
    await requestPasswordReset(call, { email: member.email });
    const token = await mailedToken(member.email, "reset-password", "/reset-password");
    await testEnv.DB.prepare("update auth_tokens set expires_at = ? where user_id = ? and purpose = 'reset_password'")
      .bind(Date.now() - 1000, member.id)
      .run();
    const hashBefore = await passwordHashOf(member.id);

    expect(await isResetLinkOpen(call, token)).toBe(false);
    await expect(resetPassword(call, { token, password: NEW_PASSWORD })).rejects.toMatchObject(invalidLink);
    expect(await passwordHashOf(member.id)).toBe(hashBefore);
  });

  it("answers the same for an unknown address as for a member's, and mails only the member", async () => {
    const member = await createUser();
    const stranger = uniqueEmail("stranger");
    const mailsBefore = await countRows("mail_outbox");

    const known = await requestPasswordReset(authCall(), { email: member.email });
    const unknown = await requestPasswordReset(authCall(), { email: stranger });

    expect(Object.keys(unknown)).toEqual(Object.keys(known));
    expect(unknown).toEqual({ email: stranger });
    expect(known).toEqual({ email: member.email });
    expect(await mailsTo(stranger)).toHaveLength(0);
    expect((await mailsTo(member.email)).map((mail) => mail.template)).toEqual(["reset-password"]);
    expect(await countRows("mail_outbox")).toBe(mailsBefore + 1);
  });

  it("refuses a common password on the reset form with a 400 and keeps the link usable", async () => {
    const member = await createUser();
    const call = authCall();
    await requestPasswordReset(call, { email: member.email });
    const token = await mailedToken(member.email, "reset-password", "/reset-password");

    await expect(resetPassword(call, { token, password: "password123" })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      status: 400,
      message: COMMON_PASSWORD_MESSAGE,
    });
    expect(await isResetLinkOpen(call, token)).toBe(true);
  });
});

describe("e-mail confirmation links", () => {
  it("mails a link that confirms the address once and signs the member in, while the database keeps only its SHA-256", async () => {
    const member = await createUser({ verified: false });
    const call = authCall();
    const user = await findUserById(call.ctx.db, member.id);
    await sendVerificationEmail(call, user!);

    const token = await mailedToken(member.email, "verify-email", "/verify-email");
    await expectOnlyHashStored(member.id, token);

    const confirmed = await confirmEmail(call, token);
    expect(confirmed.user).toMatchObject({ id: member.id, emailVerified: true });
    expect(confirmed.signIn?.token).toEqual(expect.any(String));
    const row = await testEnv.DB.prepare("select email_verified_at as at from users where id = ?").bind(member.id).first<{ at: number | null }>();
    expect(row?.at).not.toBeNull();

    await expect(confirmEmail(call, token)).rejects.toMatchObject(invalidLink);
  });

  it("refuses an expired confirmation link and leaves the address unconfirmed", async () => {
    const member = await createUser({ verified: false });
    const call = authCall();
    await sendVerificationEmail(call, (await findUserById(call.ctx.db, member.id))!);
    const token = await mailedToken(member.email, "verify-email", "/verify-email");
    await testEnv.DB.prepare("update auth_tokens set expires_at = ? where user_id = ? and purpose = 'verify_email'")
      .bind(Date.now() - 1000, member.id)
      .run();

    await expect(confirmEmail(call, token)).rejects.toMatchObject(invalidLink);
    const row = await testEnv.DB.prepare("select email_verified_at as at from users where id = ?").bind(member.id).first<{ at: number | null }>();
    expect(row?.at).toBeNull();
  });

  it("refuses a made-up link like a used one", async () => {
    await expect(confirmEmail(authCall(), "A".repeat(43))).rejects.toMatchObject(invalidLink);
    await expect(confirmEmail(authCall(), "not a token")).rejects.toMatchObject(invalidLink);
  });
});

describe("signing up", SCRYPT_HEAVY, () => {
  const signUp = (fields: { name?: string; email: string; password: string }, honeypot = "") =>
    register(authCall(), { fields: { name: "New Member", ...fields }, honeypot, turnstileToken: undefined });

  it("answers an address that already has an account exactly like a new one, and changes nothing about that account", async () => {
    const existing = await createUser({ name: "Original Name" });
    const hashBefore = await passwordHashOf(existing.id);
    const fresh = uniqueEmail("fresh");

    const forNew = await signUp({ email: fresh, password: NEW_PASSWORD });
    const forExisting = await signUp({ email: existing.email, password: NEW_PASSWORD, name: "Someone Else" });

    expect(forNew).toEqual({ email: fresh });
    expect(forExisting).toEqual({ email: existing.email });
    expect(Object.keys(forExisting)).toEqual(Object.keys(forNew));

    expect((await mailsTo(fresh)).map((mail) => mail.template)).toEqual(["verify-email"]);
    expect((await mailsTo(existing.email)).map((mail) => mail.template)).toEqual(["signup-existing-account"]);
    const row = await testEnv.DB.prepare("select name, password_hash as hash from users where id = ?")
      .bind(existing.id)
      .first<{ name: string; hash: string }>();
    expect(row).toEqual({ name: "Original Name", hash: hashBefore });
    const count = await testEnv.DB.prepare("select count(*) as n from users where email = ?").bind(existing.email).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("refuses a common password with a 400 and a message, and stores nothing", async () => {
    const email = uniqueEmail("common");
    const attempt = signUp({ email, password: "password123" });

    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      status: 400,
      message: COMMON_PASSWORD_MESSAGE,
      fieldErrors: { password: [COMMON_PASSWORD_MESSAGE] },
    });
    const count = await testEnv.DB.prepare("select count(*) as n from users where email = ?").bind(email).first<{ n: number }>();
    expect(count?.n).toBe(0);
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it("answers a filled honeypot like a real sign-up but stores and sends nothing", async () => {
    const email = uniqueEmail("bot");
    const usersBefore = await countRows("users");

    expect(await signUp({ email, password: NEW_PASSWORD }, "https://spam.example")).toEqual({ email });
    expect(await countRows("users")).toBe(usersBefore);
    expect(await mailsTo(email)).toHaveLength(0);
  });
});
