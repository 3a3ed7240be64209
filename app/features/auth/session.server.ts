import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { randomToken } from "~/lib/crypto.server";
import type { ServiceContext } from "~/lib/service-context.server";
import type { PublicUser } from "./auth.types";
import type { Database } from "~/db/client.server";
import { readCookie } from "~/lib/cookies";
import {
  deleteSession,
  findSessionWithUser,
  insertSession,
  rotateSessionId,
  updateSession,
  type SessionRow,
  type UserRow,
} from "./auth.queries.server";

/**
 * Sessions after Lucia's design (ADR 002, S2): the cookie holds a random 160-bit token; D1 holds
 * only its SHA-256. Idle expiry slides forward with use (written at most when half the idle
 * window has passed); absolute expiry never moves. Logout, expiry, revocation and rotation all
 * delete or rename the row, so an old cookie answers 401 at once.
 */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** A session that still owes its second factor lives at most this long. */
export const UNVERIFIED_SESSION_MS = 15 * 60 * 1000;
/** How recent a password confirmation must be for sensitive actions. */
export const REAUTH_WINDOW_MS = 15 * 60 * 1000;
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

export type RequestMeta = { ipAddress: string | null; userAgent: string | null };

export type { PublicUser };

export type AuthenticatedSession = {
  /** The session row's id (the token's hash), never the token. */
  id: string;
  userId: string;
  verified: boolean;
  pendingSecondFactor: "email" | "totp" | null;
  /** Whether this session passed a second factor (a data room's 2FA requirement asks for it). */
  secondFactorPassed: boolean;
  reauthenticatedAt: Date | null;
  createdAt: Date;
  absoluteExpiresAt: Date;
};

export type SessionValidation = { session: AuthenticatedSession; user: UserRow };

declare module "~/lib/request-context.server" {
  /** The request's session, as the session middleware validated it. */
  interface RequestAuth {
    session: AuthenticatedSession;
    user: UserRow;
  }
}

export function hashSessionToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export function toPublicUser(user: UserRow): PublicUser {
  return { id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerifiedAt !== null, tier: user.tier };
}

function toAuthenticatedSession(row: SessionRow): AuthenticatedSession {
  return {
    id: row.id,
    userId: row.userId,
    verified: row.verifiedAt !== null,
    pendingSecondFactor: row.pendingSecondFactor,
    secondFactorPassed: row.secondFactorAt !== null,
    reauthenticatedAt: row.reauthenticatedAt,
    createdAt: row.createdAt,
    absoluteExpiresAt: row.absoluteExpiresAt,
  };
}

/** The account's own policy may shorten the absolute lifetime (security level page). */
export function absoluteLifetimeMs(user: Pick<UserRow, "sessionLifetimeHours">): number {
  return user.sessionLifetimeHours ? Math.min(user.sessionLifetimeHours * 3600_000, SESSION_ABSOLUTE_MS) : SESSION_ABSOLUTE_MS;
}

export async function createSession(
  db: Database,
  input: {
    user: UserRow;
    pendingSecondFactor: "email" | "totp" | null;
    meta: RequestMeta;
    now: Date;
    /** The session starts past a second factor (only the e2e test hook's members do). */
    secondFactorPassed?: boolean;
  },
): Promise<{ token: string; session: AuthenticatedSession }> {
  const token = randomToken(20);
  const now = input.now.getTime();
  const absolute = now + (input.pendingSecondFactor ? UNVERIFIED_SESSION_MS : absoluteLifetimeMs(input.user));
  const row: SessionRow = {
    id: hashSessionToken(token),
    userId: input.user.id,
    verifiedAt: input.pendingSecondFactor ? null : input.now,
    pendingSecondFactor: input.pendingSecondFactor,
    secondFactorAt: input.secondFactorPassed ? input.now : null,
    reauthenticatedAt: input.pendingSecondFactor ? null : input.now,
    ipAddress: input.meta.ipAddress,
    userAgent: input.meta.userAgent?.slice(0, 400) ?? null,
    createdAt: input.now,
    lastSeenAt: input.now,
    expiresAt: new Date(Math.min(now + SESSION_IDLE_MS, absolute)),
    absoluteExpiresAt: new Date(absolute),
  };
  await insertSession(db, row);
  return { token, session: toAuthenticatedSession(row) };
}

