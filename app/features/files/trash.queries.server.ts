import { sql, type SQL } from "drizzle-orm";
import { spaceUnderLegalHold } from "~/features/teams/legal-hold.queries.server";
import type { Database } from "~/db/client.server";
import { rawBatch } from "~/db/raw-batch.server";
import type { FolderKind, SpaceRole } from "~/db/schema";
import type { EffectiveSpaceRole } from "./files.permissions";
import { effectiveSpaceRoleOfM } from "./space-role.queries.server";
import type { ItemType } from "./trash.constants";

/**
 * The trash's SQL. Lists of ids travel as ONE JSON parameter read with `json_each`, so a call
 * with 100 items stays far below D1's 100-bound-parameter limit, and every multi-row change is a
 * single set-based statement (a fixed number of statements per batch, whatever the item count).
 *
 * How a trashed tree is marked: every row trashed together shares `trashed_at` and
 * `trash_root_id` (the id of the item the member deleted). The root alone keeps where it was:
 * `original_parent_id` / `original_folder_id` and `original_path` (folder labels from the space
 * root down to its parent). Descendants keep their own `parent_id` / `folder_id`, so restoring the
 * root brings the whole tree back as it was.
 */

/** Guards every recursive walk against a cycle (the tree is at most FOLDER_DEPTH_MAX deep). */
const MAX_DEPTH = 64;

const idList = (ids: readonly string[]) => JSON.stringify(ids);

function rowsOf<T>(result: D1Result | undefined): T[] {
  return (result?.results ?? []) as T[];
}

export type ItemAccessRow = {
  type: ItemType;
  id: string;
  spaceId: string;
  role: EffectiveSpaceRole;
  name: string;
  /** The folder a file is in, or a folder's parent (null for a space's root). */
  parentId: string | null;
  kind: FolderKind | null;
  trashedAt: number | null;
  trashRootId: string | null;
  originalParentId: string | null;
  originalPath: string | null;
};

/**
 * The named files and folders together with the caller's role in their spaces, trashed or not.
 * Items of spaces the caller is not a member of are simply absent (the caller answers 404).
 */
export async function findItemsWithRole(db: Database, userId: string, fileIds: string[], folderIds: string[]): Promise<ItemAccessRow[]> {
  return db.all<ItemAccessRow>(sql`
    SELECT 'file' AS type, f.id AS id, f.space_id AS spaceId, ${effectiveSpaceRoleOfM} AS role, f.name AS name, f.folder_id AS parentId,
           NULL AS kind, f.trashed_at AS trashedAt, f.trash_root_id AS trashRootId,
           f.original_folder_id AS originalParentId, f.original_path AS originalPath
    FROM files f
    JOIN space_members m ON m.space_id = f.space_id AND m.user_id = ${userId}
    WHERE f.id IN (SELECT value FROM json_each(${idList(fileIds)}))
    UNION ALL
    SELECT 'folder', d.id, d.space_id, ${effectiveSpaceRoleOfM}, d.label, d.parent_id, d.kind, d.trashed_at, d.trash_root_id,
           d.original_parent_id, d.original_path
    FROM folders d
    JOIN space_members m ON m.space_id = d.space_id AND m.user_id = ${userId}
    WHERE d.id IN (SELECT value FROM json_each(${idList(folderIds)}))`);
}

export type ChainRow = { start: string; id: string; label: string; kind: FolderKind; depth: number };

function chainsQuery(folderIds: string[]) {
  return sql`
    WITH RECURSIVE chain(start, id, parent_id, label, kind, depth) AS (
      SELECT id, id, parent_id, label, kind, 0 FROM folders WHERE id IN (SELECT value FROM json_each(${idList(folderIds)}))
      UNION ALL
      SELECT chain.start, f.id, f.parent_id, f.label, f.kind, chain.depth + 1
      FROM folders f JOIN chain ON f.id = chain.parent_id
      WHERE chain.depth < ${MAX_DEPTH}
    )
    SELECT start, id, label, kind, depth FROM chain`;
}

/** A live folder tree's rows of a protected kind (root, inbox, outbox), if any: those trees cannot be deleted. */
function protectedInTreesQuery(folderIds: string[]) {
  return sql`
    WITH RECURSIVE tree(id, depth) AS (
      SELECT id, 0 FROM folders WHERE id IN (SELECT value FROM json_each(${idList(folderIds)}))
      UNION ALL
      SELECT f.id, tree.depth + 1 FROM folders f JOIN tree ON f.parent_id = tree.id
      WHERE f.trashed_at IS NULL AND tree.depth < ${MAX_DEPTH}
    )
    SELECT folders.id AS id, folders.kind AS kind FROM folders JOIN tree ON tree.id = folders.id
    WHERE folders.kind IN ('root', 'inbox', 'outbox')
    LIMIT 1`;
}

