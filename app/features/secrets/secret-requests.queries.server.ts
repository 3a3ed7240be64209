import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { secretRequestResponses, secretRequests, users } from "~/db/schema";

/** Requests for secrets: the only place drizzle is called for them. */

export type SecretRequestRow = typeof secretRequests.$inferSelect;

export async function insertSecretRequest(db: Database, row: typeof secretRequests.$inferInsert): Promise<void> {
  await db.insert(secretRequests).values(row).run();
}

/** Requests still taking answers. */
export async function countOpenRequests(db: Database, userId: string, now: Date): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(secretRequests)
    .where(and(eq(secretRequests.userId, userId), sql`${secretRequests.closedAt} IS NULL AND ${secretRequests.expiresAt} > ${now.getTime()} AND ${secretRequests.responseCount} < ${secretRequests.maxResponses}`))
    .get();
  return row?.n ?? 0;
}

export async function listRequestsOf(db: Database, userId: string, limit: number): Promise<SecretRequestRow[]> {
  return db.select().from(secretRequests).where(eq(secretRequests.userId, userId)).orderBy(desc(secretRequests.createdAt), desc(secretRequests.id)).limit(limit).all();
}

export async function findOwnRequest(db: Database, userId: string, id: string): Promise<SecretRequestRow | undefined> {
  return db.select().from(secretRequests).where(and(eq(secretRequests.id, id), eq(secretRequests.userId, userId))).get();
}

export async function findRequestByTokenHash(db: Database, tokenHash: string): Promise<SecretRequestRow | undefined> {
  return db.select().from(secretRequests).where(eq(secretRequests.tokenHash, tokenHash)).get();
}

export async function listResponses(db: Database, requestId: string) {
  return db
    .select({ id: secretRequestResponses.id, ephemeralKey: secretRequestResponses.ephemeralKey, ciphertext: secretRequestResponses.ciphertext, size: secretRequestResponses.size, createdAt: secretRequestResponses.createdAt })
    .from(secretRequestResponses)
    .where(eq(secretRequestResponses.requestId, requestId))
    .orderBy(desc(secretRequestResponses.createdAt))
    .all();
}

/**
 * One answer, atomically: counted only while the request is open, not expired and not full; the
 * answer's row is written only when it was (one D1 batch). False when the request took no more.
 */
export async function insertAnswer(db: Database, tokenHash: string, answer: { id: string; ephemeralKey: string; ciphertext: string; size: number }, now: Date): Promise<{ requestId: string; userId: string; label: string } | null> {
  const at = now.getTime();
  const [counted] = await rawBatch(db, [
    sql`UPDATE secret_requests SET response_count = response_count + 1, updated_at = ${at}
        WHERE token_hash = ${tokenHash} AND closed_at IS NULL AND expires_at > ${at} AND response_count < max_responses
        RETURNING id, user_id AS userId, label`,
    sql`INSERT INTO secret_request_responses (id, request_id, ephemeral_key, ciphertext, size, created_at)
        SELECT ${answer.id}, id, ${answer.ephemeralKey}, ${answer.ciphertext}, CAST(${answer.size} AS INTEGER), ${at} FROM secret_requests
        WHERE token_hash = ${tokenHash} AND changes() > 0`,
  ]);
  const row = counted?.results?.[0] as { id: string; userId: string; label: string } | undefined;
  return row ? { requestId: row.id, userId: row.userId, label: row.label } : null;
}

export async function closeRequest(db: Database, userId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .update(secretRequests)
    .set({ closedAt: now, updatedAt: now })
    .where(and(eq(secretRequests.id, id), eq(secretRequests.userId, userId), sql`${secretRequests.closedAt} IS NULL`))
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** Deletes a request and (by cascade) its answers. */
export async function deleteRequest(db: Database, userId: string, id: string): Promise<boolean> {
  const result = await db.delete(secretRequests).where(and(eq(secretRequests.id, id), eq(secretRequests.userId, userId))).run();
  return (result.meta.changes ?? 0) > 0;
}

/** The nightly purge: requests that stopped taking answers more than `keepDays` ago, with their answers. */
export async function purgeRequests(db: Database, now: Date, keepDays: number): Promise<number> {
  const before = now.getTime() - keepDays * 86_400_000;
  const result = await db.run(sql`DELETE FROM secret_requests WHERE coalesce(closed_at, expires_at) < ${before}`);
  return result.meta.changes ?? 0;
}

export async function deleteRequestsOf(db: Database, userId: string): Promise<void> {
  await db.delete(secretRequests).where(eq(secretRequests.userId, userId)).run();
}

/** The requester's name, as visitors see it. */
export async function findRequesterName(db: Database, userId: string): Promise<string> {
  return (await db.select({ name: users.name }).from(users).where(eq(users.id, userId)).get())?.name ?? "";
}
