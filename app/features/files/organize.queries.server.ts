import { and, asc, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "~/db/client.server";
import { favorites, fileMetadata, fileTags, files, folders, spaceMembers, spaces, users, type FavoriteItemType } from "~/db/schema";
import type { Keyset } from "./folders.queries.server";
import { effectiveSpaceRole } from "./space-role.queries.server";
import { inWorkspace } from "~/features/teams/workspace.queries.server";
import { teamOfSpace } from "./space-role.queries.server";

/**
 * Favorites, tags, metadata, duplicates, recent uploads and document templates: the only place
 * drizzle is called for them. Every list joins the caller's space membership, so an outsider's
 * rows can never appear, and reads at most `limit` rows in keyset order (G2).
 */

/** D1 binds at most 100 parameters per statement: multi-row inserts are cut below that. */
const MAX_BOUND_PARAMETERS = 100;

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}

/** A file in a cross-folder list: where it lives comes with it (G4: still a small row). */
export type OrganizedFileRow = {
  id: string;
  name: string;
  size: number;
  contentType: string;
  createdAt: Date;
  folderId: string;
  folderLabel: string;
  folderKind: string;
  spaceId: string;
  spaceName: string;
};

const organizedFileColumns = {
  id: files.id,
  name: files.name,
  size: files.size,
  contentType: files.contentType,
  createdAt: files.createdAt,
  folderId: files.folderId,
  folderLabel: folders.label,
  folderKind: folders.kind,
  spaceId: files.spaceId,
  // Aliased: inside db.batch, D1 returns rows keyed by column name, and files.name is "name" too.
  spaceName: sql<string>`${spaces.name}`.as("space_name"),
} as const;

/** Files of the spaces `userId` belongs to, with their folder and space. */
function memberFilesQuery(db: Database, userId: string) {
  return db
    .select(organizedFileColumns)
    .from(files)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, files.spaceId), eq(spaceMembers.userId, userId)))
    .innerJoin(folders, eq(folders.id, files.folderId))
    .innerJoin(spaces, eq(spaces.id, files.spaceId));
}

// ---- the file details panel ------------------------------------------------------------------

/**
 * Everything the details panel shows, in one D1 round trip: the file with the caller's role
 * (nothing for outsiders or trashed files), whether the caller favourited it, its tags and metadata.
 */
export async function loadFileExtrasRows(db: Database, fileId: string, userId: string) {
  const [fileRows, favoriteRows, tagRows, metadataRows, duplicateRows] = await db.batch([
    db
      .select({ spaceId: files.spaceId, isTemplate: files.isTemplate, sha256: files.sha256, role: effectiveSpaceRole })
      .from(files)
      .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, files.spaceId), eq(spaceMembers.userId, userId)))
      .where(and(eq(files.id, fileId), isNull(files.trashedAt))),
    db
      .select({ itemId: favorites.itemId })
      .from(favorites)
      .where(and(eq(favorites.userId, userId), eq(favorites.itemType, "file"), eq(favorites.itemId, fileId))),
    db.select({ tag: fileTags.tag }).from(fileTags).where(eq(fileTags.fileId, fileId)).orderBy(asc(fileTags.tag)),
    db.select({ key: fileMetadata.key, value: fileMetadata.value }).from(fileMetadata).where(eq(fileMetadata.fileId, fileId)).orderBy(asc(fileMetadata.key)),
    // Other live files with the same content in the same space (0 while the file is not hashed).
    db
      .select({ count: sql<number>`count(*)` })
      .from(files)
      .where(
        and(
          sql`${files.spaceId} = (SELECT space_id FROM files WHERE id = ${fileId})`,
          sql`${files.sha256} = (SELECT sha256 FROM files WHERE id = ${fileId})`,
          isNull(files.trashedAt),
          sql`${files.id} != ${fileId}`,
        ),
      ),
  ]);
  return {
    file: fileRows[0],
    isFavorite: favoriteRows.length > 0,
    tags: tagRows.map((row) => row.tag),
    metadata: metadataRows,
    duplicateCount: duplicateRows[0]?.count ?? 0,
  };
}

// ---- favorites -------------------------------------------------------------------------------

export async function insertFavorite(db: Database, favorite: { userId: string; itemType: FavoriteItemType; itemId: string; now: Date }) {
  await db
    .insert(favorites)
    .values({ userId: favorite.userId, itemType: favorite.itemType, itemId: favorite.itemId, createdAt: favorite.now })
    .onConflictDoNothing()
    .run();
}

