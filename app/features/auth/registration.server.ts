import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import { readConfig } from "~/lib/config.server";
import { parseInput } from "~/lib/validation";
import { recordAuthEvent } from "./activity.server";
import { ipKey, type AuthCall } from "./auth-context.server";
import { findUserByEmail, insertUserIfEmailFree, updateUser } from "./auth.queries.server";
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
  input: { fields: unknown; honeypot: unknown; turnstileToken: unknown },
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
  await sendVerificationEmail(call, user);
  return { email };
}
