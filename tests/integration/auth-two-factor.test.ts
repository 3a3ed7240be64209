import { generateTOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { INVALID_CODE_MESSAGE, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "~/features/auth/login.server";
import { hashSessionToken } from "~/features/auth/session.server";
import { addRecoveryCodes, createUser, wrongTotp } from "~tests/factories/users";
import {
  authCheck,
  loginJson,
  mailsTo,
  newAuthClient,
  sessionRowsFor,
  SESSION_COOKIE,
  testEnv,
  verifyTwoFactorJson,
} from "./helpers";

const currentTotp = (key: Uint8Array) => generateTOTP(key, TOTP_PERIOD_SECONDS, TOTP_DIGITS);


type VerifyBody = { success: boolean; used_recovery_code: boolean; csrf_token: string; user: { id: string } };

describe("two-factor sign-in with an authenticator app", { timeout: 20_000 }, () => {
  it("asks for the code, refuses a wrong one, and fully signs in with the right one on a new session cookie", async () => {
    const member = await createUser({ totp: true });
    const client = await newAuthClient();
    const signIn = await loginJson(member.email, member.password, { client });

    expect(signIn.response.status).toBe(200);
    expect(signIn.body).toMatchObject({ user: { id: member.id }, requires_email_2fa: false, requires_google_2fa: true });
    const pendingToken = client.jar.get(SESSION_COOKIE)!;
    expect(pendingToken).toBeDefined();
    expect(await authCheck(client)).toMatchObject({ authenticated: true, requires_verification: true, user: { id: member.id } });
    // Half signed in is not signed in: no new-sign-in alert yet.
    expect((await mailsTo(member.email)).map((mail) => mail.template)).not.toContain("security-new-sign-in");

    const wrong = await verifyTwoFactorJson(client, wrongTotp(member.totpKey!));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: INVALID_CODE_MESSAGE, code: "UNAUTHENTICATED" });
    expect(client.jar.get(SESSION_COOKIE)).toBe(pendingToken);

    const right = await verifyTwoFactorJson(client, currentTotp(member.totpKey!));
    expect(right.status).toBe(200);
    expect(await right.json<VerifyBody>()).toMatchObject({ success: true, used_recovery_code: false, user: { id: member.id } });

    const verifiedToken = client.jar.get(SESSION_COOKIE)!;
    expect(verifiedToken).toBeDefined();
    expect(verifiedToken).not.toBe(pendingToken);
    expect(await authCheck(`${SESSION_COOKIE}=${pendingToken}`)).toEqual({ authenticated: false, user: null, requires_verification: false });
    expect(await authCheck(client)).toMatchObject({ authenticated: true, requires_verification: false, user: { id: member.id } });

    const rows = await sessionRowsFor(member.id);
    expect(rows.map((row) => row.id)).toEqual([hashSessionToken(verifiedToken)]);
    expect(rows[0]!.verified_at).not.toBeNull();
    // The session remembers it passed a second factor (a data room's 2FA requirement asks).
    expect(rows[0]!.second_factor_at).not.toBeNull();
    expect((await mailsTo(member.email)).map((mail) => mail.template)).toContain("security-new-sign-in");
  });

  it("accepts each authenticator code only once: a code seen over someone's shoulder cannot be replayed", async () => {
    const member = await createUser({ totp: true });
    const code = currentTotp(member.totpKey!);
    const first = await newAuthClient();
    await loginJson(member.email, member.password, { client: first });
    expect((await verifyTwoFactorJson(first, code)).status).toBe(200);

    const second = await newAuthClient();
    await loginJson(member.email, member.password, { client: second });
    const replay = await verifyTwoFactorJson(second, code);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ message: INVALID_CODE_MESSAGE, code: "UNAUTHENTICATED" });
    expect(await authCheck(second)).toMatchObject({ authenticated: true, requires_verification: true });
  });

  it("answers a code sent without a pending sign-in with 401", async () => {
    const client = await newAuthClient();
    const response = await verifyTwoFactorJson(client, "123456");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "UNAUTHENTICATED", message: expect.any(String) });
  });

  it("accepts a recovery code instead of the app's code, but only once", async () => {
    const member = await createUser({ totp: true });
    const [code] = await addRecoveryCodes(member.id);

    const first = await loginJson(member.email, member.password);
    // Typed in capitals and without the dash, as people do.
    const used = await verifyTwoFactorJson(first.client, code!.replace("-", "").toUpperCase());
    expect(used.status).toBe(200);
    expect(await used.json<VerifyBody>()).toMatchObject({ success: true, used_recovery_code: true });
    expect((await authCheck(first.client)).requires_verification).toBe(false);

    const second = await loginJson(member.email, member.password);
    const reused = await verifyTwoFactorJson(second.client, code!);
    expect(reused.status).toBe(401);
    expect(await reused.json()).toEqual({ message: INVALID_CODE_MESSAGE, code: "UNAUTHENTICATED" });
    expect(await authCheck(second.client)).toMatchObject({ authenticated: true, requires_verification: true });

    const row = await testEnv.DB.prepare("select count(*) as n from recovery_codes where user_id = ? and used_at is not null")
      .bind(member.id)
      .first<{ n: number }>();
    expect(row?.n).toBe(1);
  });
});