export async function deleteFavorite(db: Database, userId: string, itemType: FavoriteItemType, itemId: string) {
  await db
    .delete(favorites)
    .where(and(eq(favorites.userId, userId), eq(favorites.itemType, itemType), eq(favorites.itemId, itemId)))
    .run();
}

/**
 * The caller's favourite folders and files that are still live in a space they still belong to,
 * newest favourite first, in one round trip (each list capped at `limit`).
 */
export async function listFavoriteItems(db: Database, userId: string, limit: number) {
  const [folderRows, fileRows] = await db.batch([
    db
      .select({
        id: folders.id,
        label: folders.label,
        color: folders.color,
        icon: folders.icon,
        kind: folders.kind,
        spaceName: sql<string>`${spaces.name}`.as("space_name"),
      })
      .from(favorites)
      .innerJoin(folders, eq(folders.id, favorites.itemId))
      .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, folders.spaceId), eq(spaceMembers.userId, userId)))
      .innerJoin(spaces, eq(spaces.id, folders.spaceId))
      .where(and(eq(favorites.userId, userId), eq(favorites.itemType, "folder"), isNull(folders.trashedAt)))
      .orderBy(desc(favorites.createdAt), asc(favorites.itemId))
      .limit(limit),
    db
      .select(organizedFileColumns)
      .from(favorites)
      .innerJoin(files, eq(files.id, favorites.itemId))
      .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, files.spaceId), eq(spaceMembers.userId, userId)))
      .innerJoin(folders, eq(folders.id, files.folderId))
      .innerJoin(spaces, eq(spaces.id, files.spaceId))
      .where(and(eq(favorites.userId, userId), eq(favorites.itemType, "file"), isNull(files.trashedAt)))
      .orderBy(desc(favorites.createdAt), asc(favorites.itemId))
      .limit(limit),
  ]);
  return { folders: folderRows, files: fileRows };
}

/** Every favorite row of a member with the item's name when it still exists (the data export). */
export async function listFavoritesForExport(db: Database, userId: string) {
  return db
    .select({
      itemType: favorites.itemType,
      createdAt: favorites.createdAt,
      fileName: files.name,
      folderLabel: folders.label,
    })
    .from(favorites)
    .leftJoin(files, and(eq(favorites.itemType, "file"), eq(files.id, favorites.itemId)))
    .leftJoin(folders, and(eq(favorites.itemType, "folder"), eq(folders.id, favorites.itemId)))
    .where(eq(favorites.userId, userId))
    .orderBy(desc(favorites.createdAt))
    .all();
}

/** Erasure: the member's favorites (the users row cascade would also remove them). */
export async function deleteFavoritesOf(db: Database, userId: string) {
  await db.delete(favorites).where(eq(favorites.userId, userId)).run();
}

// ---- tags and metadata -----------------------------------------------------------------------

/** Replaces a file's tags in one batch (delete, then insert in chunks under the parameter limit). */
export async function replaceFileTags(db: Database, values: { fileId: string; spaceId: string; tags: readonly string[]; now: Date }) {
  const statements: BatchItem<"sqlite">[] = [db.delete(fileTags).where(eq(fileTags.fileId, values.fileId))];
  const rows = values.tags.map((tag) => ({ fileId: values.fileId, spaceId: values.spaceId, tag, createdAt: values.now }));
  for (const part of chunk(rows, Math.floor(MAX_BOUND_PARAMETERS / 4))) statements.push(db.insert(fileTags).values(part).onConflictDoNothing());
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** Replaces a file's metadata in one batch (the set sent is the whole set). */
export async function replaceFileMetadata(db: Database, values: { fileId: string; entries: readonly { key: string; value: string }[]; now: Date }) {
  const statements: BatchItem<"sqlite">[] = [db.delete(fileMetadata).where(eq(fileMetadata.fileId, values.fileId))];
  const rows = values.entries.map((entry) => ({ fileId: values.fileId, key: entry.key, value: entry.value, updatedAt: values.now }));
  for (const part of chunk(rows, Math.floor(MAX_BOUND_PARAMETERS / 4))) statements.push(db.insert(fileMetadata).values(part));
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** Every tag of the caller's spaces with how many live files carry it (capped at `limit` tags). */
export async function listTagCounts(db: Database, userId: string, limit: number, spaceId?: string) {
  return db
    .select({ tag: fileTags.tag, count: sql<number>`count(*)` })
    .from(fileTags)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, fileTags.spaceId), eq(spaceMembers.userId, userId)))
    .innerJoin(files, and(eq(files.id, fileTags.fileId), isNull(files.trashedAt)))
    .where(spaceId ? eq(fileTags.spaceId, spaceId) : undefined)
    .groupBy(fileTags.tag)
    .orderBy(asc(fileTags.tag))
    .limit(limit)
    .all();
}

