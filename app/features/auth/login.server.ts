import { generateHOTP } from "@oslojs/otp";
import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import { readConfig } from "~/lib/config.server";
import { timingSafeEqualString } from "~/lib/crypto.server";
import { parseInput } from "~/lib/validation";
import { describeDevice, recordAuthEvent } from "./activity.server";
import { ipKey, formatWhen, type AuthCall } from "./auth-context.server";
import {
  claimTotpStep,
  consumeAuthToken,
  consumeRecoveryCode,
  deleteSession,
  expireUserTokens,
  findOpenSessionCode,
  findUserByEmail,
  incrementTokenAttempts,
  insertAuthToken,
  updateUser,
  type UserRow,
} from "./auth.queries.server";
import { loginSchema, otpCodeSchema } from "./auth.schema";
import { assertAttemptsLeft, clearAccountAttempts, consumeAttempt, recordFailedAttempt } from "./attempt-limits.server";
import { dummyPasswordHash, hashPassword, scryptParamsFor, verifyPassword } from "./password.server";
import { decryptSecret, hashCode, newSixDigitCode, normalizeRecoveryCode } from "./secrets.server";
import {
  createSession,
  rotateSession,
  toPublicUser,
  type AuthenticatedSession,
  type PublicUser,
} from "./session.server";
import { sendVerificationEmail } from "./email-verification.server";

export const INVALID_CREDENTIALS_MESSAGE = "The e-mail address or password is not correct.";
export const EMAIL_CODE_TTL_MINUTES = 10;
export const EMAIL_CODE_MAX_ATTEMPTS = 5;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

export type LoginResult = {
  user: PublicUser;
  requiresEmail2fa: boolean;
  requiresGoogle2fa: boolean;
  /** The new session's cookie value: the caller sets the cookie and never logs it. */
  token: string;
  session: AuthenticatedSession;
};

/**
 * POST /login (spec §7). Refusals are the same for an unknown e-mail and a wrong password, in
 * wording and in time (S12); the strict counters refuse the 11th attempt (S11). With a second
 * factor the new session stays unverified until POST /2fa/verify succeeds. A session the browser
 * already had is ended.
 */
export async function login(
  call: AuthCall,
  input: unknown,
  options: { previousSession?: AuthenticatedSession | null } = {},
): Promise<LoginResult> {
  const { ctx, meta } = call;
  const { email, password } = parseInput(loginSchema, input);
  const keys = { account: email, ip: ipKey(meta) };
  await assertAttemptsLeft(ctx.env, "login", keys);

  const user = await findUserByEmail(ctx.db, email);
  const scrypt = scryptParamsFor(ctx.env);
  const check = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash(scrypt)), scrypt);
  if (!user || !check.valid) {
    const { accountLocked } = await recordFailedAttempt(ctx.env, "login", keys);
    if (user) await recordAuthEvent(ctx, { userId: user.id, type: accountLocked ? "sign_in_locked" : "sign_in_failed", meta });
    throw new AppError("UNAUTHENTICATED", INVALID_CREDENTIALS_MESSAGE);
  }
  await clearAccountAttempts(ctx.env, "login", email);
  if (check.needsRehash) await updateUser(ctx.db, user.id, { passwordHash: await hashPassword(password, scrypt), updatedAt: ctx.now() });

  if (!user.emailVerifiedAt) {
    // Only someone who knows the password learns that the account exists.
    await sendVerificationEmail(call, user).catch((error: unknown) => {
      if (!(error instanceof AppError && error.code === "RATE_LIMITED")) throw error;
    });
    throw new AppError(
      "FORBIDDEN",
      `Confirm your e-mail address first: we have sent a new confirmation link to ${user.email}.`,
    );
  }

  const pending = user.totpEnabledAt ? "totp" : user.email2faEnabledAt ? "email" : null;
  const { token, session } = await createSession(ctx.db, { user, pendingSecondFactor: pending, meta, now: ctx.now() });
  // Signing in again from the same browser replaces the session it had (never two live ones).
  if (options.previousSession) await deleteSession(ctx.db, options.previousSession.id);
  if (pending === "email") await sendEmailSignInCode(call, user, session.id);
  if (!pending) await completeSignIn(call, user);
  return { user: toPublicUser(user), requiresEmail2fa: pending === "email", requiresGoogle2fa: pending === "totp", token, session };
}

/** Activity and the new-sign-in alert, once the session is fully verified. */
async function completeSignIn(call: AuthCall, user: UserRow): Promise<void> {
  const { ctx, meta, origin } = call;
  await recordAuthEvent(ctx, { userId: user.id, type: "sign_in", meta });
  await sendMail(ctx, {
    to: user.email,
    userId: user.id,
    template: {
      kind: "security-new-sign-in",
      name: user.name,
      when: formatWhen(ctx.now()),
      device: describeDevice(meta.userAgent),
      ip: meta.ipAddress ?? "unknown",
      securityLink: `${origin}/settings/security`,
    },
  });
}

