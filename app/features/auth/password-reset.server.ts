import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { z } from "zod";
import { recordAuthEvent } from "./activity.server";
import { formatWhen, ipKey, type AuthCall } from "./auth-context.server";
import { consumeAuthToken, deleteUserSessions, findUserByEmail, findUserById, updateUser } from "./auth.queries.server";
import { emailSchema, newPasswordSchema } from "./auth.schema";
import { consumeAttempt } from "./attempt-limits.server";
import { findOpenLinkToken, INVALID_LINK_MESSAGE, issueLinkToken } from "./email-verification.server";
import { hashPassword, scryptParamsFor } from "./password.server";
import { assertPasswordNotCommon } from "./registration.server";

export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

/**
 * Forgot password. Every request counts against the address and the IP (S11); the answer is the
 * same whether an account exists (S12). Nothing is sent to an address without an account.
 */
export async function requestPasswordReset(call: AuthCall, input: unknown): Promise<{ email: string }> {
  const { ctx, meta, origin } = call;
  const { email } = parseInput(z.object({ email: emailSchema }), input);
  await consumeAttempt(ctx.env, "reset", { account: email, ip: ipKey(meta) });
  const user = await findUserByEmail(ctx.db, email);
  if (user) {
    const token = await issueLinkToken(call, { user, purpose: "reset_password", ttlMs: RESET_LINK_TTL_MS });
    await sendMail(ctx, {
      to: user.email,
      userId: user.id,
      template: { kind: "reset-password", name: user.name, link: `${origin}/reset-password?token=${token}` },
    });
  }
  return { email };
}

/** Whether a reset link is still good (the reset page shows its form only then). */
export async function isResetLinkOpen(call: AuthCall, token: unknown): Promise<boolean> {
  return (await findOpenLinkToken(call, "reset_password", token)) !== null;
}

/**
 * Sets the new password, confirms the address (the link proved the mailbox), ends every session
 * (S3) and tells the member by e-mail.
 */
export async function resetPassword(call: AuthCall, input: { token: unknown; password: unknown }): Promise<{ email: string }> {
  const { ctx, meta, origin } = call;
  const { password } = parseInput(z.object({ password: newPasswordSchema }), { password: input.password });
  const row = await findOpenLinkToken(call, "reset_password", input.token);
  const user = row ? await findUserById(ctx.db, row.userId) : undefined;
  if (!row || !user) throw new AppError("NOT_FOUND", INVALID_LINK_MESSAGE);
  await assertPasswordNotCommon(password);
  const passwordHash = await hashPassword(password, scryptParamsFor(ctx.env));
  if (!(await consumeAuthToken(ctx.db, row.id, ctx.now()))) throw new AppError("NOT_FOUND", INVALID_LINK_MESSAGE);
  await updateUser(ctx.db, user.id, { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? ctx.now(), updatedAt: ctx.now() });
  await deleteUserSessions(ctx.db, user.id);
  await recordAuthEvent(ctx, { userId: user.id, type: "password_reset", meta });
  await sendMail(ctx, {
    to: user.email,
    userId: user.id,
    template: { kind: "security-password-changed", name: user.name, when: formatWhen(ctx.now()), securityLink: `${origin}/settings/security` },
  });
  return { email: user.email };
}
