import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { favorites, files, folders, spaceMembers, spaces, type FolderKind } from "~/db/schema";
import type { FileSort, SortDirection } from "./files.constants";
import type { EffectiveSpaceRole } from "./files.permissions";
import { effectiveSpaceRole, isDataroomSpace, spaceTeamId } from "./space-role.queries.server";
import { inWorkspace } from "~/features/teams/workspace.queries.server";

export type FolderRow = typeof folders.$inferSelect;
export type FileRow = typeof files.$inferSelect;

/**
 * A file by its id, live or in the trash, with no access check: for callers that hold their own
 * proof (a print order's signed picture address; the derived id of a file the app made).
 */
export async function findFileById(db: Database, id: string): Promise<FileRow | undefined> {
  return db.select().from(files).where(eq(files.id, id)).get();
}
export type SpaceRow = typeof spaces.$inferSelect;

/** A keyset position: the sort value and id of the last row of the previous page. */
export type Keyset = { value: string | number; id: string };

// ---- spaces ------------------------------------------------------------------------------------

export async function findPersonalSpace(db: Database, userId: string): Promise<SpaceRow | undefined> {
  return db
    .select()
    .from(spaces)
    .where(and(eq(spaces.ownerId, userId), eq(spaces.kind, "personal")))
    .get();
}

export type NewSpace = { spaceId: string; userId: string; name: string; rootId: string; inboxId: string; outboxId: string; now: Date };

/**
 * The personal space with its root, default inbox and default outbox, in one batch. Every insert
 * ignores a conflict (the unique indexes), so two first visits at once create exactly one space.
 */
export async function insertPersonalSpace(db: Database, space: NewSpace): Promise<void> {
  const { spaceId, userId, name, now } = space;
  const folder = (id: string, kind: FolderKind, label: string, parentId: string | null) => ({
    id,
    spaceId,
    parentId,
    kind,
    label,
    createdBy: userId,
    createdAt: now,
    updatedAt: now,
  });
  await db.batch([
    db.insert(spaces).values({ id: spaceId, kind: "personal", ownerId: userId, name, createdAt: now, updatedAt: now }).onConflictDoNothing(),
    db.insert(spaceMembers).values({ spaceId, userId, role: "owner", createdAt: now }).onConflictDoNothing(),
    db.insert(folders).values(folder(space.rootId, "root", "My files", null)).onConflictDoNothing(),
    db.insert(folders).values(folder(space.inboxId, "inbox", "Inbox", space.rootId)).onConflictDoNothing(),
    db.insert(folders).values(folder(space.outboxId, "outbox", "Outbox", space.rootId)).onConflictDoNothing(),
  ]);
}

export async function findSpaceRole(db: Database, spaceId: string, userId: string): Promise<{ role: EffectiveSpaceRole; isDataroom: number } | undefined> {
  return db
    .select({ role: effectiveSpaceRole, isDataroom: isDataroomSpace })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
    .get();
}

export async function listMemberSpaces(db: Database, userId: string) {
  return db
    .select({ id: spaces.id, kind: spaces.kind, name: spaces.name, role: effectiveSpaceRole })
    .from(spaceMembers)
    .innerJoin(spaces, eq(spaces.id, spaceMembers.spaceId))
    .where(eq(spaceMembers.userId, userId))
    .orderBy(asc(spaces.kind), asc(spaces.name))
    .all();
}

/** The space's root folder (the top of its tree). */
export async function findRootFolder(db: Database, spaceId: string): Promise<FolderRow | undefined> {
  return db
    .select()
    .from(folders)
    .where(and(eq(folders.spaceId, spaceId), eq(folders.kind, "root")))
    .get();
}

// ---- folders -----------------------------------------------------------------------------------

/** A live (not trashed) folder together with the caller's role in its space; nothing for outsiders. */
function folderWithRoleQuery(db: Database, folderId: string, userId: string) {
  return db
    .select({ folder: folders, role: effectiveSpaceRole, isDataroom: isDataroomSpace })
    .from(folders)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, folders.spaceId), eq(spaceMembers.userId, userId)))
    .where(and(eq(folders.id, folderId), isNull(folders.trashedAt)));
}

export async function findFolderWithRole(db: Database, folderId: string, userId: string) {
  return folderWithRoleQuery(db, folderId, userId).get();
}