/** Sends a fresh 6-digit code for an unverified session; older codes of that session stop working. */
export async function sendEmailSignInCode(call: AuthCall, user: UserRow, sessionId: string): Promise<void> {
  const { ctx } = call;
  await consumeAttempt(ctx.env, "2fa", { account: `mail:${user.id}` });
  const code = newSixDigitCode();
  const now = ctx.now();
  await expireUserTokens(ctx.db, user.id, "email_2fa", now);
  await insertAuthToken(ctx.db, {
    id: crypto.randomUUID(),
    userId: user.id,
    purpose: "email_2fa",
    tokenHash: await hashCode(readConfig(ctx.env).SESSION_SECRET, sessionId, code),
    sessionId,
    expiresAt: new Date(now.getTime() + EMAIL_CODE_TTL_MINUTES * 60_000),
    createdAt: now,
  });
  await sendMail(ctx, {
    to: user.email,
    userId: user.id,
    template: { kind: "email-2fa-code", name: user.name, code, minutes: EMAIL_CODE_TTL_MINUTES },
  });
}

export const INVALID_CODE_MESSAGE = "That code is not correct. Check it and try again.";

/**
 * Which 30-second step an authenticator code belongs to (the current one or a neighbour, for
 * clock drift), or null. A step at or before the last accepted one is refused: each code works
 * once (RFC 6238 §5.2), so a code seen over someone's shoulder cannot be replayed.
 */
export async function matchTotpStep(env: Env, user: Pick<UserRow, "totpSecret" | "totpLastUsedStep">, code: string, now: Date): Promise<number | null> {
  if (!user.totpSecret || !/^\d{6}$/.test(code)) return null;
  const key = await decryptSecret(readConfig(env).SESSION_SECRET, user.totpSecret);
  if (!key) return null;
  const current = Math.floor(now.getTime() / (TOTP_PERIOD_SECONDS * 1000));
  for (const step of [current, current - 1, current + 1]) {
    if (user.totpLastUsedStep !== null && step <= user.totpLastUsedStep) continue;
    if (timingSafeEqualString(generateHOTP(key, BigInt(step), TOTP_DIGITS), code)) return step;
  }
  return null;
}

/** Accepts an authenticator code once: the step is recorded only if no other request used it first. */
export async function acceptTotp(ctx: AuthCall["ctx"], user: UserRow, code: string): Promise<boolean> {
  const step = await matchTotpStep(ctx.env, user, code, ctx.now());
  return step !== null && (await claimTotpStep(ctx.db, user.id, step));
}

/**
 * POST /2fa/verify (spec §7): the code for the factor this session owes. An authenticator
 * session also accepts one unused recovery code. Success gives the session a new id (rotation).
 */
export async function verifySecondFactor(
  call: AuthCall,
  input: { session: AuthenticatedSession; user: UserRow; code: unknown },
): Promise<{ token: string; absoluteExpiresAt: Date; user: PublicUser; usedRecoveryCode: boolean }> {
  const { ctx, meta } = call;
  const { session, user } = input;
  if (session.verified || !session.pendingSecondFactor) {
    throw new AppError("CONFLICT", "This session is already verified.");
  }
  const code = parseInput(otpCodeSchema, input.code);
  const keys = { account: user.id, ip: ipKey(meta) };
  await assertAttemptsLeft(ctx.env, "2fa", keys);
  const secret = readConfig(ctx.env).SESSION_SECRET;

  let valid = false;
  let usedRecoveryCode = false;
  if (session.pendingSecondFactor === "totp") {
    valid = await acceptTotp(ctx, user, code);
    if (!valid && /^[a-z0-9]{10}$/i.test(code.replace(/-/g, ""))) {
      const recoveryHash = await hashCode(secret, `recovery:${user.id}`, normalizeRecoveryCode(code));
      valid = usedRecoveryCode = await consumeRecoveryCode(ctx.db, user.id, recoveryHash, ctx.now());
    }
  } else {
    const open = await findOpenSessionCode(ctx.db, session.id, ctx.now());
    if (!open || open.attempts >= EMAIL_CODE_MAX_ATTEMPTS) {
      await recordFailedAttempt(ctx.env, "2fa", keys);
      throw new AppError("UNAUTHENTICATED", "That code has expired. Send a new code and try again.");
    }
    const expected = await hashCode(secret, session.id, code);
    valid = timingSafeEqualString(expected, open.tokenHash) && (await consumeAuthToken(ctx.db, open.id, ctx.now()));
    if (!valid) await incrementTokenAttempts(ctx.db, open.id);
  }

  if (!valid) {
    await recordFailedAttempt(ctx.env, "2fa", keys);
    await recordAuthEvent(ctx, { userId: user.id, type: "two_factor_failed", meta });
    throw new AppError("UNAUTHENTICATED", INVALID_CODE_MESSAGE);
  }
  const rotated = await rotateSession(ctx.db, { session, user, now: ctx.now(), verified: true });
  if (!rotated) throw new AppError("UNAUTHENTICATED", "Your sign-in has expired. Please sign in again.");
  await clearAccountAttempts(ctx.env, "2fa", user.id);
  await recordAuthEvent(ctx, {
    userId: user.id,
    type: "two_factor_passed",
    meta,
    detail: usedRecoveryCode ? "recovery code" : session.pendingSecondFactor === "totp" ? "authenticator app" : "e-mail code",
  });
  if (usedRecoveryCode) await recordAuthEvent(ctx, { userId: user.id, type: "recovery_code_used", meta });
  await completeSignIn(call, user);
  return { ...rotated, user: toPublicUser(user), usedRecoveryCode };
}

/** POST /logout: the session row is deleted, so the cookie is dead even if a copy survives. */
export async function logout(call: AuthCall, session: AuthenticatedSession | null): Promise<void> {
  if (!session) return;
  await deleteSession(call.ctx.db, session.id);
  await recordAuthEvent(call.ctx, { userId: session.userId, type: "sign_out", meta: call.meta });
}
