import { and, asc, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import { dataroomAuditCheckpoints, dataroomAuditLog, users } from "~/db/schema";
import type { ChainedEntry } from "./audit-chain";

/**
 * The audit log's SQL. Entries travel as ONE JSON parameter per statement (read with json_each),
 * far below D1's 100-parameter limit; INSERT OR IGNORE makes a repeated copy change nothing.
 */

/** Entries per INSERT statement (one JSON parameter; a row is well under 1 KB). */
const ROWS_PER_STATEMENT = 100;

export async function insertAuditEntries(db: Database, entries: ChainedEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const statements: SQL[] = [];
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    const rows = JSON.stringify(entries.slice(start, start + ROWS_PER_STATEMENT));
    statements.push(sql`INSERT OR IGNORE INTO dataroom_audit_log
      (dataroom_id, seq, at, actor_id, actor_email, action, outcome, target_type, target_id, target_name, detail, ip, user_agent, prev_hash, hash)
      SELECT json_extract(value, '$.roomId'), json_extract(value, '$.seq'), json_extract(value, '$.at'), json_extract(value, '$.actorId'),
             json_extract(value, '$.actorEmail'), json_extract(value, '$.action'), json_extract(value, '$.outcome'), json_extract(value, '$.targetType'),
             json_extract(value, '$.targetId'), json_extract(value, '$.targetName'), json_extract(value, '$.detail'), json_extract(value, '$.ip'),
             json_extract(value, '$.userAgent'), json_extract(value, '$.prevHash'), json_extract(value, '$.hash')
      FROM json_each(${rows})`);
  }
  await rawBatch(db, statements);
}

export type AuditRow = typeof dataroomAuditLog.$inferSelect;
export type AuditFilters = { actorId?: string; action?: string; targetId?: string; from?: number; to?: number };

function filterConditions(roomId: string, filters: AuditFilters): SQL[] {
  const conditions: SQL[] = [eq(dataroomAuditLog.dataroomId, roomId)];
  if (filters.actorId) conditions.push(eq(dataroomAuditLog.actorId, filters.actorId));
  if (filters.action) conditions.push(eq(dataroomAuditLog.action, filters.action));
  if (filters.targetId) conditions.push(eq(dataroomAuditLog.targetId, filters.targetId));
  if (filters.from !== undefined) conditions.push(gte(dataroomAuditLog.at, filters.from));
  if (filters.to !== undefined) conditions.push(lte(dataroomAuditLog.at, filters.to));
  return conditions;
}

/** Newest first, keyset by seq: entries before `beforeSeq` (null: from the newest). */
export async function listAuditEntries(db: Database, roomId: string, filters: AuditFilters, beforeSeq: number | null, limit: number): Promise<AuditRow[]> {
  const conditions = filterConditions(roomId, filters);
  if (beforeSeq !== null) conditions.push(lt(dataroomAuditLog.seq, beforeSeq));
  return db
    .select()
    .from(dataroomAuditLog)
    .where(and(...conditions))
    .orderBy(desc(dataroomAuditLog.seq))
    .limit(limit)
    .all();
}

/** Oldest first from after `afterSeq` (verification and the CSV export walk the log this way). */
export async function readAuditAfter(db: Database, roomId: string, filters: AuditFilters, afterSeq: number, limit: number): Promise<AuditRow[]> {
  return db
    .select()
    .from(dataroomAuditLog)
    .where(and(...filterConditions(roomId, filters), gt(dataroomAuditLog.seq, afterSeq)))
    .orderBy(asc(dataroomAuditLog.seq))
    .limit(limit)
    .all();
}

/** Everyone who appears in the log as the one acting (the page's person filter). */
export async function listAuditActors(db: Database, roomId: string): Promise<{ actorId: string; actorEmail: string | null }[]> {
  return db.all<{ actorId: string; actorEmail: string | null }>(sql`
    SELECT actor_id AS actorId, max(actor_email) AS actorEmail FROM dataroom_audit_log
    WHERE dataroom_id = ${roomId} AND actor_id IS NOT NULL GROUP BY actor_id ORDER BY actorEmail`);
}