/** Looks the token up, ends it when expired, slides the idle expiry when due. */
export async function validateSessionToken(db: Database, token: string, now: Date): Promise<SessionValidation | null> {
  const id = hashSessionToken(token);
  const found = await findSessionWithUser(db, id);
  if (!found) return null;
  const { session, user } = found;
  const time = now.getTime();
  if (time >= session.expiresAt.getTime() || time >= session.absoluteExpiresAt.getTime()) {
    await deleteSession(db, id);
    return null;
  }
  const idleRefreshDue = session.expiresAt.getTime() - time < SESSION_IDLE_MS / 2 && session.verifiedAt !== null;
  const lastSeenDue = time - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS;
  if (idleRefreshDue || lastSeenDue) {
    const expiresAt = idleRefreshDue
      ? new Date(Math.min(time + SESSION_IDLE_MS, session.absoluteExpiresAt.getTime()))
      : session.expiresAt;
    await updateSession(db, id, { lastSeenAt: now, expiresAt });
  }
  return { session: toAuthenticatedSession(session), user };
}

/** The session behind a request's cookie token: the session middleware's one call per request. */
export function authenticateSessionToken(ctx: ServiceContext, token: string): Promise<SessionValidation | null> {
  return validateSessionToken(ctx.db, token, ctx.now());
}

/**
 * New id for an existing session (after the second factor or a password confirmation): the old
 * token stops working; everything else about the session stays.
 */
export async function rotateSession(
  db: Database,
  input: { session: AuthenticatedSession; user: UserRow; now: Date; verified?: boolean; reauthenticated?: boolean },
): Promise<{ token: string; absoluteExpiresAt: Date } | null> {
  const token = randomToken(20);
  const now = input.now.getTime();
  const values: Partial<SessionRow> = {};
  let absoluteExpiresAt = input.session.absoluteExpiresAt;
  if (input.verified) {
    const absolute = now + absoluteLifetimeMs(input.user);
    values.verifiedAt = input.now;
    // `verified` is only ever given after a second factor was checked (POST /2fa/verify).
    values.secondFactorAt = input.now;
    values.pendingSecondFactor = null;
    values.reauthenticatedAt = input.now;
    values.absoluteExpiresAt = absoluteExpiresAt = new Date(absolute);
    values.expiresAt = new Date(Math.min(now + SESSION_IDLE_MS, absolute));
    values.lastSeenAt = input.now;
  }
  if (input.reauthenticated) values.reauthenticatedAt = input.now;
  const rotated = await rotateSessionId(db, input.session.id, hashSessionToken(token), values);
  return rotated ? { token, absoluteExpiresAt } : null;
}

export function isRecentlyAuthenticated(session: AuthenticatedSession, now: Date): boolean {
  return session.reauthenticatedAt !== null && now.getTime() - session.reauthenticatedAt.getTime() < REAUTH_WINDOW_MS;
}

// ---- the cookie (S4) -------------------------------------------------------------------------

export function sessionCookieName(isSecure: boolean): string {
  return isSecure ? "__Host-strongroom_session" : "strongroom_session";
}

export function serializeSessionCookie(token: string, expiresAt: Date, isSecure: boolean, now: Date): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  const attributes = [`${sessionCookieName(isSecure)}=${token}`, "Path=/", `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Lax"];
  if (isSecure) attributes.push("Secure");
  return attributes.join("; ");
}

export function serializeBlankSessionCookie(isSecure: boolean): string {
  const attributes = [`${sessionCookieName(isSecure)}=`, "Path=/", "Max-Age=0", "HttpOnly", "SameSite=Lax"];
  if (isSecure) attributes.push("Secure");
  return attributes.join("; ");
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,64}$/;

export function readSessionToken(cookieHeader: string | null, isSecure: boolean): string | null {
  const value = readCookie(cookieHeader, sessionCookieName(isSecure));
  return value !== null && TOKEN_PATTERN.test(value) ? value : null;
}