/**
 * In one round trip: every ancestor chain of `parentIds` (each folder up to its space's root) and
 * whether the folder trees about to be deleted hold a protected folder.
 */
export async function loadChainsAndProtected(db: Database, parentIds: string[], folderIds: string[]) {
  const [chains, protectedRows] = await rawBatch(db, [chainsQuery(parentIds), protectedInTreesQuery(folderIds)]);
  return { chains: rowsOf<ChainRow>(chains), protectedFolder: rowsOf<{ id: string; kind: FolderKind }>(protectedRows)[0] ?? null };
}

// ---- to the trash ------------------------------------------------------------------------------

export type TrashMarking = {
  /** Folders the member deleted (their whole live subtree goes with them). */
  folderRootIds: string[];
  /** Files the member deleted directly. */
  fileRootIds: string[];
  /** id → the labels from the space root down to the item's parent. */
  paths: Record<string, string[]>;
  userId: string;
  now: Date;
};

/** The live subtree of each deleted folder, each row tagged with the deleted folder it belongs to. */
function treeCte(folderRootIds: string[]) {
  return sql`
    WITH RECURSIVE tree(id, root, depth) AS (
      SELECT id, id, 0 FROM folders
      WHERE id IN (SELECT value FROM json_each(${idList(folderRootIds)})) AND trashed_at IS NULL
      UNION ALL
      SELECT f.id, tree.root, tree.depth + 1 FROM folders f JOIN tree ON f.parent_id = tree.id
      WHERE f.trashed_at IS NULL AND tree.depth < ${MAX_DEPTH}
    )`;
}

/**
 * The statements that move items to the trash, in order (files of the trees first: the folder
 * walk stops at folders that are already trashed). Only live rows change, so running them again
 * changes nothing. Callers put them in a batch, alone or followed by the permanent deletion.
 */
export function trashStatements(marking: TrashMarking): SQL[] {
  const now = marking.now.getTime();
  const paths = JSON.stringify(marking.paths);
  return [
    sql`${treeCte(marking.folderRootIds)}
      UPDATE files SET trashed_at = ${now}, trashed_by = ${marking.userId}, trash_root_id = tree.root,
        original_folder_id = files.folder_id, original_path = NULL
      FROM tree WHERE files.folder_id = tree.id AND files.trashed_at IS NULL`,
    sql`${treeCte(marking.folderRootIds)}
      UPDATE folders SET trashed_at = ${now}, trashed_by = ${marking.userId}, trash_root_id = tree.root,
        original_parent_id = CASE WHEN tree.id = tree.root THEN folders.parent_id ELSE NULL END,
        original_path = CASE WHEN tree.id = tree.root THEN json_extract(${paths}, '$."' || folders.id || '"') ELSE NULL END
      FROM tree WHERE folders.id = tree.id`,
    sql`
      UPDATE files SET trashed_at = ${now}, trashed_by = ${marking.userId}, trash_root_id = files.id,
        original_folder_id = files.folder_id, original_path = json_extract(${paths}, '$."' || files.id || '"')
      WHERE files.id IN (SELECT value FROM json_each(${idList(marking.fileRootIds)})) AND files.trashed_at IS NULL`,
  ];
}

/** Runs the statements of `trashStatements` as one batch (all or nothing). */
export async function markTrashed(db: Database, statements: readonly SQL[]): Promise<void> {
  await rawBatch(db, statements);
}

// ---- permanent deletion ------------------------------------------------------------------------

/** R2 keys of every file and file version of the trashed groups (rows still present). */
function groupKeysSql(rootIds: string) {
  return sql`
    SELECT r2_key AS key FROM files
    WHERE trash_root_id IS NOT NULL AND trash_root_id IN (SELECT value FROM json_each(${rootIds}))
    UNION
    SELECT v.r2_key FROM file_versions v JOIN files f ON f.id = v.file_id
    WHERE f.trash_root_id IS NOT NULL AND f.trash_root_id IN (SELECT value FROM json_each(${rootIds}))`;
}

/**
 * Deletes the rows of whole trashed groups (named by their trash root ids) in ONE batch, after
 * recording their R2 keys in r2_deletions: the objects are deleted afterwards, and if that never
 * happens the purge finds the keys there. Files cascade to versions, tags and metadata;
 * favorites have no foreign key, so their rows are deleted here. Returns the recorded keys.
 * `before` are statements to run first in the same batch (marking live items as trashed).
 */
