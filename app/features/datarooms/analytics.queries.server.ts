import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";

/**
 * The analytics' SQL: counts over the room's audit log, where every view and download was recorded
 * by the server before its bytes left (never a beacon the browser could forge). Each query is one
 * GROUP BY on the (dataroom_id, action, seq) index.
 */

function openings(roomId: string) {
  return sql`dataroom_id = ${roomId} AND outcome = 'allowed' AND action IN ('file.view', 'file.download')`;
}

export type DailyRow = { day: number; views: number; downloads: number };

/** Views and downloads per UTC day (days since the epoch) from `fromMs` on. */
export async function countOpeningsByDay(db: Database, roomId: string, fromMs: number): Promise<DailyRow[]> {
  return db.all<DailyRow>(sql`
    SELECT at / 86400000 AS day, sum(action = 'file.view') AS views, sum(action = 'file.download') AS downloads
    FROM dataroom_audit_log WHERE ${openings(roomId)} AND at >= ${fromMs}
    GROUP BY day ORDER BY day`);
}

export type OpeningCounts = { id: string; views: number; downloads: number; people: number; lastAt: number };

/** Per file (all time): views, downloads, how many people opened it, when last. */
export async function countOpeningsByFile(db: Database, roomId: string): Promise<OpeningCounts[]> {
  return db.all<OpeningCounts>(sql`
    SELECT target_id AS id, sum(action = 'file.view') AS views, sum(action = 'file.download') AS downloads,
           count(DISTINCT actor_id) AS people, max(at) AS lastAt
    FROM dataroom_audit_log WHERE ${openings(roomId)} AND target_id IS NOT NULL GROUP BY target_id`);
}

/** Per person (all time): views, downloads, how many files they opened, when last. */
export async function countOpeningsByPerson(db: Database, roomId: string): Promise<OpeningCounts[]> {
  return db.all<OpeningCounts>(sql`
    SELECT actor_id AS id, sum(action = 'file.view') AS views, sum(action = 'file.download') AS downloads,
           count(DISTINCT target_id) AS people, max(at) AS lastAt
    FROM dataroom_audit_log WHERE ${openings(roomId)} AND actor_id IS NOT NULL GROUP BY actor_id`);
}

/** Who opened which file at least once. */
export async function listOpenedPairs(db: Database, roomId: string): Promise<{ actorId: string; fileId: string }[]> {
  return db.all<{ actorId: string; fileId: string }>(sql`
    SELECT DISTINCT actor_id AS actorId, target_id AS fileId FROM dataroom_audit_log
    WHERE ${openings(roomId)} AND actor_id IS NOT NULL AND target_id IS NOT NULL`);
}

/** The room's live files (not in the trash), by name; at most `limit`. */
export async function listLiveRoomFiles(db: Database, roomId: string, limit: number): Promise<{ id: string; name: string }[]> {
  return db.all<{ id: string; name: string }>(sql`
    SELECT id, name FROM files WHERE space_id = ${roomId} AND trashed_at IS NULL ORDER BY name COLLATE NOCASE, id LIMIT ${limit}`);
}
