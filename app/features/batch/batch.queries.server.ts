import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { jobs, type BatchItemState } from "~/db/schema";

/** Batch operations: the only place drizzle is called for their items and state changes. */

/** Item rows written per statement (one JSON parameter each, unpacked by SQLite). */
const ROWS_PER_STATEMENT = 1000;

export type BatchItemRef = { type: "file" | "folder"; id: string };

/** The operation's items in request order: a statement per 1,000 items, all in one round trip. */
export async function insertBatchItems(db: Database, jobId: string, items: readonly BatchItemRef[]): Promise<void> {
  const statements = [];
  for (let start = 0; start < items.length; start += ROWS_PER_STATEMENT) {
    const rows = JSON.stringify(items.slice(start, start + ROWS_PER_STATEMENT).map((item) => [item.type, item.id]));
    statements.push(sql`
      INSERT INTO batch_items (job_id, seq, item_type, item_id, state)
      SELECT ${jobId}, ${start} + CAST(key AS INTEGER), json_extract(value, '$[0]'), json_extract(value, '$[1]'), 'pending' FROM json_each(${rows}) WHERE true
      ON CONFLICT DO NOTHING`);
  }
  if (statements.length > 0) await rawBatch(db, statements);
}

/** The pending items of some chunks (chunk n holds sequence numbers n·size … n·size + size − 1), in order. */
export async function findPendingItems(db: Database, jobId: string, chunks: readonly number[], chunkSize: number) {
  return db.all<{ seq: number; type: "file" | "folder"; id: string }>(sql`
    SELECT seq, item_type AS type, item_id AS id FROM batch_items
    WHERE job_id = ${jobId} AND state = 'pending' AND CAST(seq / ${chunkSize} AS INTEGER) IN (SELECT value FROM json_each(${JSON.stringify(chunks)}))
    ORDER BY seq`);
}

export type ItemOutcome = { seq: number; state: Exclude<BatchItemState, "pending">; error: string | null };

/**
 * Records what happened to items (only those still pending), then counts the operation again from
 * its items: a second delivery of the same chunk finds nothing pending and changes nothing.
 */
export async function settleItems(db: Database, jobId: string, outcomes: readonly ItemOutcome[], now: Date): Promise<void> {
  // Set-based: the done items in one statement, the failed ones (each with its reason) in another.
  const done = JSON.stringify(outcomes.filter((outcome) => outcome.state === "done").map((outcome) => outcome.seq));
  const failed = JSON.stringify(outcomes.filter((outcome) => outcome.state === "failed").map((outcome) => ({ s: outcome.seq, e: outcome.error })));
  await rawBatch(db, [
    sql`UPDATE batch_items SET state = 'done' WHERE job_id = ${jobId} AND state = 'pending' AND seq IN (SELECT value FROM json_each(${done}))`,
    sql`UPDATE batch_items SET state = 'failed', error = (SELECT json_extract(f.value, '$.e') FROM json_each(${failed}) f WHERE json_extract(f.value, '$.s') = batch_items.seq)
        WHERE job_id = ${jobId} AND state = 'pending' AND seq IN (SELECT json_extract(value, '$.s') FROM json_each(${failed}))`,
    recountStatement(jobId, now),
  ]);
}

/** The operation's counters and its first 100 item errors, from its items. */
function recountStatement(jobId: string, now: Date) {
  return sql`
    UPDATE jobs SET
      processed_items = (SELECT count(*) FROM batch_items WHERE job_id = ${jobId} AND state <> 'pending'),
      success_count = (SELECT count(*) FROM batch_items WHERE job_id = ${jobId} AND state = 'done'),
      failure_count = (SELECT count(*) FROM batch_items WHERE job_id = ${jobId} AND state = 'failed'),
      errors = (SELECT coalesce(json_group_array(json_object('itemId', item_id, 'message', error, 'retryable', json('false'))), '[]')
                FROM (SELECT item_id, error FROM batch_items WHERE job_id = ${jobId} AND state = 'failed' ORDER BY seq LIMIT 100)),
      updated_at = ${now.getTime()}
    WHERE id = ${jobId}`;
}

/** pending → processing (the first chunk to arrive starts the clock). False when paused, cancelled or finished. */
export async function startProcessing(db: Database, jobId: string, now: Date): Promise<boolean> {
  const result = await db
    .update(jobs)
    .set({ status: "processing", startedAt: sql`coalesce(${jobs.startedAt}, ${now.getTime()})`, updatedAt: now })
    .where(and(eq(jobs.id, jobId), sql`${jobs.status} IN ('pending', 'processing')`))
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** processing → completed once no item is pending. */
export async function completeIfDone(db: Database, jobId: string, now: Date): Promise<boolean> {
  const result = await db.run(sql`
    UPDATE jobs SET status = 'completed', ended_at = ${now.getTime()}, updated_at = ${now.getTime()}
    WHERE id = ${jobId} AND status = 'processing' AND NOT EXISTS (SELECT 1 FROM batch_items WHERE job_id = ${jobId} AND state = 'pending')`);
  return (result.meta.changes ?? 0) > 0;
}

/** A status change allowed only from `from`; false when the operation was elsewhere. */
export async function changeStatus(db: Database, jobId: string, from: readonly string[], to: "paused" | "pending" | "cancelled", now: Date, extra: { priority?: number } = {}): Promise<boolean> {
  const result = await db
    .update(jobs)
    .set({ status: to, updatedAt: now, ...(extra.priority !== undefined ? { priority: extra.priority } : {}), ...(to === "cancelled" ? { endedAt: now, lastError: "Operation cancelled" } : {}) })
    .where(and(eq(jobs.id, jobId), sql`${jobs.status} IN (${sql.join(from.map((status) => sql`${status}`), sql`, `)})`))
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** The chunks that still have pending items (to send again on resume). */
export async function findPendingChunks(db: Database, jobId: string, chunkSize: number): Promise<number[]> {
  const rows = await db.all<{ chunk: number }>(sql`SELECT DISTINCT CAST(seq / ${chunkSize} AS INTEGER) AS chunk FROM batch_items WHERE job_id = ${jobId} AND state = 'pending' ORDER BY chunk`);
  return rows.map((row) => row.chunk);
}