/**
 * Every metadata key of one space's live files (the caller must belong to it) with how many files
 * carry it and how many different values it has (capped at `limit` keys, by key).
 */
export async function listMetadataKeyCounts(db: Database, userId: string, spaceId: string, limit: number) {
  return db
    .select({ key: fileMetadata.key, files: sql<number>`count(*)`, values: sql<number>`count(DISTINCT ${fileMetadata.value})` })
    .from(fileMetadata)
    .innerJoin(files, and(eq(files.id, fileMetadata.fileId), isNull(files.trashedAt), eq(files.spaceId, spaceId)))
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, files.spaceId), eq(spaceMembers.userId, userId)))
    .groupBy(fileMetadata.key)
    .orderBy(asc(fileMetadata.key))
    .limit(limit)
    .all();
}

/** Live files of one space carrying a metadata key (with one value, when given) and their value, keyset by (name, id). */
export async function listFilesWithMetadata(db: Database, userId: string, spaceId: string, filter: { key: string; value: string | null }, after: Keyset | null, limit: number) {
  const conditions: SQL[] = [eq(fileMetadata.key, filter.key), isNull(files.trashedAt), eq(files.spaceId, spaceId)];
  if (filter.value !== null) conditions.push(eq(fileMetadata.value, filter.value));
  if (after) conditions.push(sql`(${files.name}, ${files.id}) > (${String(after.value)}, ${after.id})`);
  return db
    .select({ ...organizedFileColumns, value: fileMetadata.value })
    .from(fileMetadata)
    .innerJoin(files, eq(files.id, fileMetadata.fileId))
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, files.spaceId), eq(spaceMembers.userId, userId)))
    .innerJoin(folders, eq(folders.id, files.folderId))
    .innerJoin(spaces, eq(spaces.id, files.spaceId))
    .where(and(...conditions))
    .orderBy(asc(files.name), asc(files.id))
    .limit(limit)
    .all();
}

/** The most common values of a metadata key in one space's live files (at most `limit`), most used first. */
export async function listMetadataValueCounts(db: Database, spaceId: string, key: string, limit: number) {
  return db
    .select({ value: fileMetadata.value, files: sql<number>`count(*)` })
    .from(fileMetadata)
    .innerJoin(files, and(eq(files.id, fileMetadata.fileId), isNull(files.trashedAt), eq(files.spaceId, spaceId)))
    .where(eq(fileMetadata.key, key))
    .groupBy(fileMetadata.value)
    .orderBy(desc(sql`count(*)`), asc(fileMetadata.value))
    .limit(limit)
    .all();
}

/** Live files with a tag in the caller's spaces, keyset by (name, id). */
export async function listFilesWithTag(db: Database, userId: string, tag: string, after: Keyset | null, limit: number, spaceId?: string) {
  const conditions: SQL[] = [eq(fileTags.tag, tag), isNull(files.trashedAt)];
  if (spaceId) conditions.push(eq(fileTags.spaceId, spaceId));
  if (after) conditions.push(sql`(${files.name}, ${files.id}) > (${String(after.value)}, ${after.id})`);
  return db
    .select(organizedFileColumns)
    .from(fileTags)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, fileTags.spaceId), eq(spaceMembers.userId, userId)))
    .innerJoin(files, eq(files.id, fileTags.fileId))
    .innerJoin(folders, eq(folders.id, files.folderId))
    .innerJoin(spaces, eq(spaces.id, files.spaceId))
    .where(and(...conditions))
    .orderBy(asc(files.name), asc(files.id))
    .limit(limit)
    .all();
}

// ---- templates -------------------------------------------------------------------------------

export async function updateTemplateFlag(db: Database, fileId: string, isTemplate: boolean, now: Date) {
  await db
    .update(files)
    .set({ isTemplate, updatedAt: now })
    .where(and(eq(files.id, fileId), isNull(files.trashedAt)))
    .run();
}