/**
 * The folder and its ancestors, root first: a recursive CTE in one statement, written as a
 * subquery so it can run inside a db.batch (G1).
 */
export function breadcrumbsQuery(db: Database, folderId: string) {
  return db
    .select({ id: sql<string>`id`, label: sql<string>`label`, kind: sql<FolderKind>`kind` })
    .from(
      sql`(WITH RECURSIVE chain(id, parent_id, label, kind, depth) AS (
        SELECT id, parent_id, label, kind, 0 FROM folders WHERE id = ${folderId}
        UNION ALL
        SELECT f.id, f.parent_id, f.label, f.kind, chain.depth + 1
        FROM folders f JOIN chain ON f.id = chain.parent_id
        WHERE chain.depth < 64
      ) SELECT id, label, kind, depth FROM chain) AS crumbs`,
    )
    .orderBy(sql`depth DESC`);
}

export async function findBreadcrumbs(db: Database, folderId: string) {
  return breadcrumbsQuery(db, folderId).all();
}

export function subfoldersQuery(db: Database, spaceId: string, parentId: string, after: Keyset | null, limit: number) {
  const conditions: SQL[] = [eq(folders.spaceId, spaceId), eq(folders.parentId, parentId), isNull(folders.trashedAt)];
  if (after) conditions.push(sql`(${folders.label}, ${folders.id}) > (${String(after.value)}, ${after.id})`);
  return db
    .select({ id: folders.id, label: folders.label, color: folders.color, icon: folders.icon, kind: folders.kind, createdAt: folders.createdAt })
    .from(folders)
    .where(and(...conditions))
    .orderBy(asc(folders.label), asc(folders.id))
    .limit(limit);
}

const sortColumns = { name: files.name, created: files.createdAt, size: files.size } as const;

/** The columns a file list shows (G4: a small row). */
export const fileListColumns = {
  id: files.id,
  name: files.name,
  size: files.size,
  contentType: files.contentType,
  createdAt: files.createdAt,
  folderId: files.folderId,
} as const;

export type FileListRow = { id: string; name: string; size: number; contentType: string; createdAt: Date; folderId: string };

/** Keyset condition for (sort column, id) in either direction; uses the matching partial index. */
export function keysetCondition(sort: FileSort, direction: SortDirection, after: Keyset | null): SQL | undefined {
  if (!after) return undefined;
  const column = sortColumns[sort];
  const value = sort === "name" ? String(after.value) : Number(after.value);
  return direction === "asc" ? sql`(${column}, ${files.id}) > (${value}, ${after.id})` : sql`(${column}, ${files.id}) < (${value}, ${after.id})`;
}

export function fileOrder(sort: FileSort, direction: SortDirection) {
  const column = sortColumns[sort];
  return direction === "asc" ? [asc(column), asc(files.id)] : [desc(column), desc(files.id)];
}

export function filesInFolderQuery(db: Database, folderId: string, sort: FileSort, direction: SortDirection, after: Keyset | null, limit: number) {
  const conditions = [eq(files.folderId, folderId), isNull(files.trashedAt), keysetCondition(sort, direction, after)].filter(Boolean) as SQL[];
  return db
    .select(fileListColumns)
    .from(files)
    .where(and(...conditions))
    .orderBy(...fileOrder(sort, direction))
    .limit(limit);
}

function favoriteIdsQuery(db: Database, userId: string) {
  return db.select({ itemType: favorites.itemType, itemId: favorites.itemId }).from(favorites).where(eq(favorites.userId, userId));
}

export type FolderPageQuery = {
  userId: string;
  folderId: string;
  spaceId: string;
  sort: FileSort;
  direction: SortDirection;
  after: Keyset | null;
  foldersAfter: Keyset | null;
  limit: number;
};

/**
 * Everything a folder page shows, in ONE D1 round trip (G1): the folder with the caller's role,
 * its breadcrumbs, a page of subfolders and a page of files (each one row more than the page, to
 * know whether there is a next one). The caller has already proved the space membership; the
 * folder query re-checks it inside the batch, so nothing leaks if it changed in between.
 */
