import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import type { FolderKind } from "~/db/schema";

/** The files and folders part of a member's personal data (export and erasure). */

export type ExportFileRow = {
  id: string;
  name: string;
  size: number;
  contentType: string;
  folderId: string;
  spaceId: string;
  spaceName: string;
  version: number;
  isOwnUpload: number;
  createdAt: number;
  updatedAt: number;
  trashedAt: number | null;
};

export type ExportFolderRow = {
  id: string;
  spaceId: string;
  parentId: string | null;
  label: string;
  kind: FolderKind;
  color: string | null;
  icon: string | null;
  createdBy: string | null;
  createdAt: number;
  trashedAt: number | null;
};

/**
 * Every file in a space the member owns, and every file they uploaded anywhere else; the folders
 * of those spaces (to name each file's folder path). Trashed items are included: they are still
 * stored until the purge.
 */
export async function listMemberFilesAndFolders(db: Database, userId: string) {
  // Two plain queries: drizzle's batch cannot carry raw queries with parameters.
  const [fileRows, folderRows] = await Promise.all([
    db.all<ExportFileRow>(sql`
      SELECT f.id AS id, f.name AS name, f.size AS size, f.content_type AS contentType, f.folder_id AS folderId,
             f.space_id AS spaceId, s.name AS spaceName, f.version AS version,
             (f.uploaded_by IS NOT NULL AND f.uploaded_by = ${userId}) AS isOwnUpload,
             f.created_at AS createdAt, f.updated_at AS updatedAt, f.trashed_at AS trashedAt
      FROM files f JOIN spaces s ON s.id = f.space_id
      WHERE s.owner_id = ${userId} OR f.uploaded_by = ${userId}
      ORDER BY s.name, f.name, f.id`),
    db.all<ExportFolderRow>(sql`
      SELECT d.id AS id, d.space_id AS spaceId, d.parent_id AS parentId, d.label AS label, d.kind AS kind,
             d.color AS color, d.icon AS icon, d.created_by AS createdBy, d.created_at AS createdAt, d.trashed_at AS trashedAt
      FROM folders d
      WHERE d.space_id IN (SELECT id FROM spaces WHERE owner_id = ${userId})
         OR d.space_id IN (SELECT space_id FROM files WHERE uploaded_by = ${userId})
         OR d.created_by = ${userId}`),
  ]);
  return { files: fileRows, folders: folderRows };
}

/**
 * The R2 keys of every file, file version and upload in the spaces the member owns. The rows
 * themselves go with the users row (spaces cascade from their owner, files from their space).
 */
export async function listOwnedSpaceKeys(db: Database, userId: string): Promise<string[]> {
  const rows = await db.all<{ key: string }>(sql`
    SELECT r2_key AS key FROM files WHERE space_id IN (SELECT id FROM spaces WHERE owner_id = ${userId})
    UNION
    SELECT r2_key FROM file_versions WHERE space_id IN (SELECT id FROM spaces WHERE owner_id = ${userId})
    UNION
    SELECT r2_key FROM uploads WHERE space_id IN (SELECT id FROM spaces WHERE owner_id = ${userId})`);
  return rows.map((row) => row.key);
}
