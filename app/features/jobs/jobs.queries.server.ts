import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { jobs } from "~/db/schema";

const jobColumns = {
  id: jobs.id,
  type: jobs.type,
  status: jobs.status,
  priority: jobs.priority,
  totalItems: jobs.totalItems,
  processedItems: jobs.processedItems,
  successCount: jobs.successCount,
  failureCount: jobs.failureCount,
  errors: jobs.errors,
  metadata: jobs.metadata,
  retryCount: jobs.retryCount,
  lastError: jobs.lastError,
  userId: jobs.userId,
  startedAt: jobs.startedAt,
  endedAt: jobs.endedAt,
  createdAt: jobs.createdAt,
  updatedAt: jobs.updatedAt,
};

/** A job row as the queries return it (every column of `jobs`). */
export type JobRecord = typeof jobs.$inferSelect;

export async function findJobById(db: Database, id: string): Promise<JobRecord | null> {
  const rows = await db.select(jobColumns).from(jobs).where(eq(jobs.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Inserts the job unless a row with that id exists (deterministic ids make producers idempotent). */
export async function insertJobIfAbsent(
  db: Database,
  job: {
    id: string;
    type: string;
    priority: number;
    totalItems: number;
    metadata: Record<string, unknown>;
    userId: string | null;
    now: Date;
  },
): Promise<boolean> {
  const result = await db
    .insert(jobs)
    .values({
      id: job.id,
      type: job.type,
      priority: job.priority,
      totalItems: job.totalItems,
      metadata: job.metadata,
      userId: job.userId,
      createdAt: job.now,
      updatedAt: job.now,
    })
    .onConflictDoNothing({ target: jobs.id });
  return result.meta.changes > 0;
}

/** pending|processing → processing. Returns false when the job is finished, cancelled or paused. */
export async function markJobProcessing(db: Database, id: string, now: Date): Promise<boolean> {
  const result = await db
    .update(jobs)
    .set({ status: "processing", startedAt: sql`coalesce(${jobs.startedAt}, ${now.getTime()})`, updatedAt: now })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ["pending", "processing"])));
  return result.meta.changes > 0;
}

export async function markJobCompleted(
  db: Database,
  id: string,
  now: Date,
  counts: { processedItems: number; successCount: number; failureCount: number },
): Promise<void> {
  await db
    .update(jobs)
    .set({ status: "completed", ...counts, endedAt: now, updatedAt: now })
    .where(and(eq(jobs.id, id), eq(jobs.status, "processing")));
}

export async function recordJobAttemptFailure(db: Database, id: string, now: Date, message: string): Promise<void> {
  await db
    .update(jobs)
    .set({ retryCount: sql`${jobs.retryCount} + 1`, lastError: message, updatedAt: now })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ["pending", "processing"])));
}

export async function markJobFailed(db: Database, id: string, now: Date, message: string): Promise<boolean> {
  const result = await db
    .update(jobs)
    .set({ status: "failed", lastError: message, endedAt: now, updatedAt: now })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ["pending", "processing", "paused"])));
  return result.meta.changes > 0;
}

/**
 * Deletes up to `limit` finished jobs last touched before `before`. Uses the (status, updated_at)
 * index; a bounded subquery keeps each statement small.
 */
export async function deleteFinishedJobsBefore(db: Database, before: Date, limit: number): Promise<number> {
  const ids = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.status, ["completed", "failed", "cancelled"]), lt(jobs.updatedAt, before)))
    .limit(limit);
  const result = await db.delete(jobs).where(inArray(jobs.id, ids));
  return result.meta.changes;
}