/** The document templates of the caller's spaces, keyset by (name, id). */
export async function listTemplates(db: Database, userId: string, after: Keyset | null, limit: number, workspace?: string | null) {
  const conditions: (SQL | undefined)[] = [eq(files.isTemplate, true), isNull(files.trashedAt), inWorkspace(teamOfSpace(files.spaceId), userId, workspace)];
  if (after) conditions.push(sql`(${files.name}, ${files.id}) > (${String(after.value)}, ${after.id})`);
  return memberFilesQuery(db, userId)
    .where(and(...conditions))
    .orderBy(asc(files.name), asc(files.id))
    .limit(limit)
    .all();
}

/** Whether a live file of that name is already in the folder. */
export async function fileNameTaken(db: Database, folderId: string, name: string): Promise<boolean> {
  const row = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.folderId, folderId), eq(files.name, name), isNull(files.trashedAt)))
    .get();
  return Boolean(row);
}

export type NewFileRow = typeof files.$inferInsert;

export async function insertFileRow(db: Database, row: NewFileRow) {
  await db.insert(files).values(row).run();
}

// ---- recent uploads --------------------------------------------------------------------------

/**
 * Above this many spaces, recent uploads fall back to one join: D1 (workerd's SQLite) refuses a
 * compound SELECT of more than 5 terms ("too many terms in compound SELECT"), so a member of six
 * spaces (their files and five rooms) got a 500 on /files/recent until the dashboard's cost test
 * found it (issue 36).
 */
const RECENT_ARMS_MAX = 5;

type RawOrganizedFile = Omit<OrganizedFileRow, "createdAt"> & { createdAt: number };

/**
 * The newest live files across the caller's spaces, keyset by (created_at, id) descending. Each
 * space reads at most `limit` rows from its (space_id, created_at, id) index and the arms are
 * merged (G2: no scan of every file of every space); a member of very many spaces gets one join.
 */
export async function listRecentFiles(db: Database, userId: string, after: Keyset | null, limit: number, workspace?: string | null): Promise<OrganizedFileRow[]> {
  const memberships = await db
    .select({ spaceId: spaceMembers.spaceId })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.userId, userId), inWorkspace(teamOfSpace(spaceMembers.spaceId), userId, workspace)))
    .all();
  if (memberships.length === 0) return [];
  if (memberships.length > RECENT_ARMS_MAX) {
    const conditions: (SQL | undefined)[] = [isNull(files.trashedAt), inWorkspace(teamOfSpace(files.spaceId), userId, workspace)];
    if (after) conditions.push(sql`(${files.createdAt}, ${files.id}) < (${Number(after.value)}, ${after.id})`);
    return memberFilesQuery(db, userId)
      .where(and(...conditions))
      .orderBy(desc(files.createdAt), desc(files.id))
      .limit(limit)
      .all();
  }
  const keyset = after ? sql` AND (created_at, id) < (${Number(after.value)}, ${after.id})` : sql``;
  const arms = memberships.map(
    ({ spaceId }) =>
      sql`SELECT * FROM (SELECT id, created_at FROM files WHERE space_id = ${spaceId} AND trashed_at IS NULL${keyset} ORDER BY created_at DESC, id DESC LIMIT ${limit})`,
  );
  const rows = await db.all<RawOrganizedFile>(sql`
    SELECT f.id AS id, f.name AS name, f.size AS size, f.content_type AS contentType, f.created_at AS createdAt,
           f.folder_id AS folderId, d.label AS folderLabel, d.kind AS folderKind, f.space_id AS spaceId, s.name AS spaceName
    FROM (${sql.join(arms, sql` UNION ALL `)}) r
    JOIN files f ON f.id = r.id
    JOIN space_members sm ON sm.space_id = f.space_id AND sm.user_id = ${userId}
    JOIN folders d ON d.id = f.folder_id
    JOIN spaces s ON s.id = f.space_id
    ORDER BY r.created_at DESC, r.id DESC
    LIMIT ${limit}`);
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
}

// ---- duplicates ------------------------------------------------------------------------------

/** A keyset position in the duplicate groups: (bytes that could be saved desc, sha256, space). */
export type DuplicateKeyset = { wasted: number; sha256: string; spaceId: string };

/**
 * Groups of live, hashed files sharing a SHA-256 within one of the caller's spaces (the partial
 * index on (space_id, sha256) serves the grouping). The summary covers every group; the page
 * holds `limit` of them, the largest saving first.
 */
