import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { secretAnswerFiles, secretRequestResponses, secretRequests, users } from "~/db/schema";

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

/** Each answer's files (for the member's page: sealed sizes and whether they are in). */
export async function listAnswerFiles(db: Database, requestId: string) {
  return db
    .select({ id: secretAnswerFiles.id, responseId: secretAnswerFiles.responseId, seq: secretAnswerFiles.seq, storedSize: secretAnswerFiles.storedSize, r2Key: secretAnswerFiles.r2Key, status: secretAnswerFiles.status })
    .from(secretAnswerFiles)
    .where(eq(secretAnswerFiles.requestId, requestId))
    .orderBy(secretAnswerFiles.responseId, secretAnswerFiles.seq)
    .all();
}

/** A pending answer file that the holder of its upload grant may upload, with the request's owner. */
export async function findGrantedAnswerFile(db: Database, uploadTokenHash: string) {
  return db
    .select({ id: secretAnswerFiles.id, userId: secretRequests.userId })
    .from(secretAnswerFiles)
    .innerJoin(secretRequests, eq(secretRequests.id, secretAnswerFiles.requestId))
    .where(and(eq(secretAnswerFiles.uploadTokenHash, uploadTokenHash), eq(secretAnswerFiles.status, "pending")))
    .get();
}

/** A member's pending answer file (their request's), to upload into. */
export async function findPendingAnswerFile(db: Database, userId: string, fileId: string) {
  return db
    .select({ id: secretAnswerFiles.id, storedSize: secretAnswerFiles.storedSize, r2Key: secretAnswerFiles.r2Key })
    .from(secretAnswerFiles)
    .innerJoin(secretRequests, eq(secretRequests.id, secretAnswerFiles.requestId))
    .where(and(eq(secretAnswerFiles.id, fileId), eq(secretRequests.userId, userId), eq(secretAnswerFiles.status, "pending")))
    .get();
}

/** Marks an answer file in; answers the request (with its owner) when it was the answer's last pending file. */
export async function markAnswerFileReady(db: Database, fileId: string): Promise<{ requestId: string; userId: string; label: string; isAnswerComplete: boolean } | null> {
  const [updated] = await rawBatch(db, [
    sql`UPDATE secret_answer_files SET status = 'ready' WHERE id = ${fileId} AND status = 'pending' RETURNING response_id AS responseId, request_id AS requestId`,
  ]);
  const row = updated?.results?.[0] as { responseId: string; requestId: string } | undefined;
  if (!row) return null;
  const rest = await db.select({ n: sql<number>`count(*)` }).from(secretAnswerFiles).where(and(eq(secretAnswerFiles.responseId, row.responseId), eq(secretAnswerFiles.status, "pending"))).get();
  const request = await db.select({ userId: secretRequests.userId, label: secretRequests.label }).from(secretRequests).where(eq(secretRequests.id, row.requestId)).get();
  return request ? { requestId: row.requestId, userId: request.userId, label: request.label, isAnswerComplete: (rest?.n ?? 0) === 0 } : null;
}

/** The R2 keys of a request's files (before the request goes), or of every request of a member. */
export async function listAnswerFileKeys(db: Database, filter: { requestId: string } | { userId: string }): Promise<string[]> {
  const rows =
    "requestId" in filter
      ? await db.select({ r2Key: secretAnswerFiles.r2Key }).from(secretAnswerFiles).where(eq(secretAnswerFiles.requestId, filter.requestId)).all()
      : await db.select({ r2Key: secretAnswerFiles.r2Key }).from(secretAnswerFiles).innerJoin(secretRequests, eq(secretRequests.id, secretAnswerFiles.requestId)).where(eq(secretRequests.userId, filter.userId)).all();
  return rows.map((row) => row.r2Key);
}

/** The R2 keys of the files of requests the purge is about to delete. */
export async function listPurgeableAnswerFileKeys(db: Database, now: Date, keepDays: number): Promise<string[]> {
  const before = now.getTime() - keepDays * 86_400_000;
  const rows = await db.all<{ r2Key: string }>(sql`SELECT f.r2_key AS r2Key FROM secret_answer_files f JOIN secret_requests r ON r.id = f.request_id WHERE coalesce(r.closed_at, r.expires_at) < ${before}`);
  return rows.map((row) => row.r2Key);
}

export async function findAnswerFileOfOwner(db: Database, userId: string, requestId: string, fileId: string) {
  return db
    .select({ r2Key: secretAnswerFiles.r2Key, storedSize: secretAnswerFiles.storedSize, status: secretAnswerFiles.status })
    .from(secretAnswerFiles)
    .innerJoin(secretRequests, eq(secretRequests.id, secretAnswerFiles.requestId))
    .where(and(eq(secretAnswerFiles.id, fileId), eq(secretAnswerFiles.requestId, requestId), eq(secretRequests.userId, userId)))
    .get();
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
export type NewAnswerFile = { id: string; seq: number; storedSize: number; uploadTokenHash: string };

export async function insertAnswer(db: Database, tokenHash: string, answer: { id: string; ephemeralKey: string; ciphertext: string; size: number; files: readonly NewAnswerFile[] }, now: Date): Promise<{ requestId: string; userId: string; label: string } | null> {
  const at = now.getTime();
  const files = JSON.stringify(answer.files.map((file) => [file.id, file.seq, file.storedSize, file.uploadTokenHash]));
  const [counted] = await rawBatch(db, [
    sql`UPDATE secret_requests SET response_count = response_count + 1, updated_at = ${at}
        WHERE token_hash = ${tokenHash} AND closed_at IS NULL AND expires_at > ${at} AND response_count < max_responses
        RETURNING id, user_id AS userId, label`,
    sql`INSERT INTO secret_request_responses (id, request_id, ephemeral_key, ciphertext, size, created_at)
        SELECT ${answer.id}, id, ${answer.ephemeralKey}, ${answer.ciphertext}, CAST(${answer.size} AS INTEGER), ${at} FROM secret_requests
        WHERE token_hash = ${tokenHash} AND changes() > 0`,
    // Its files (pending until uploaded), only if the answer itself went in.
    sql`INSERT INTO secret_answer_files (id, response_id, request_id, seq, stored_size, r2_key, status, upload_token_hash, created_at)
        SELECT json_extract(f.value, '$[0]'), r.id, r.request_id, CAST(json_extract(f.value, '$[1]') AS INTEGER), CAST(json_extract(f.value, '$[2]') AS INTEGER),
               'secret-requests/' || r.request_id || '/' || json_extract(f.value, '$[0]'), 'pending', json_extract(f.value, '$[3]'), ${at}
        FROM json_each(${files}) f JOIN secret_request_responses r ON r.id = ${answer.id}`,
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