export async function deleteTrashGroups(
  db: Database,
  rootIds: string[],
  now: Date,
  before: readonly SQL[] = [],
): Promise<string[]> {
  const roots = idList(rootIds);
  const inGroups = (table: "files" | "folders") =>
    sql`SELECT id FROM ${sql.raw(table)} WHERE trash_root_id IS NOT NULL AND trash_root_id IN (SELECT value FROM json_each(${roots}))`;
  const results = await rawBatch(db, [
    ...before,
    groupKeysSql(roots),
    sql`INSERT OR IGNORE INTO r2_deletions (key, created_at) SELECT key, ${now.getTime()} FROM (${groupKeysSql(roots)})`,
    sql`DELETE FROM favorites WHERE (item_type = 'file' AND item_id IN (${inGroups("files")}))
      OR (item_type = 'folder' AND item_id IN (${inGroups("folders")}))`,
    sql`DELETE FROM files WHERE trash_root_id IS NOT NULL AND trash_root_id IN (SELECT value FROM json_each(${roots}))`,
    sql`DELETE FROM folders WHERE trash_root_id IS NOT NULL AND trash_root_id IN (SELECT value FROM json_each(${roots}))`,
  ]);
  return rowsOf<{ key: string }>(results[before.length]).map((row) => row.key);
}

/** Trash groups whose time is up (trashed before `cutoff`), at most `limit` of each kind; none in a room under a legal hold. */
export async function findExpiredTrashRoots(db: Database, cutoff: Date, limit: number): Promise<string[]> {
  const at = cutoff.getTime();
  const [fileRoots, folderRoots] = await rawBatch(db, [
    sql`SELECT DISTINCT trash_root_id AS root FROM files
      WHERE trashed_at IS NOT NULL AND trashed_at < ${at} AND trash_root_id IS NOT NULL AND NOT ${spaceUnderLegalHold(sql`files.space_id`)} LIMIT ${limit}`,
    sql`SELECT DISTINCT trash_root_id AS root FROM folders
      WHERE trashed_at IS NOT NULL AND trashed_at < ${at} AND trash_root_id IS NOT NULL AND NOT ${spaceUnderLegalHold(sql`folders.space_id`)} LIMIT ${limit}`,
  ]);
  const roots = [...rowsOf<{ root: string }>(fileRoots), ...rowsOf<{ root: string }>(folderRoots)].map((row) => row.root);
  return [...new Set(roots)];
}

// ---- r2_deletions ------------------------------------------------------------------------------

/** The next owed object deletions, each with whether a live file row still uses the key. */
export async function listPendingDeletions(db: Database, limit: number) {
  const rows = await db.all<{ key: string; inUse: number }>(sql`
    SELECT d.key AS key, EXISTS (SELECT 1 FROM files WHERE files.r2_key = d.key) AS inUse
    FROM r2_deletions d ORDER BY d.key LIMIT ${limit}`);
  return rows.map((row) => ({ key: row.key, inUse: Boolean(row.inUse) }));
}

/** Keys among `keys` that a file row uses (never deleted from R2: the guard against a reused key). */
export async function findKeysInUse(db: Database, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.all<{ key: string }>(sql`SELECT r2_key AS key FROM files WHERE r2_key IN (SELECT value FROM json_each(${idList(keys)}))`);
  return new Set(rows.map((row) => row.key));
}

export async function deletePendingDeletions(db: Database, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.run(sql`DELETE FROM r2_deletions WHERE key IN (SELECT value FROM json_each(${idList(keys)}))`);
}

// ---- restore -----------------------------------------------------------------------------------

/** A live folder's space (null when it is gone or in the trash). */
export async function findLiveFolderSpace(db: Database, folderId: string): Promise<string | null> {
  const row = await db.get<{ spaceId: string }>(sql`SELECT space_id AS spaceId FROM folders WHERE id = ${folderId} AND trashed_at IS NULL`);
  return row?.spaceId ?? null;
}

/** Which of `names` a live file (or live child folder) in `parentId` already has. */
export async function findTakenNames(db: Database, type: ItemType, parentId: string, names: string[]): Promise<Set<string>> {
  const list = idList(names);
  const rows =
    type === "file"
      ? await db.all<{ name: string }>(sql`SELECT name FROM files
          WHERE folder_id = ${parentId} AND trashed_at IS NULL AND name IN (SELECT value FROM json_each(${list}))`)
      : await db.all<{ name: string }>(sql`SELECT label AS name FROM folders
          WHERE parent_id = ${parentId} AND trashed_at IS NULL AND label IN (SELECT value FROM json_each(${list}))`);
  return new Set(rows.map((row) => row.name));
}

export type RestoreMove = { id: string; type: ItemType; parentId: string; name: string };

/**
 * Brings whole trash groups back in ONE batch: each root goes to its new parent under its
 * (possibly renamed) name, then every row of its group leaves the trash. Only rows still in the
 * trash change, so a repeated call changes nothing.
 */
