import { z } from "zod";
import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { recordAuthEvent } from "./activity.server";
import { formatWhen, type AuthCall } from "./auth-context.server";
import {
  clampUserSessionLifetimes,
  deleteUserSession,
  deleteUserSessions,
  findUserByEmail,
  listUserSessions,
  updateUser,
  type UserRow,
} from "./auth.queries.server";
import { currentPasswordSchema, emailSchema, nameSchema, newPasswordSchema, SESSION_LIFETIME_CHOICES } from "./auth.schema";
import { assertAttemptsLeft, clearAccountAttempts, recordFailedAttempt } from "./attempt-limits.server";
import { issueLinkToken } from "./email-verification.server";
import { hashPassword, scryptParamsFor, verifyPassword } from "./password.server";
import { assertPasswordNotCommon } from "./registration.server";
import { isRecentlyAuthenticated, rotateSession, type AuthenticatedSession } from "./session.server";

export const CHANGE_EMAIL_TTL_MS = 24 * 60 * 60 * 1000;
export const WRONG_PASSWORD_MESSAGE = "That password is not correct.";

export type Member = { user: UserRow; session: AuthenticatedSession };

/** Sensitive actions need a password confirmation in the last 15 minutes (confirm password page). */
export function assertRecentlyAuthenticated(call: AuthCall, member: Member): void {
  if (!isRecentlyAuthenticated(member.session, call.ctx.now())) {
    throw new AppError("FORBIDDEN", "Confirm your password to continue.");
  }
}

/** Checks the member's password under the strict counters; a wrong one counts as a failure. */
export async function assertPassword(call: AuthCall, user: UserRow, password: unknown, field = "password"): Promise<void> {
  const value = parseInput(z.object({ [field]: currentPasswordSchema }), { [field]: password })[field] as string;
  const keys = { account: user.id };
  await assertAttemptsLeft(call.ctx.env, "reauth", keys);
  const check = await verifyPassword(value, user.passwordHash, scryptParamsFor(call.ctx.env));
  if (!check.valid) {
    await recordFailedAttempt(call.ctx.env, "reauth", keys);
    throw new AppError("VALIDATION_ERROR", WRONG_PASSWORD_MESSAGE, { fieldErrors: { [field]: [WRONG_PASSWORD_MESSAGE] } });
  }
  await clearAccountAttempts(call.ctx.env, "reauth", user.id);
}

/** Confirm password: proves presence again and gives the session a new id (S2). */
export async function confirmPassword(call: AuthCall, member: Member, password: unknown): Promise<{ token: string; absoluteExpiresAt: Date }> {
  await assertPassword(call, member.user, password);
  const rotated = await rotateSession(call.ctx.db, { session: member.session, user: member.user, now: call.ctx.now(), reauthenticated: true });
  if (!rotated) throw new AppError("UNAUTHENTICATED");
  return rotated;
}

export async function updateProfile(call: AuthCall, member: Member, input: unknown): Promise<void> {
  const { name } = parseInput(z.object({ name: nameSchema }), input);
  await updateUser(call.ctx.db, member.user.id, { name, updatedAt: call.ctx.now() });
  await recordAuthEvent(call.ctx, { userId: member.user.id, type: "profile_updated", meta: call.meta });
}

/**
 * E-mail change: a link goes to the new address and the change happens when it is opened. The
 * answer is the same when the address is taken (S12); then nothing is sent.
 */
export async function requestEmailChange(call: AuthCall, member: Member, input: unknown): Promise<{ newEmail: string }> {
  const { email: newEmail } = parseInput(z.object({ email: emailSchema }), input);
  assertRecentlyAuthenticated(call, member);
  if (newEmail === member.user.email) {
    throw new AppError("VALIDATION_ERROR", "That is already your e-mail address.", { fieldErrors: { email: ["That is already your e-mail address."] } });
  }
  const taken = await findUserByEmail(call.ctx.db, newEmail);
  if (!taken) {
    const token = await issueLinkToken(call, { user: member.user, purpose: "change_email", ttlMs: CHANGE_EMAIL_TTL_MS, newEmail });
    await sendMail(call.ctx, {
      to: newEmail,
      userId: member.user.id,
      template: { kind: "change-email", name: member.user.name, newEmail, link: `${call.origin}/settings/account/confirm-email?token=${token}` },
    });
  }
  return { newEmail };
}

