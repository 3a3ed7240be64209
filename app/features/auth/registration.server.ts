import { attributeSignUp } from "~/features/billing/referrals.server";
import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import { readConfig } from "~/lib/config.server";
import { parseInput } from "~/lib/validation";
import { recordAuthEvent } from "./activity.server";
import { ipKey, type AuthCall } from "./auth-context.server";
import { findUserByEmail, insertUserIfEmailFree, updateUser, type UserRow } from "./auth.queries.server";
import { createSession, type AuthenticatedSession } from "./session.server";
import { registerSchema } from "./auth.schema";
import { consumeAttempt } from "./attempt-limits.server";
import { sendVerificationEmail } from "./email-verification.server";
import { hashPassword, isCommonPassword, scryptParamsFor } from "./password.server";
import { verifyTurnstile } from "./turnstile.server";

export const COMMON_PASSWORD_MESSAGE = "This password is too common and easy to guess. Choose a different one.";

export async function assertPasswordNotCommon(password: string, field = "password"): Promise<void> {
  if (await isCommonPassword(password)) {
    throw new AppError("VALIDATION_ERROR", COMMON_PASSWORD_MESSAGE, { fieldErrors: { [field]: [COMMON_PASSWORD_MESSAGE] } });
  }
}

/**
 * Sign-up. The answer is the same whether the address is new or taken (S12): either way the
 * visitor is told to check their inbox. A new address gets a confirmation link; a confirmed
 * account gets a "you already have an account" notice; an unconfirmed one is re-armed with the
 * new details (only the mailbox owner can confirm it). A filled honeypot is answered the same way
 * and nothing is stored.
 */
export async function register(
  call: AuthCall,
  input: { fields: unknown; honeypot: unknown; turnstileToken: unknown; referralCode?: string | null },
): Promise<{ email: string }> {
  const { ctx, meta, origin } = call;
  const { name, email, password } = parseInput(registerSchema, input.fields);
  await consumeAttempt(ctx.env, "register", { account: email, ip: ipKey(meta) });
  if (typeof input.honeypot === "string" && input.honeypot.trim() !== "") {
    ctx.logger.info("sign-up honeypot tripped");
    return { email };
  }
  const config = readConfig(ctx.env);
  const passed = await verifyTurnstile(config, { token: input.turnstileToken, ip: meta.ipAddress, idempotencyKey: crypto.randomUUID() });
  if (!passed) throw new AppError("VALIDATION_ERROR", "Please complete the security check and try again.");
  await assertPasswordNotCommon(password);

  const passwordHash = await hashPassword(password, scryptParamsFor(ctx.env));
  const now = ctx.now();
  const existing = await findUserByEmail(ctx.db, email);
  if (existing?.emailVerifiedAt) {
    await sendMail(ctx, {
      to: existing.email,
      userId: existing.id,
      template: {
        kind: "signup-existing-account",
        name: existing.name,
        loginLink: `${origin}/login`,
        resetLink: `${origin}/forgot-password`,
      },
    });
    return { email };
  }
  if (existing) {
    await updateUser(ctx.db, existing.id, { name, passwordHash, updatedAt: now });
    await sendVerificationEmail(call, { ...existing, name, passwordHash });
    return { email };
  }
  const id = crypto.randomUUID();
  const inserted = await insertUserIfEmailFree(ctx.db, { id, email, name, passwordHash, createdAt: now, updatedAt: now });
  if (!inserted) return { email };
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw new AppError("CONFLICT", "The account could not be created. Please try again.");
  await recordAuthEvent(ctx, { userId: user.id, type: "account_created", meta });
  // The referral link's cookie (issue 43): never a reason for a sign-up to fail.
  await attributeSignUp(ctx, user, input.referralCode ?? null).catch((error: unknown) => ctx.logger.error("referral not attributed", { error: error instanceof Error ? error.message : String(error) }));
  await sendVerificationEmail(call, user);
  return { email };
}

/**
 * Sign-up on the way into a data room (issue 19): the visitor holds a single-use link that was
 * mailed to `email`, which proves they read that mailbox, so the account starts confirmed and
 * signed in (no second confirmation round trip). Same rules as sign-up (limits, common
 * passwords, hashing); an address that already has an account is told to sign in instead.
 * The caller has already checked the invitation; it consumes it right after.
 */
export async function registerFromInvitation(
  call: AuthCall,
  input: { email: string; fields: { name: unknown; password: unknown } },
): Promise<{ user: UserRow; signIn: { token: string; session: AuthenticatedSession } }> {
  const { ctx, meta } = call;
  const { name, email, password } = parseInput(registerSchema, { ...input.fields, email: input.email });
  await consumeAttempt(ctx.env, "register", { account: email, ip: ipKey(meta) });
  await assertPasswordNotCommon(password);
  const existing = await findUserByEmail(ctx.db, email);
  if (existing?.emailVerifiedAt) throw new AppError("CONFLICT", ACCOUNT_EXISTS_MESSAGE);
  const passwordHash = await hashPassword(password, scryptParamsFor(ctx.env));
  const now = ctx.now();
  if (existing) {
    // An unconfirmed sign-up for this address: the invitation link confirms it, with the new details.
    await updateUser(ctx.db, existing.id, { name, passwordHash, emailVerifiedAt: now, updatedAt: now });
  } else {
    const inserted = await insertUserIfEmailFree(ctx.db, { id: crypto.randomUUID(), email, name, passwordHash, emailVerifiedAt: now, createdAt: now, updatedAt: now });
    if (!inserted) throw new AppError("CONFLICT", ACCOUNT_EXISTS_MESSAGE);
  }
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw new AppError("CONFLICT", "The account could not be created. Please try again.");
  if (!existing) await recordAuthEvent(ctx, { userId: user.id, type: "account_created", meta });
  await recordAuthEvent(ctx, { userId: user.id, type: "email_verified", meta });
  const signIn = await createSession(ctx.db, { user, pendingSecondFactor: null, meta, now });
  await recordAuthEvent(ctx, { userId: user.id, type: "sign_in", meta, detail: "data room invitation" });
  return { user, signIn };
}

export const ACCOUNT_EXISTS_MESSAGE = "An account with this e-mail address already exists. Sign in to accept the invitation.";
