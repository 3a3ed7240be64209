import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";

/**
 * The SQL of copying files and folders. Lists travel as ONE JSON parameter read with `json_each`
 * (D1's 100-parameter limit holds for any count); rows go in at COPY_ROWS_PER_STATEMENT a
 * statement, all in one round trip, and never twice (ids are derived, ON CONFLICT DO NOTHING).
 */

/** Guards the recursive walk against a cycle (folders are at most FOLDER_DEPTH_MAX deep). */
const MAX_DEPTH = 64;
const COPY_ROWS_PER_STATEMENT = 200;

export type CopySourceRow = {
  type: "file" | "folder";
  id: string;
  parentId: string | null;
  name: string;
  color: string | null;
  icon: string | null;
  size: number | null;
  contentType: string | null;
  sha256: string | null;
  r2Key: string | null;
  /** 0 for a selected item, 1 and more below a selected folder. */
  depth: number;
};

/**
 * The selected live files, and every live folder and file below the selected folders (the
 * folders themselves at depth 0), in one statement.
 */
export async function findCopySources(db: Database, fileIds: readonly string[], folderIds: readonly string[]): Promise<CopySourceRow[]> {
  return db.all<CopySourceRow>(sql`
    WITH RECURSIVE tree(id, depth) AS (
      SELECT id, 0 FROM folders WHERE id IN (SELECT value FROM json_each(${JSON.stringify(folderIds)})) AND trashed_at IS NULL
      UNION ALL
      SELECT f.id, tree.depth + 1 FROM folders f JOIN tree ON f.parent_id = tree.id WHERE f.trashed_at IS NULL AND tree.depth < ${MAX_DEPTH}
    )
    SELECT 'folder' AS type, d.id AS id, d.parent_id AS parentId, d.label AS name, d.color AS color, d.icon AS icon,
           NULL AS size, NULL AS contentType, NULL AS sha256, NULL AS r2Key, tree.depth AS depth
    FROM tree JOIN folders d ON d.id = tree.id
    UNION ALL
    SELECT 'file', f.id, f.folder_id, f.name, NULL, NULL, f.size, f.content_type, f.sha256, f.r2_key, tree.depth + 1
    FROM files f JOIN tree ON f.folder_id = tree.id WHERE f.trashed_at IS NULL
    UNION ALL
    SELECT 'file', f.id, f.folder_id, f.name, NULL, NULL, f.size, f.content_type, f.sha256, f.r2_key, 0
    FROM files f WHERE f.id IN (SELECT value FROM json_each(${JSON.stringify(fileIds)})) AND f.trashed_at IS NULL`);
}

export type CopiedFolderRow = { id: string; parentId: string; label: string; color: string | null; icon: string | null };
export type CopiedFileRow = { id: string; folderId: string; name: string; size: number; contentType: string; sha256: string | null; r2Key: string };

/** The copies' rows: folders, then files (whose objects are already in R2). A row already there (a redelivery) is left as it is. */
export async function insertCopies(db: Database, spaceId: string, userId: string, folderRows: readonly CopiedFolderRow[], fileRows: readonly CopiedFileRow[], now: Date): Promise<void> {
  const at = now.getTime();
  const statements = [];
  for (let start = 0; start < folderRows.length; start += COPY_ROWS_PER_STATEMENT) {
    const rows = JSON.stringify(folderRows.slice(start, start + COPY_ROWS_PER_STATEMENT).map((row) => [row.id, row.parentId, row.label, row.color, row.icon]));
    statements.push(sql`
      INSERT INTO folders (id, space_id, parent_id, kind, label, color, icon, created_by, created_at, updated_at)
      SELECT json_extract(value, '$[0]'), ${spaceId}, json_extract(value, '$[1]'), 'regular', json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]'), ${userId}, ${at}, ${at}
      FROM json_each(${rows}) WHERE true
      ON CONFLICT DO NOTHING`);
  }
  for (let start = 0; start < fileRows.length; start += COPY_ROWS_PER_STATEMENT) {
    const rows = JSON.stringify(fileRows.slice(start, start + COPY_ROWS_PER_STATEMENT).map((row) => [row.id, row.folderId, row.name, row.size, row.contentType, row.sha256, row.r2Key]));
    statements.push(sql`
      INSERT INTO files (id, space_id, folder_id, name, size, content_type, sha256, r2_key, version, uploaded_by, is_template, created_at, updated_at)
      SELECT json_extract(value, '$[0]'), ${spaceId}, json_extract(value, '$[1]'), json_extract(value, '$[2]'), CAST(json_extract(value, '$[3]') AS INTEGER),
             json_extract(value, '$[4]'), json_extract(value, '$[5]'), json_extract(value, '$[6]'), 1, ${userId}, 0, ${at}, ${at}
      FROM json_each(${rows}) WHERE true
      ON CONFLICT DO NOTHING`);
  }
  if (statements.length > 0) await rawBatch(db, statements);
}