/** A person's e-mail (the log keeps it as it was when they acted). */
export async function findUserEmail(db: Database, userId: string): Promise<string | null> {
  const row = await db.get<{ email: string }>(sql`SELECT email FROM users WHERE id = ${userId}`);
  return row?.email ?? null;
}

/**
 * The room's latest changes of the given kinds that were allowed (the collaboration page), newest
 * first, with the name the person has now (null when their account is gone).
 */
export async function listRecentChanges(db: Database, roomId: string, actions: readonly string[], limit: number) {
  return db
    .select({
      seq: dataroomAuditLog.seq,
      at: dataroomAuditLog.at,
      actorId: dataroomAuditLog.actorId,
      actorName: users.name,
      action: dataroomAuditLog.action,
      targetType: dataroomAuditLog.targetType,
      targetId: dataroomAuditLog.targetId,
      targetName: dataroomAuditLog.targetName,
    })
    .from(dataroomAuditLog)
    .leftJoin(users, eq(users.id, dataroomAuditLog.actorId))
    .where(and(eq(dataroomAuditLog.dataroomId, roomId), eq(dataroomAuditLog.outcome, "allowed"), inArray(dataroomAuditLog.action, [...actions])))
    .orderBy(desc(dataroomAuditLog.seq))
    .limit(limit)
    .all();
}

// Retention (issue 42, ADR 039)

export type AuditCheckpoint = typeof dataroomAuditCheckpoints.$inferSelect;

export async function findAuditCheckpoint(db: Database, roomId: string): Promise<AuditCheckpoint | undefined> {
  return db.select().from(dataroomAuditCheckpoints).where(eq(dataroomAuditCheckpoints.dataroomId, roomId)).get();
}

/** The newest entry recorded before `cutoff` (what pruning up to `cutoff` removes last), or nothing. */
export async function findLastAuditBefore(db: Database, roomId: string, cutoff: number): Promise<{ seq: number; hash: string } | undefined> {
  return db
    .select({ seq: dataroomAuditLog.seq, hash: dataroomAuditLog.hash })
    .from(dataroomAuditLog)
    .where(and(eq(dataroomAuditLog.dataroomId, roomId), lt(dataroomAuditLog.at, cutoff)))
    .orderBy(desc(dataroomAuditLog.seq))
    .limit(1)
    .get();
}

/** The first entry still in the log (from when it is complete). */
export async function findFirstAudit(db: Database, roomId: string): Promise<{ seq: number; at: number } | undefined> {
  return db
    .select({ seq: dataroomAuditLog.seq, at: dataroomAuditLog.at })
    .from(dataroomAuditLog)
    .where(eq(dataroomAuditLog.dataroomId, roomId))
    .orderBy(asc(dataroomAuditLog.seq))
    .limit(1)
    .get();
}

/** The checkpoint moves to `through` and the entries up to it go, in one batch. Returns how many went. */
export async function pruneAuditThrough(db: Database, roomId: string, through: { seq: number; hash: string }, now: Date, cutoff: Date): Promise<number> {
  const results = await rawBatch(db, [
    sql`INSERT INTO dataroom_audit_checkpoints (dataroom_id, seq, hash, pruned_at, cutoff_at) VALUES (${roomId}, ${through.seq}, ${through.hash}, ${now.getTime()}, ${cutoff.getTime()})
      ON CONFLICT (dataroom_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, pruned_at = excluded.pruned_at, cutoff_at = excluded.cutoff_at
      WHERE excluded.seq > dataroom_audit_checkpoints.seq`,
    sql`DELETE FROM dataroom_audit_log WHERE dataroom_id = ${roomId} AND seq <= ${through.seq}`,
  ]);
  return results[1]?.meta.changes ?? 0;
}
