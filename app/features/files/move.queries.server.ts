import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";

/**
 * The SQL of moving and renaming. Lists travel as ONE JSON parameter read with `json_each` (far
 * below D1's 100-parameter limit for 100 items), and a move is one batch of two set-based
 * statements whatever the item count.
 */

/** Guards every recursive walk against a cycle (folders are at most FOLDER_DEPTH_MAX deep). */
const MAX_DEPTH = 64;

const idList = (ids: readonly string[]) => JSON.stringify(ids);

/** A folder and its ancestors up to the space's root: ids with their distance from the folder (0 = itself). */
export async function findFolderLineage(db: Database, folderId: string): Promise<{ id: string; depth: number }[]> {
  return db.all<{ id: string; depth: number }>(sql`
    WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT id, parent_id, 0 FROM folders WHERE id = ${folderId}
      UNION ALL
      SELECT f.id, f.parent_id, up.depth + 1 FROM folders f JOIN up ON f.id = up.parent_id WHERE up.depth < ${MAX_DEPTH}
    )
    SELECT id, depth FROM up`);
}

/** How many levels of live subfolders each folder has below it (0 for a folder without subfolders). */
export async function findSubtreeHeights(db: Database, folderIds: string[]): Promise<Map<string, number>> {
  const rows = await db.all<{ start: string; height: number }>(sql`
    WITH RECURSIVE down(start, id, depth) AS (
      SELECT id, id, 0 FROM folders WHERE id IN (SELECT value FROM json_each(${idList(folderIds)}))
      UNION ALL
      SELECT down.start, f.id, down.depth + 1 FROM folders f JOIN down ON f.parent_id = down.id
      WHERE f.trashed_at IS NULL AND down.depth < ${MAX_DEPTH}
    )
    SELECT start, max(depth) AS height FROM down GROUP BY start`);
  return new Map(rows.map((row) => [row.start, row.height]));
}

export type MoveRow = { id: string; type: "file" | "folder"; name: string };

/**
 * Moves live items of one space into a live folder of that space, each under the name it was
 * given, in ONE batch. The folder statement re-checks, at the moment it runs, that no folder goes
 * into itself or below itself (two moves racing cannot make a cycle) and that none is a space's
 * root, inbox or outbox; the target must still be live.
 */
export async function moveRows(db: Database, spaceId: string, targetFolderId: string, rows: MoveRow[], now: Date): Promise<void> {
  const names = JSON.stringify(Object.fromEntries(rows.map((row) => [row.id, row.name])));
  const fileIds = idList(rows.filter((row) => row.type === "file").map((row) => row.id));
  const folderIds = idList(rows.filter((row) => row.type === "folder").map((row) => row.id));
  const at = now.getTime();
  const targetIsLive = sql`EXISTS (SELECT 1 FROM folders t WHERE t.id = ${targetFolderId} AND t.space_id = ${spaceId} AND t.trashed_at IS NULL)`;
  await rawBatch(db, [
    sql`UPDATE files SET folder_id = ${targetFolderId}, name = json_extract(${names}, '$."' || files.id || '"'), updated_at = ${at}
      WHERE files.id IN (SELECT value FROM json_each(${fileIds})) AND files.space_id = ${spaceId} AND files.trashed_at IS NULL AND ${targetIsLive}`,
    sql`WITH RECURSIVE up(id, parent_id, depth) AS (
        SELECT id, parent_id, 0 FROM folders WHERE id = ${targetFolderId}
        UNION ALL
        SELECT f.id, f.parent_id, up.depth + 1 FROM folders f JOIN up ON f.id = up.parent_id WHERE up.depth < ${MAX_DEPTH}
      )
      UPDATE folders SET parent_id = ${targetFolderId}, label = json_extract(${names}, '$."' || folders.id || '"'), updated_at = ${at}
      WHERE folders.id IN (SELECT value FROM json_each(${folderIds})) AND folders.space_id = ${spaceId} AND folders.trashed_at IS NULL
        AND folders.kind NOT IN ('root', 'inbox', 'outbox') AND folders.id NOT IN (SELECT id FROM up) AND ${targetIsLive}`,
  ]);
}

/** A live file's new name. */
export async function renameFileRow(db: Database, fileId: string, name: string, now: Date): Promise<void> {
  await db.run(sql`UPDATE files SET name = ${name}, updated_at = ${now.getTime()} WHERE id = ${fileId} AND trashed_at IS NULL`);
}
