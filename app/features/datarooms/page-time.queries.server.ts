import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { dataroomPageTime } from "~/db/schema";

/** Adds a viewer's reported time to each page (one upsert per page, one batch). */
export async function addPageTime(db: Database, row: { roomId: string; fileId: string; userId: string; pages: [number, number][]; now: Date }): Promise<void> {
  const [first, ...rest] = row.pages.map(([page, ms]) =>
    db
      .insert(dataroomPageTime)
      .values({ dataroomId: row.roomId, fileId: row.fileId, userId: row.userId, page, ms, updatedAt: row.now })
      .onConflictDoUpdate({
        target: [dataroomPageTime.dataroomId, dataroomPageTime.fileId, dataroomPageTime.userId, dataroomPageTime.page],
        set: { ms: sql`${dataroomPageTime.ms} + excluded.ms`, updatedAt: row.now },
      }),
  );
  if (first) await db.batch([first, ...rest]);
}

export type PageTimeRow = { fileId: string; page: number; ms: number; people: number };

/** Per file and page of a room: total time on screen and how many people looked at it. */
export async function sumPageTimeByFile(db: Database, roomId: string): Promise<PageTimeRow[]> {
  return db.all<PageTimeRow>(sql`
    SELECT file_id AS fileId, page, sum(ms) AS ms, count(DISTINCT user_id) AS people
    FROM dataroom_page_time WHERE dataroom_id = ${roomId} GROUP BY file_id, page ORDER BY file_id, page`);
}

export type PersonPageTimeRow = { fileId: string; userId: string; page: number; ms: number };

/** Every person's time per page (the CSV export). */
export async function listPageTime(db: Database, roomId: string): Promise<PersonPageTimeRow[]> {
  return db.all<PersonPageTimeRow>(sql`
    SELECT file_id AS fileId, user_id AS userId, page, ms FROM dataroom_page_time
    WHERE dataroom_id = ${roomId} ORDER BY file_id, page, user_id`);
}
