import { and, desc, eq, gt, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  authEvents,
  authTokens,
  recoveryCodes,
  sessions,
  users,
  type AuthEventType,
  type AuthTokenPurpose,
} from "~/db/schema";

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type AuthTokenRow = typeof authTokens.$inferSelect;
export type AuthEventRow = typeof authEvents.$inferSelect;

// ---- users -----------------------------------------------------------------------------------

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db.select().from(users).where(eq(users.email, email)).get();
}

export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  return db.select().from(users).where(eq(users.id, id)).get();
}

/** Inserts unless the e-mail is taken; returns whether the row was written. */
export async function insertUserIfEmailFree(db: Database, row: typeof users.$inferInsert): Promise<boolean> {
  const result = await db.insert(users).values(row).onConflictDoNothing({ target: users.email }).run();
  return result.meta.changes === 1;
}

export async function updateUser(db: Database, id: string, values: Partial<typeof users.$inferInsert>): Promise<void> {
  await db.update(users).set(values).where(eq(users.id, id)).run();
}

export async function deleteUserRow(db: Database, id: string): Promise<void> {
  await db.delete(users).where(eq(users.id, id)).run();
}

// ---- sessions --------------------------------------------------------------------------------

export async function insertSession(db: Database, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row).run();
}

export async function findSessionWithUser(db: Database, sessionId: string) {
  return db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId))
    .get();
}

export async function updateSession(db: Database, sessionId: string, values: Partial<typeof sessions.$inferInsert>): Promise<void> {
  await db.update(sessions).set(values).where(eq(sessions.id, sessionId)).run();
}

/** Gives the session a new id (rotation); the old id stops working at once. */
export async function rotateSessionId(
  db: Database,
  oldId: string,
  newId: string,
  values: Partial<typeof sessions.$inferInsert>,
): Promise<boolean> {
  const result = await db.update(sessions).set({ ...values, id: newId }).where(eq(sessions.id, oldId)).run();
  return result.meta.changes === 1;
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId)).run();
}

export async function deleteUserSession(db: Database, userId: string, sessionId: string): Promise<boolean> {
  const result = await db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId))).run();
  return result.meta.changes > 0;
}

export async function deleteUserSessions(db: Database, userId: string, exceptSessionId?: string): Promise<number> {
  const where = exceptSessionId
    ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId))
    : eq(sessions.userId, userId);
  const result = await db.delete(sessions).where(where).run();
  return result.meta.changes;
}

export async function listUserSessions(db: Database, userId: string, now: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now), gt(sessions.absoluteExpiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt))
    .all();
}

export async function deleteExpiredSessions(db: Database, now: Date): Promise<number> {
  const result = await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.absoluteExpiresAt, now))).run();
  return result.meta.changes;
}

// ---- e-mailed tokens and codes ----------------------------------------------------------------

export async function insertAuthToken(db: Database, row: typeof authTokens.$inferInsert): Promise<void> {
  await db.insert(authTokens).values(row).run();
}

export async function findAuthTokenByHash(db: Database, purpose: AuthTokenPurpose, tokenHash: string) {
  return db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.purpose, purpose), eq(authTokens.tokenHash, tokenHash)))
    .get();
}

/** The newest unused code a session was sent (e-mail 2FA). */
export async function findOpenSessionCode(db: Database, sessionId: string, now: Date) {
  return db
    .select()
    .from(authTokens)
    .where(
      and(
        eq(authTokens.purpose, "email_2fa"),
        eq(authTokens.sessionId, sessionId),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .orderBy(desc(authTokens.createdAt))
    .get();
}

/** Marks a token used only if it still is unused: exactly one caller wins. */
export async function consumeAuthToken(db: Database, id: string, now: Date): Promise<boolean> {
  const result = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.id, id), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)))
    .run();
  return result.meta.changes === 1;
}

export async function incrementTokenAttempts(db: Database, id: string): Promise<void> {
  const row = await db.select({ attempts: authTokens.attempts }).from(authTokens).where(eq(authTokens.id, id)).get();
  if (row) await db.update(authTokens).set({ attempts: row.attempts + 1 }).where(eq(authTokens.id, id)).run();
}

/** Invalidates every open token of one purpose (a new link replaces the old ones). */
export async function expireUserTokens(db: Database, userId: string, purpose: AuthTokenPurpose, now: Date): Promise<void> {
  await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt)))
    .run();
}

export async function deleteStaleAuthTokens(db: Database, before: Date): Promise<number> {
  const result = await db.delete(authTokens).where(lt(authTokens.expiresAt, before)).run();
  return result.meta.changes;
}

// ---- recovery codes --------------------------------------------------------------------------

export async function replaceRecoveryCodes(db: Database, userId: string, hashes: string[], now: Date): Promise<void> {
  await db.batch([
    db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    ...hashes.map((codeHash) =>
      db.insert(recoveryCodes).values({ id: crypto.randomUUID(), userId, codeHash, createdAt: now }),
    ),
  ]);
}

export async function deleteRecoveryCodes(db: Database, userId: string): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run();
}

export async function consumeRecoveryCode(db: Database, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const result = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .run();
  return result.meta.changes === 1;
}

export async function countUnusedRecoveryCodes(db: Database, userId: string): Promise<number> {
  const rows = await db
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
    .all();
  return rows.length;
}

// ---- activity --------------------------------------------------------------------------------

export async function insertAuthEvent(
  db: Database,
  row: { userId: string; type: AuthEventType; ipAddress: string | null; userAgent: string | null; detail?: string | null; createdAt: Date },
): Promise<void> {
  await db
    .insert(authEvents)
    .values({ id: crypto.randomUUID(), ...row, detail: row.detail ?? null })
    .run();
}

export async function listAuthEvents(db: Database, userId: string, limit: number): Promise<AuthEventRow[]> {
  return db.select().from(authEvents).where(eq(authEvents.userId, userId)).orderBy(desc(authEvents.createdAt)).limit(limit).all();
}

/** Shortens every session of the member to the new absolute lifetime (never lengthens one). */
export async function clampUserSessionLifetimes(db: Database, userId: string, lifetimeMs: number): Promise<void> {
  await db
    .update(sessions)
    .set({
      absoluteExpiresAt: sql`min(${sessions.absoluteExpiresAt}, ${sessions.createdAt} + ${lifetimeMs})`,
      expiresAt: sql`min(${sessions.expiresAt}, ${sessions.createdAt} + ${lifetimeMs})`,
    })
    .where(eq(sessions.userId, userId))
    .run();
}

/** Records the step of an accepted authenticator code unless that step (or a later one) was used. */
export async function claimTotpStep(db: Database, userId: string, step: number): Promise<boolean> {
  const result = await db
    .update(users)
    .set({ totpLastUsedStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastUsedStep), lt(users.totpLastUsedStep, step))))
    .run();
  return result.meta.changes === 1;
}
