import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import { recordAuthEvent } from "./activity.server";
import { formatWhen, type AuthCall } from "./auth-context.server";
import {
  consumeAuthToken,
  expireUserTokens,
  findAuthTokenByHash,
  findUserByEmail,
  findUserById,
  insertAuthToken,
  updateUser,
  type AuthTokenRow,
  type UserRow,
} from "./auth.queries.server";
import type { AuthTokenPurpose } from "~/db/schema";
import { consumeAttempt } from "./attempt-limits.server";
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "./secrets.server";
import { createSession, type AuthenticatedSession, type PublicUser, toPublicUser } from "./session.server";

export const VERIFY_LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const INVALID_LINK_MESSAGE = "This link is invalid, was already used, or has expired. Ask for a new one.";

/** Issues a single-use link token (S1) after retiring the member's older ones of that purpose. */
export async function issueLinkToken(
  call: AuthCall,
  input: { user: UserRow; purpose: AuthTokenPurpose; ttlMs: number; newEmail?: string },
): Promise<string> {
  const { ctx } = call;
  const now = ctx.now();
  const { token, hash } = newLinkToken();
  await expireUserTokens(ctx.db, input.user.id, input.purpose, now);
  await insertAuthToken(ctx.db, {
    id: crypto.randomUUID(),
    userId: input.user.id,
    purpose: input.purpose,
    tokenHash: hash,
    newEmail: input.newEmail ?? null,
    expiresAt: new Date(now.getTime() + input.ttlMs),
    createdAt: now,
  });
  return token;
}

/** The open token behind a link, or null: unknown, used and expired links look the same. */
export async function findOpenLinkToken(call: AuthCall, purpose: AuthTokenPurpose, token: unknown): Promise<AuthTokenRow | null> {
  if (typeof token !== "string" || !LINK_TOKEN_PATTERN.test(token)) return null;
  const row = await findAuthTokenByHash(call.ctx.db, purpose, hashLinkToken(token));
  if (!row || row.usedAt || row.expiresAt.getTime() <= call.ctx.now().getTime()) return null;
  return row;
}

export async function sendVerificationEmail(call: AuthCall, user: UserRow): Promise<void> {
  await consumeAttempt(call.ctx.env, "verify-email", { account: user.id });
  const token = await issueLinkToken(call, { user, purpose: "verify_email", ttlMs: VERIFY_LINK_TTL_MS });
  await sendMail(call.ctx, {
    to: user.email,
    userId: user.id,
    template: { kind: "verify-email", name: user.name, link: `${call.origin}/verify-email?token=${token}` },
  });
}

/**
 * Confirms the address behind a verification link (a POST from the confirmation page, so mail
 * scanners that fetch links cannot use it up). The member is signed in unless the account has a
 * second factor, in which case they sign in normally.
 */
export async function confirmEmail(
  call: AuthCall,
  token: unknown,
): Promise<{ user: PublicUser; signIn: { token: string; session: AuthenticatedSession } | null }> {
  const { ctx, meta } = call;
  const row = await findOpenLinkToken(call, "verify_email", token);
  const user = row ? await findUserById(ctx.db, row.userId) : undefined;
  if (!row || !user || !(await consumeAuthToken(ctx.db, row.id, ctx.now()))) {
    throw new AppError("NOT_FOUND", INVALID_LINK_MESSAGE);
  }
  if (!user.emailVerifiedAt) {
    await updateUser(ctx.db, user.id, { emailVerifiedAt: ctx.now(), updatedAt: ctx.now() });
    await recordAuthEvent(ctx, { userId: user.id, type: "email_verified", meta });
  }
  const verifiedUser = { ...user, emailVerifiedAt: user.emailVerifiedAt ?? ctx.now() };
  const hasSecondFactor = Boolean(user.totpEnabledAt || user.email2faEnabledAt);
  const signIn = hasSecondFactor ? null : await createSession(ctx.db, { user: verifiedUser, pendingSecondFactor: null, meta, now: ctx.now() });
  if (signIn) await recordAuthEvent(ctx, { userId: user.id, type: "sign_in", meta, detail: "e-mail confirmation link" });
  return { user: toPublicUser(verifiedUser), signIn };
}

/** Confirms an e-mail change: the new address must have stayed free in the meantime. */
export async function confirmEmailChange(call: AuthCall, token: unknown): Promise<PublicUser> {
  const { ctx, meta } = call;
  const row = await findOpenLinkToken(call, "change_email", token);
  const user = row ? await findUserById(ctx.db, row.userId) : undefined;
  if (!row || !row.newEmail || !user) throw new AppError("NOT_FOUND", INVALID_LINK_MESSAGE);
  const taken = await findUserByEmail(ctx.db, row.newEmail);
  if (taken && taken.id !== user.id) {
    throw new AppError("CONFLICT", "That e-mail address now belongs to another account. Choose a different one.");
  }
  if (!(await consumeAuthToken(ctx.db, row.id, ctx.now()))) throw new AppError("NOT_FOUND", INVALID_LINK_MESSAGE);
  const oldEmail = user.email;
  await updateUser(ctx.db, user.id, { email: row.newEmail, emailVerifiedAt: ctx.now(), updatedAt: ctx.now() });
  await recordAuthEvent(ctx, { userId: user.id, type: "email_changed", meta });
  await sendMail(ctx, {
    to: oldEmail,
    userId: user.id,
    template: { kind: "security-email-changed", name: user.name, when: formatWhen(ctx.now()), newEmail: row.newEmail },
  });
  return toPublicUser({ ...user, email: row.newEmail, emailVerifiedAt: ctx.now() });
}
