import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { files, fileVersions } from "~/db/schema";
import { FOLDER_DEPTH_MAX } from "./files.constants";

function versionsQuery(db: Database, fileId: string) {
  return db
    .select({
      id: fileVersions.id,
      version: fileVersions.version,
      size: fileVersions.size,
      contentType: fileVersions.contentType,
      createdAt: fileVersions.createdAt,
    })
    .from(fileVersions)
    .where(eq(fileVersions.fileId, fileId))
    .orderBy(desc(fileVersions.version))
    .limit(100);
}

/** Earlier versions of a file, newest first (at most 100; the file row itself is the current one). */
export async function listFileVersions(db: Database, fileId: string) {
  return versionsQuery(db, fileId).all();
}

// ---- folder zip ---------------------------------------------------------------------------------

/**
 * The live folder and every live folder below it (parents before children), walking the
 * children index (space_id, parent_id). Bound values: ?1 space, ?2 folder, ?3 depth limit, ?4 rows.
 */
const TREE_CTE = `
  WITH RECURSIVE tree(id, parent_id, label, depth) AS (
    SELECT id, parent_id, label, 0 FROM folders WHERE id = ?2 AND space_id = ?1 AND trashed_at IS NULL
    UNION ALL
    SELECT f.id, f.parent_id, f.label, tree.depth + 1
    FROM folders f JOIN tree ON f.space_id = ?1 AND f.parent_id = tree.id
    WHERE f.trashed_at IS NULL AND tree.depth < ?3
  )`;

const ZIP_FOLDERS_SQL = `${TREE_CTE}
  SELECT tree.id AS id, tree.parent_id AS parentId, tree.label AS label, folders.updated_at AS updatedAt
  FROM tree JOIN folders ON folders.id = tree.id
  ORDER BY tree.depth, tree.label, tree.id LIMIT ?4`;

const ZIP_FILES_SQL = `${TREE_CTE}
  SELECT files.id AS id, files.folder_id AS folderId, files.name AS name, files.size AS size,
         files.r2_key AS r2Key, files.updated_at AS updatedAt
  FROM tree JOIN files ON files.folder_id = tree.id AND files.trashed_at IS NULL
  ORDER BY tree.depth, files.folder_id, files.name, files.id LIMIT ?4`;

export type ZipFolderRow = { id: string; parentId: string | null; label: string; updatedAt: number };
export type ZipFileRow = { id: string; folderId: string; name: string; size: number; r2Key: string; updatedAt: number };

/**
 * Everything a folder zip holds, in one round trip: at most `limit` folders and `limit` files
 * (more than the entry cap, so the caller knows it was exceeded without reading the rest).
 * Recursive CTEs are plain SQL here (drizzle has no builder for them), batched on the D1 client.
 */
export async function listZipTree(db: Database, spaceId: string, folderId: string, limit: number) {
  const d1 = db.$client;
  const values = [spaceId, folderId, FOLDER_DEPTH_MAX * 2, limit];
  const [folderResult, fileResult] = await d1.batch([d1.prepare(ZIP_FOLDERS_SQL).bind(...values), d1.prepare(ZIP_FILES_SQL).bind(...values)]);
  return { folders: (folderResult?.results ?? []) as ZipFolderRow[], files: (fileResult?.results ?? []) as ZipFileRow[] };
}

/** The chosen files of one folder that are still there (not trashed), for a zip of a selection. */
export async function listChosenFiles(db: Database, folderId: string, fileIds: readonly string[]) {
  return db
    .select({ id: files.id, name: files.name, size: files.size, r2Key: files.r2Key, updatedAt: files.updatedAt })
    .from(files)
    .where(and(eq(files.folderId, folderId), inArray(files.id, [...fileIds]), isNull(files.trashedAt)))
    .orderBy(asc(files.name))
    .all();
}