/**
 * Password change: needs the current password; the session gets a new id and, when asked, every
 * other session ends (S3). The member is told by e-mail.
 */
export async function changePassword(
  call: AuthCall,
  member: Member,
  input: { currentPassword: unknown; newPassword: unknown; endOtherSessions: boolean },
): Promise<{ token: string; absoluteExpiresAt: Date; endedSessions: number }> {
  const { ctx, meta, origin } = call;
  const { newPassword } = parseInput(z.object({ newPassword: newPasswordSchema }), { newPassword: input.newPassword });
  await assertPassword(call, member.user, input.currentPassword, "currentPassword");
  await assertPasswordNotCommon(newPassword, "newPassword");
  await updateUser(ctx.db, member.user.id, { passwordHash: await hashPassword(newPassword, scryptParamsFor(ctx.env)), updatedAt: ctx.now() });
  const endedSessions = input.endOtherSessions ? await deleteUserSessions(ctx.db, member.user.id, member.session.id) : 0;
  const rotated = await rotateSession(ctx.db, { session: member.session, user: member.user, now: ctx.now(), reauthenticated: true });
  if (!rotated) throw new AppError("UNAUTHENTICATED");
  await recordAuthEvent(ctx, { userId: member.user.id, type: "password_changed", meta });
  await sendMail(ctx, {
    to: member.user.email,
    userId: member.user.id,
    template: { kind: "security-password-changed", name: member.user.name, when: formatWhen(ctx.now()), securityLink: `${origin}/settings/security` },
  });
  return { ...rotated, endedSessions };
}

export async function listSessions(call: AuthCall, member: Member) {
  const rows = await listUserSessions(call.ctx.db, member.user.id, call.ctx.now());
  return rows.map((row) => ({
    id: row.id,
    isCurrent: row.id === member.session.id,
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    verified: row.verifiedAt !== null,
  }));
}

/** Ends one of the member's own sessions; another member's session id is simply not found. */
export async function revokeSession(call: AuthCall, member: Member, sessionId: unknown): Promise<void> {
  const id = parseInput(z.string().regex(/^[0-9a-f]{64}$/, "Choose a session to end."), sessionId);
  if (id === member.session.id) {
    throw new AppError("VALIDATION_ERROR", "To end this session, sign out instead.");
  }
  if (!(await deleteUserSession(call.ctx.db, member.user.id, id))) {
    throw new AppError("NOT_FOUND", "That session has already ended.");
  }
  await recordAuthEvent(call.ctx, { userId: member.user.id, type: "session_revoked", meta: call.meta });
}

export async function revokeOtherSessions(call: AuthCall, member: Member): Promise<number> {
  const ended = await deleteUserSessions(call.ctx.db, member.user.id, member.session.id);
  await recordAuthEvent(call.ctx, { userId: member.user.id, type: "other_sessions_revoked", meta: call.meta, detail: `${ended} ended` });
  return ended;
}

const securityLevelSchema = z.object({
  require2fa: z.boolean(),
  sessionLifetimeHours: z
    .number({ error: "Choose a session lifetime." })
    .int()
    .refine((hours) => (SESSION_LIFETIME_CHOICES as readonly number[]).includes(hours), "Choose one of the listed session lifetimes."),
});

/** Security level: the account's own policy. Requiring 2FA needs a second factor to be on. */
export async function updateSecurityLevel(call: AuthCall, member: Member, input: unknown): Promise<void> {
  const { require2fa, sessionLifetimeHours } = parseInput(securityLevelSchema, input);
  assertRecentlyAuthenticated(call, member);
  if (require2fa && !member.user.totpEnabledAt && !member.user.email2faEnabledAt) {
    throw new AppError("VALIDATION_ERROR", "Turn on an authenticator app or e-mail codes before requiring two-factor authentication.", {
      fieldErrors: { require2fa: ["Turn on an authenticator app or e-mail codes first."] },
    });
  }
  await updateUser(call.ctx.db, member.user.id, { require2fa, sessionLifetimeHours, updatedAt: call.ctx.now() });
  await clampUserSessionLifetimes(call.ctx.db, member.user.id, sessionLifetimeHours * 3600_000);
  await recordAuthEvent(call.ctx, {
    userId: member.user.id,
    type: "security_level_changed",
    meta: call.meta,
    detail: `two-factor ${require2fa ? "required" : "optional"}; sessions last ${sessionLifetimeHours} h`,
  });
}