export async function loadFolderPage(db: Database, query: FolderPageQuery) {
  const [folderRows, crumbs, subfolders, fileRows, favoriteRows] = await db.batch([
    folderWithRoleQuery(db, query.folderId, query.userId),
    breadcrumbsQuery(db, query.folderId),
    subfoldersQuery(db, query.spaceId, query.folderId, query.foldersAfter, query.limit + 1),
    filesInFolderQuery(db, query.folderId, query.sort, query.direction, query.after, query.limit + 1),
    favoriteIdsQuery(db, query.userId),
  ]);
  return { folder: folderRows[0], crumbs, subfolders, files: fileRows, favorites: favoriteRows };
}

/**
 * The folder's id and space when the caller is a member, in the same round trip as nothing else:
 * the first step of every folder page (a cheap primary-key read joined with the membership).
 */
export async function findFolderAccess(db: Database, folderId: string, userId: string) {
  return db
    .select({ spaceId: folders.spaceId, kind: folders.kind, label: folders.label, role: effectiveSpaceRole, isDataroom: isDataroomSpace })
    .from(folders)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, folders.spaceId), eq(spaceMembers.userId, userId)))
    .where(and(eq(folders.id, folderId), isNull(folders.trashedAt)))
    .get();
}

/** Files whose name contains `term` anywhere in the space (search), keyset by name. */
export async function searchFilesInSpace(db: Database, spaceId: string, term: string, after: Keyset | null, limit: number) {
  const escaped = term.replace(/[\\%_]/g, (char) => `\\${char}`);
  const conditions = [
    eq(files.spaceId, spaceId),
    isNull(files.trashedAt),
    sql`${files.name} LIKE ${`%${escaped}%`} ESCAPE '\\'`,
    keysetCondition("name", "asc", after),
  ].filter(Boolean) as SQL[];
  return db
    .select(fileListColumns)
    .from(files)
    .where(and(...conditions))
    .orderBy(asc(files.name), asc(files.id))
    .limit(limit)
    .all();
}

export async function searchFoldersInSpace(db: Database, spaceId: string, term: string, limit: number) {
  const escaped = term.replace(/[\\%_]/g, (char) => `\\${char}`);
  return db
    .select({ id: folders.id, label: folders.label, color: folders.color, icon: folders.icon, kind: folders.kind, createdAt: folders.createdAt })
    .from(folders)
    .where(
      and(
        eq(folders.spaceId, spaceId),
        isNull(folders.trashedAt),
        sql`${folders.kind} != 'root'`,
        sql`${folders.label} LIKE ${`%${escaped}%`} ESCAPE '\\'`,
      ),
    )
    .orderBy(asc(folders.label), asc(folders.id))
    .limit(limit)
    .all();
}

/**
 * Every live folder of the spaces the member belongs to (the "all folders" tree), capped; with
 * `workspace`, only the spaces of that team's workspace (its id) or of the member's own (null).
 */
export async function listAllFolders(db: Database, userId: string, limit: number, workspace?: string | null) {
  return db
    .select({
      id: folders.id,
      spaceId: folders.spaceId,
      parentId: folders.parentId,
      label: folders.label,
      color: folders.color,
      icon: folders.icon,
      kind: folders.kind,
      spaceName: spaces.name,
      spaceKind: spaces.kind,
    })
    .from(folders)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, folders.spaceId), eq(spaceMembers.userId, userId)))
    .innerJoin(spaces, eq(spaces.id, folders.spaceId))
    .where(and(isNull(folders.trashedAt), inWorkspace(spaceTeamId, userId, workspace)))
    .orderBy(asc(spaces.kind), asc(spaces.name), asc(folders.label))
    .limit(limit)
    .all();
}

/** The default inbox or outbox folders of every space the member belongs to. */
export async function listKindFolders(db: Database, userId: string, kind: "inbox" | "outbox") {
  return db
    .select({ id: folders.id, spaceId: folders.spaceId, label: folders.label, color: folders.color, icon: folders.icon, spaceName: spaces.name, spaceKind: spaces.kind })
    .from(folders)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, folders.spaceId), eq(spaceMembers.userId, userId)))
    .innerJoin(spaces, eq(spaces.id, folders.spaceId))
    .where(and(eq(folders.kind, kind), isNull(folders.trashedAt)))
    .orderBy(asc(spaces.kind), asc(spaces.name))
    .all();
}