describe("two-factor sign-in with an e-mailed code", { timeout: 20_000 }, () => {
  it("mails a six-digit code that finishes the sign-in, while the database keeps only a keyed hash of it", async () => {
    const member = await createUser({ email2fa: true });
    const client = await newAuthClient();
    const signIn = await loginJson(member.email, member.password, { client });

    expect(signIn.response.status).toBe(200);
    expect(signIn.body).toMatchObject({ requires_email_2fa: true, requires_google_2fa: false });
    expect((await authCheck(client)).requires_verification).toBe(true);

    const mails = (await mailsTo(member.email)).filter((mail) => mail.template === "email-2fa-code");
    expect(mails).toHaveLength(1);
    const code = /^(\d{6})$/m.exec(mails[0]!.textBody)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const { results: tokens } = await testEnv.DB.prepare(
      "select token_hash as tokenHash, session_id as sessionId, used_at as usedAt from auth_tokens where user_id = ? and purpose = 'email_2fa'",
    )
      .bind(member.id)
      .all<{ tokenHash: string; sessionId: string; usedAt: number | null }>();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.tokenHash).not.toBe(code);
    expect(tokens[0]!.tokenHash).not.toContain(code!);
    expect(tokens[0]!.sessionId).toBe(hashSessionToken(client.jar.get(SESSION_COOKIE)!));

    const pendingToken = client.jar.get(SESSION_COOKIE)!;
    const response = await verifyTwoFactorJson(client, code!);
    expect(response.status).toBe(200);
    expect(client.jar.get(SESSION_COOKIE)).not.toBe(pendingToken);
    expect(await authCheck(client)).toMatchObject({ authenticated: true, requires_verification: false, user: { id: member.id } });

    const used = await testEnv.DB.prepare("select used_at as usedAt from auth_tokens where user_id = ? and purpose = 'email_2fa'")
      .bind(member.id)
      .first<{ usedAt: number | null }>();
    expect(used?.usedAt).not.toBeNull();
  });

  it("refuses a wrong e-mailed code with 401 and a message", async () => {
    const member = await createUser({ email2fa: true });
    const { client } = await loginJson(member.email, member.password);
    const mail = (await mailsTo(member.email)).find((entry) => entry.template === "email-2fa-code");
    const code = /^(\d{6})$/m.exec(mail!.textBody)![1]!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");

    const response = await verifyTwoFactorJson(client, wrong);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: INVALID_CODE_MESSAGE, code: "UNAUTHENTICATED" });
    expect((await authCheck(client)).requires_verification).toBe(true);
  });
});