function duplicateGroupsSql(userId: string, spaceId?: string) {
  const inSpace = spaceId ? sql` AND f.space_id = ${spaceId}` : sql``;
  return sql`
    SELECT f.space_id AS space_id, f.sha256 AS sha256, count(*) AS copies, max(f.size) AS size,
           (count(*) - 1) * max(f.size) AS wasted
    FROM files f
    JOIN space_members sm ON sm.space_id = f.space_id AND sm.user_id = ${userId}
    WHERE f.trashed_at IS NULL AND f.sha256 IS NOT NULL${inSpace}
    GROUP BY f.space_id, f.sha256
    HAVING count(*) > 1`;
}

export type DuplicateGroupRow = { spaceId: string; spaceName: string; sha256: string; copies: number; size: number; wasted: number };

/** Duplicate groups in the caller's spaces (or only `spaceId`, a room's duplicates page). */
export async function listDuplicateGroups(db: Database, userId: string, after: DuplicateKeyset | null, limit: number, spaceId?: string) {
  const keyset = after
    ? sql`WHERE g.wasted < ${after.wasted} OR (g.wasted = ${after.wasted} AND (g.sha256, g.space_id) > (${after.sha256}, ${after.spaceId}))`
    : sql``;
  // Two statements, not db.batch: drizzle cannot batch a raw statement that has parameters.
  const [summaryRows, groupRows] = await Promise.all([
    db.all<{ groups: number; files: number; wasted: number }>(sql`
      WITH g AS (${duplicateGroupsSql(userId, spaceId)})
      SELECT count(*) AS groups, coalesce(sum(g.copies), 0) AS files, coalesce(sum(g.wasted), 0) AS wasted FROM g`),
    db.all<DuplicateGroupRow>(sql`
      WITH g AS (${duplicateGroupsSql(userId, spaceId)})
      SELECT g.space_id AS spaceId, s.name AS spaceName, g.sha256 AS sha256, g.copies AS copies, g.size AS size, g.wasted AS wasted
      FROM g JOIN spaces s ON s.id = g.space_id
      ${keyset}
      ORDER BY g.wasted DESC, g.sha256 ASC, g.space_id ASC
      LIMIT ${limit}`),
  ]);
  const summary = summaryRows[0] ?? { groups: 0, files: 0, wasted: 0 };
  return { summary, groups: groupRows };
}

/** The files of the given duplicate groups (at most `perGroup` each, oldest first). */
export async function listDuplicateFiles(db: Database, userId: string, sha256s: readonly string[], perGroup: number, spaceId?: string): Promise<(OrganizedFileRow & { sha256: string })[]> {
  if (sha256s.length === 0) return [];
  const inSpace = spaceId ? sql` AND f.space_id = ${spaceId}` : sql``;
  const rows = await db.all<RawOrganizedFile & { sha256: string }>(sql`
    SELECT id, name, size, contentType, createdAt, folderId, folderLabel, folderKind, spaceId, spaceName, sha256 FROM (
      SELECT f.id AS id, f.name AS name, f.size AS size, f.content_type AS contentType, f.created_at AS createdAt,
             f.folder_id AS folderId, d.label AS folderLabel, d.kind AS folderKind, f.space_id AS spaceId, s.name AS spaceName,
             f.sha256 AS sha256,
             row_number() OVER (PARTITION BY f.space_id, f.sha256 ORDER BY f.created_at, f.id) AS rank
      FROM files f
      JOIN space_members sm ON sm.space_id = f.space_id AND sm.user_id = ${userId}
      JOIN folders d ON d.id = f.folder_id
      JOIN spaces s ON s.id = f.space_id
      WHERE f.trashed_at IS NULL${inSpace} AND f.sha256 IN (${sql.join(
        sha256s.map((value) => sql`${value}`),
        sql`, `,
      )})
    ) WHERE rank <= ${perGroup}
    ORDER BY createdAt, id`);
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
}

/** A room's newest live files with who uploaded each (keyset by created_at, id; the space's created index). */
export async function listSpaceRecentFiles(db: Database, spaceId: string, after: Keyset | null, limit: number): Promise<(OrganizedFileRow & { uploaderName: string | null })[]> {
  const conditions: SQL[] = [eq(files.spaceId, spaceId), isNull(files.trashedAt)];
  if (after) conditions.push(sql`(${files.createdAt}, ${files.id}) < (${Number(after.value)}, ${after.id})`);
  return db
    .select({ ...organizedFileColumns, uploaderName: users.name })
    .from(files)
    .innerJoin(folders, eq(folders.id, files.folderId))
    .innerJoin(spaces, eq(spaces.id, files.spaceId))
    .leftJoin(users, eq(users.id, files.uploadedBy))
    .where(and(...conditions))
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(limit)
    .all();
}