/** Newest files across several folders (the global inbox/outbox), keyset by creation time. */
export async function listFilesInFolders(db: Database, folderIds: string[], after: Keyset | null, limit: number) {
  if (folderIds.length === 0) return [];
  return newestFiles(db, [inArray(files.folderId, folderIds)], after, limit);
}

/** Live files matching `conditions`, newest first, one keyset page. */
function newestFiles(db: Database, conditions: SQL[], after: Keyset | null, limit: number) {
  const where = [...conditions, isNull(files.trashedAt), keysetCondition("created", "desc", after)].filter(Boolean) as SQL[];
  return db
    .select(fileListColumns)
    .from(files)
    .where(and(...where))
    .orderBy(...fileOrder("created", "desc"))
    .limit(limit)
    .all();
}

export type NewFolder = { id: string; spaceId: string; parentId: string; label: string; color: string | null; icon: string | null; kind: FolderKind; userId: string; now: Date };

export async function insertFolder(db: Database, folder: NewFolder): Promise<void> {
  await db
    .insert(folders)
    .values({
      id: folder.id,
      spaceId: folder.spaceId,
      parentId: folder.parentId,
      kind: folder.kind,
      label: folder.label,
      color: folder.color,
      icon: folder.icon,
      createdBy: folder.userId,
      createdAt: folder.now,
      updatedAt: folder.now,
    })
    .run();
}

export async function updateFolderRow(db: Database, folderId: string, values: { label: string; color: string | null; icon: string | null; now: Date }) {
  await db
    .update(folders)
    .set({ label: values.label, color: values.color, icon: values.icon, updatedAt: values.now })
    .where(and(eq(folders.id, folderId), isNull(folders.trashedAt)))
    .run();
}

export async function clearFolderIcon(db: Database, folderId: string, now: Date) {
  await db
    .update(folders)
    .set({ icon: null, updatedAt: now })
    .where(and(eq(folders.id, folderId), isNull(folders.trashedAt)))
    .run();
}

/**
 * Folders and files of a space for the per-space limits (max_dataroom_folders/files). Trashed items
 * count until they are purged or permanently deleted (as their bytes count against storage).
 */
export async function countSpaceItems(db: Database, spaceId: string) {
  const [folderCount, fileCount] = await db.batch([
    db.select({ count: sql<number>`count(*)` }).from(folders).where(and(eq(folders.spaceId, spaceId), sql`${folders.kind} != 'root'`)),
    db.select({ count: sql<number>`count(*)` }).from(files).where(eq(files.spaceId, spaceId)),
  ]);
  return { folders: folderCount[0]?.count ?? 0, files: fileCount[0]?.count ?? 0 };
}

export async function findFolderByLabel(db: Database, spaceId: string, parentId: string, label: string) {
  return db
    .select()
    .from(folders)
    .where(and(eq(folders.spaceId, spaceId), eq(folders.parentId, parentId), eq(folders.label, label), isNull(folders.trashedAt)))
    .get();
}

// ---- files -------------------------------------------------------------------------------------

/** A live file with the caller's role in its space; nothing for outsiders. */
export async function findFileWithRole(db: Database, fileId: string, userId: string) {
  return db
    .select({ file: files, role: effectiveSpaceRole, isDataroom: isDataroomSpace })
    .from(files)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, files.spaceId), eq(spaceMembers.userId, userId)))
    .where(and(eq(files.id, fileId), isNull(files.trashedAt)))
    .get();
}

/** The member's PDFs in every space they belong to, newest first (a PDF to pick, as "Map fields" does). */
export async function listPdfsOfMember(db: Database, userId: string, limit: number, spaceId?: string) {
  return db
    .select({ id: files.id, name: files.name, spaceName: spaces.name })
    .from(files)
    .innerJoin(spaceMembers, and(eq(spaceMembers.spaceId, files.spaceId), eq(spaceMembers.userId, userId)))
    .innerJoin(spaces, eq(spaces.id, files.spaceId))
    .where(and(eq(files.contentType, "application/pdf"), isNull(files.trashedAt), spaceId ? eq(files.spaceId, spaceId) : undefined))
    .orderBy(desc(files.updatedAt), desc(files.id))
    .limit(limit)
    .all();
}