export async function restoreGroups(db: Database, moves: RestoreMove[], now: Date): Promise<void> {
  const targets = JSON.stringify(Object.fromEntries(moves.map((move) => [move.id, [move.parentId, move.name]])));
  const fileRoots = idList(moves.filter((move) => move.type === "file").map((move) => move.id));
  const folderRoots = idList(moves.filter((move) => move.type === "folder").map((move) => move.id));
  const allRoots = idList(moves.map((move) => move.id));
  const at = now.getTime();
  await rawBatch(db, [
    sql`UPDATE files SET
        folder_id = json_extract(${targets}, '$."' || files.id || '"[0]'),
        name = json_extract(${targets}, '$."' || files.id || '"[1]'),
        updated_at = ${at}
      WHERE files.id IN (SELECT value FROM json_each(${fileRoots})) AND files.trash_root_id = files.id`,
    sql`UPDATE folders SET
        parent_id = json_extract(${targets}, '$."' || folders.id || '"[0]'),
        label = json_extract(${targets}, '$."' || folders.id || '"[1]'),
        updated_at = ${at}
      WHERE folders.id IN (SELECT value FROM json_each(${folderRoots})) AND folders.trash_root_id = folders.id`,
    sql`UPDATE files SET trashed_at = NULL, trash_root_id = NULL, trashed_by = NULL, original_folder_id = NULL, original_path = NULL
      WHERE trash_root_id IS NOT NULL AND trash_root_id IN (SELECT value FROM json_each(${allRoots}))`,
    sql`UPDATE folders SET trashed_at = NULL, trash_root_id = NULL, trashed_by = NULL, original_parent_id = NULL, original_path = NULL
      WHERE trash_root_id IS NOT NULL AND trash_root_id IN (SELECT value FROM json_each(${allRoots}))`,
  ]);
}

// ---- the trash page ----------------------------------------------------------------------------

export type TrashListRow = {
  type: ItemType;
  id: string;
  name: string;
  spaceId: string;
  spaceName: string;
  spaceKind: string;
  trashedAt: number;
  originalPath: string | null;
  originalParentId: string | null;
  size: number | null;
  contentType: string | null;
};

/**
 * What the member deleted (trash roots only) in every space where their role may delete, newest
 * first, keyset-paginated on (trashed_at, id) descending. Each half applies the keyset and the
 * limit itself while reading its partial trash index (space_id, trashed_at) backwards, so a page
 * reads about `limit` rows per half however large the trash is; the outer query merges them.
 */
export async function listTrashRoots(
  db: Database,
  query: { userId: string; roles: readonly SpaceRole[]; after: { trashedAt: number; id: string } | null; limit: number },
): Promise<TrashListRow[]> {
  const roles = JSON.stringify(query.roles);
  const after = (alias: "f" | "d") =>
    query.after ? sql`AND (${sql.raw(alias)}.trashed_at, ${sql.raw(alias)}.id) < (${query.after.trashedAt}, ${query.after.id})` : sql``;
  return db.all<TrashListRow>(sql`
    SELECT * FROM (
      SELECT * FROM (
        SELECT 'file' AS type, f.id AS id, f.name AS name, f.space_id AS spaceId, s.name AS spaceName, s.kind AS spaceKind,
               f.trashed_at AS trashedAt, f.original_path AS originalPath, f.original_folder_id AS originalParentId,
               f.size AS size, f.content_type AS contentType
        FROM space_members m
        JOIN spaces s ON s.id = m.space_id
        JOIN files f ON f.space_id = m.space_id AND f.trashed_at IS NOT NULL AND f.trash_root_id = f.id ${after("f")}
        WHERE m.user_id = ${query.userId} AND m.role IN (SELECT value FROM json_each(${roles}))
        ORDER BY f.trashed_at DESC, f.id DESC
        LIMIT ${query.limit}
      )
      UNION ALL
      SELECT * FROM (
        SELECT 'folder', d.id, d.label, d.space_id, s.name, s.kind, d.trashed_at, d.original_path, d.original_parent_id, NULL, NULL
        FROM space_members m
        JOIN spaces s ON s.id = m.space_id
        JOIN folders d ON d.space_id = m.space_id AND d.trashed_at IS NOT NULL AND d.trash_root_id = d.id ${after("d")}
        WHERE m.user_id = ${query.userId} AND m.role IN (SELECT value FROM json_each(${roles}))
        ORDER BY d.trashed_at DESC, d.id DESC
        LIMIT ${query.limit}
      )
    )
    ORDER BY trashedAt DESC, id DESC
    LIMIT ${query.limit}`);
}
