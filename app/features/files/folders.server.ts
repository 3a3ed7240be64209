import type { FolderKind } from "~/db/schema";
import { assertWithinLimit } from "~/features/access/access.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { PAGE_SIZE, type FileSort, type SortDirection } from "./files.constants";
import { createFolderSchema, listQuerySchema, updateFolderSchema } from "./files.schema";
import {
  clearFolderIcon,
  findFolderWithRole,
  findRootFolder,
  insertFolder,
  listAllFolders,
  listFilesInFolders,
  listKindFolders,
  loadFolderPage,
  searchFilesInSpace,
  searchFoldersInSpace,
  updateFolderRow,
  type FileListRow,
} from "./folders.queries.server";
import { isReadOnlyRole, SPACE_RIGHTS, type EffectiveSpaceRole, type SpaceRight } from "./files.permissions";
import { spaceUsage } from "./storage.server";
import { announceFilesChanged, assertSpaceRight, canDo, decodeCursor, encodeCursor, ensurePersonalSpace, folderNotFound, requireFolderAccess } from "./spaces.server";

/** The shapes the UI and the API receive (no database types leak out, G4 keeps them small). */
export type FolderSummary = { uid: string; label: string; color: string | null; icon: string | null; kind: FolderKind };
export type FileSummary = { id: string; name: string; size: number; type: string; createdAt: number; folderId: string };
export type Crumb = { uid: string; label: string; kind: FolderKind };

export type FolderPage = {
  folder: FolderSummary & { spaceId: string; parentId: string | null };
  role: EffectiveSpaceRole;
  /** What the caller may do here: the role's rights, narrowed in a data room by their room permissions. */
  rights: SpaceRight[];
  /** The data room the folder is in (its pages live under /dataroom/{id}), or null. */
  dataroomId: string | null;
  /** May make a share link of it: `share` in a room that is not archived; the owner of personal files. */
  canShare: boolean;
  crumbs: Crumb[];
  folders: FolderSummary[];
  files: FileSummary[];
  favorites: string[];
  sort: FileSort;
  dir: SortDirection;
  query: string;
  nextCursor: string | null;
  nextFolderCursor: string | null;
};

export function toFileSummary(row: FileListRow): FileSummary {
  return { id: row.id, name: row.name, size: row.size, type: row.contentType, createdAt: row.createdAt.getTime(), folderId: row.folderId };
}

export function toFolderSummary(row: { id: string; label: string; color: string | null; icon: string | null; kind: FolderKind }): FolderSummary {
  return { uid: row.id, label: row.label, color: row.color, icon: row.icon, kind: row.kind };
}

function sortValue(row: FileListRow, sort: FileSort): string | number {
  if (sort === "name") return row.name;
  if (sort === "size") return row.size;
  return row.createdAt.getTime();
}

/** The root folder of the member's personal space ("all folders" opens it). */
export async function personalRootFolderId(ctx: ServiceContext, userId: string): Promise<string> {
  const space = await ensurePersonalSpace(ctx, userId);
  const root = await findRootFolder(ctx.db, space.id);
  if (!root) throw new AppError("INTERNAL_ERROR");
  return root.id;
}

/**
 * A folder page (G1): one membership read, then one batch with the folder, breadcrumbs, a page of
 * subfolders and a page of files. With a search term, the whole space is searched by name instead.
 */
export async function getFolderPage(ctx: ServiceContext, userId: string, folderId: string, rawQuery: unknown, inSpace?: string): Promise<FolderPage> {
  const query = parseInput(listQuerySchema, rawQuery);
  const pageQuery = (spaceId: string) => ({
    userId,
    folderId,
    spaceId,
    sort: query.sort,
    direction: query.dir,
    after: decodeCursor(query.cursor),
    foldersAfter: decodeCursor(query.fcursor),
    limit: PAGE_SIZE,
  });
  // A caller that knows the space (a room's page, whose room check passed) has the page read beside
  // the folder's own check (G3); nothing of it is returned unless that check passes in that space.
  const [access, early] = await Promise.all([requireFolderAccess(ctx, userId, folderId, "files.view"), inSpace ? loadFolderPage(ctx.db, pageQuery(inSpace)) : null]);
  if (inSpace && access.spaceId !== inSpace) throw folderNotFound();
  const page = early ?? (await loadFolderPage(ctx.db, pageQuery(access.spaceId)));
  if (!page.folder) throw folderNotFound();
  const { folder, role } = page.folder;

  let fileRows = page.files;
  let folderRows = page.subfolders;
  if (query.q) {
    [fileRows, folderRows] = await Promise.all([
      searchFilesInSpace(ctx.db, access.spaceId, query.q, decodeCursor(query.cursor), PAGE_SIZE + 1),
      query.cursor ? Promise.resolve([]) : searchFoldersInSpace(ctx.db, access.spaceId, query.q, PAGE_SIZE + 1),
    ]);
  }
  const sort = query.q ? "name" : query.sort;
  const dir = query.q ? "asc" : query.dir;
  const hasMoreFiles = fileRows.length > PAGE_SIZE;
  const hasMoreFolders = folderRows.length > PAGE_SIZE;
  const visibleFiles = fileRows.slice(0, PAGE_SIZE);
  const visibleFolders = folderRows.slice(0, PAGE_SIZE);
  const lastFile = visibleFiles.at(-1);
  const lastFolder = visibleFolders.at(-1);
  return {
    folder: { ...toFolderSummary(folder), spaceId: folder.spaceId, parentId: folder.parentId },
    role,
    rights: SPACE_RIGHTS.filter((right) => canDo(role, access.roomPermissions, right)),
    dataroomId: access.roomPermissions ? access.spaceId : null,
    canShare: access.roomPermissions ? access.roomPermissions.share && !isReadOnlyRole(role) : role === "owner",
    crumbs: page.crumbs.map((crumb) => ({ uid: crumb.id, label: crumb.label, kind: crumb.kind })),
    folders: visibleFolders.map(toFolderSummary),
    files: visibleFiles.map(toFileSummary),
    favorites: page.favorites.map((favorite) => favorite.itemId),
    sort,
    dir,
    query: query.q ?? "",
    nextCursor: hasMoreFiles && lastFile ? encodeCursor({ value: sortValue(lastFile, sort), id: lastFile.id }) : null,
    nextFolderCursor: hasMoreFolders && lastFolder && !query.q ? encodeCursor({ value: lastFolder.label, id: lastFolder.id }) : null,
  };
}

/** New folder inside a folder the caller may edit; the space's folder limit applies. */
export async function createFolder(ctx: ServiceContext, userId: string, input: unknown): Promise<FolderSummary> {
  const data = parseInput(createFolderSchema, input);
  const parent = await requireFolderAccess(ctx, userId, data.parentId, "files.edit");
  // The space owner's plan sets the limit (in a data room, the room owner's, whoever creates the folder).
  const usage = await spaceUsage(ctx, parent.spaceId);
  assertWithinLimit(usage.access, "max_dataroom_folders", usage.folderCount, 1);
  const id = crypto.randomUUID();
  await insertFolder(ctx.db, {
    id,
    spaceId: parent.spaceId,
    parentId: data.parentId,
    label: data.label,
    color: data.color,
    icon: data.icon,
    kind: data.kind,
    userId,
    now: ctx.now(),
  });
  await announceFilesChanged(ctx, [parent.spaceId], "added", { userId, events: () => [{ action: "folder.create", target: { type: "folder", id, name: data.label } }] });
  return { uid: id, label: data.label, color: data.color, icon: data.icon, kind: data.kind };
}

/** PATCH /folder/{uid} (spec §7): label, colour and icon. The root of a space cannot be edited. */
export async function updateFolder(ctx: ServiceContext, userId: string, folderId: string, input: unknown): Promise<FolderSummary> {
  const found = await findFolderWithRole(ctx.db, folderId, userId);
  if (!found) throw folderNotFound();
  await assertSpaceRight(ctx, userId, { spaceId: found.folder.spaceId, role: found.role, isDataroom: found.isDataroom }, "files.edit");
  if (found.folder.kind === "root") throw new AppError("FORBIDDEN", "The top of a space cannot be renamed.");
  const data = parseInput(updateFolderSchema, input);
  // A field left out of the body keeps its value; null or "" clears it.
  const sent = input as Record<string, unknown>;
  const color = sent.color === undefined ? found.folder.color : data.color;
  const icon = sent.icon === undefined ? found.folder.icon : data.icon;
  await updateFolderRow(ctx.db, folderId, { label: data.label, color, icon, now: ctx.now() });
  const isRenamed = data.label !== found.folder.label;
  await announceFilesChanged(ctx, [found.folder.spaceId], isRenamed ? "renamed" : "changed", {
    userId,
    events: () => [{ action: "folder.edit", target: { type: "folder", id: folderId, name: data.label }, detail: isRenamed ? `renamed from “${found.folder.label}”` : "colour or icon" }],
  });
  return { uid: folderId, label: data.label, color, icon, kind: found.folder.kind };
}

/** DELETE /folder/{uid}/delete-icon (spec §7). */
export async function removeFolderIcon(ctx: ServiceContext, userId: string, folderId: string): Promise<FolderSummary> {
  const found = await findFolderWithRole(ctx.db, folderId, userId);
  if (!found) throw folderNotFound();
  await assertSpaceRight(ctx, userId, { spaceId: found.folder.spaceId, role: found.role, isDataroom: found.isDataroom }, "files.edit");
  await clearFolderIcon(ctx.db, folderId, ctx.now());
  const { folder } = found;
  return { uid: folder.id, label: folder.label, color: folder.color, icon: null, kind: folder.kind };
}

/** Spec §3 "Folder" for /api/user/default-folders: the member's default inbox and outbox. */
export async function listDefaultFolders(ctx: ServiceContext, userId: string) {
  const space = await ensurePersonalSpace(ctx, userId);
  const [inboxes, outboxes] = await Promise.all([listKindFolders(ctx.db, userId, "inbox"), listKindFolders(ctx.db, userId, "outbox")]);
  return [...inboxes, ...outboxes]
    .filter((folder) => folder.spaceId === space.id)
    .map((folder) => ({ uid: folder.id, label: folder.label, color: folder.color ?? "", icon: folder.icon }));
}

/** The member's own default inbox or outbox folder id. */
export async function defaultFolderId(ctx: ServiceContext, userId: string, kind: "inbox" | "outbox"): Promise<string> {
  const space = await ensurePersonalSpace(ctx, userId);
  const folders = await listKindFolders(ctx.db, userId, kind);
  const own = folders.find((folder) => folder.spaceId === space.id);
  if (!own) throw new AppError("INTERNAL_ERROR");
  return own.id;
}

export type GlobalBoxPage = {
  kind: "inbox" | "outbox";
  sources: { uid: string; label: string; spaceName: string; spaceKind: string }[];
  files: (FileSummary & { source: string })[];
  nextCursor: string | null;
};

/**
 * The global inbox or outbox: the newest files of the inbox (outbox) folders of every space the
 * member belongs to, one keyset-paginated list.
 */
export async function getGlobalBox(ctx: ServiceContext, userId: string, kind: "inbox" | "outbox", cursor: string | undefined): Promise<GlobalBoxPage> {
  await ensurePersonalSpace(ctx, userId);
  const sources = await listKindFolders(ctx.db, userId, kind);
  const rows = await listFilesInFolders(
    ctx.db,
    sources.map((source) => source.id),
    decodeCursor(cursor),
    PAGE_SIZE + 1,
  );
  const visible = rows.slice(0, PAGE_SIZE);
  const last = visible.at(-1);
  const labelOf = new Map(sources.map((source) => [source.id, source.spaceName]));
  return {
    kind,
    sources: sources.map((source) => ({ uid: source.id, label: source.label, spaceName: source.spaceName, spaceKind: source.spaceKind })),
    files: visible.map((row) => ({ ...toFileSummary(row), source: labelOf.get(row.folderId) ?? "" })),
    nextCursor: rows.length > PAGE_SIZE && last ? encodeCursor({ value: last.createdAt.getTime(), id: last.id }) : null,
  };
}

export type FolderTreeNode = FolderSummary & { spaceId: string; parentId: string | null; children: FolderTreeNode[] };
export type FolderTree = { spaceId: string; spaceName: string; spaceKind: string; rootUid: string; children: FolderTreeNode[] }[];

/**
 * "All folders": every space the member belongs to, as a tree (capped at 2,000 folders); with
 * `workspace`, those of one workspace (a team's id: its drive and rooms; null: the member's own).
 */
export async function getAllFolders(ctx: ServiceContext, userId: string, workspace?: string | null): Promise<FolderTree> {
  if (!workspace) await ensurePersonalSpace(ctx, userId);
  const rows = await listAllFolders(ctx.db, userId, 2_000, workspace);
  const nodes = new Map<string, FolderTreeNode>();
  for (const row of rows) nodes.set(row.id, { ...toFolderSummary(row), spaceId: row.spaceId, parentId: row.parentId, children: [] });
  const trees: FolderTree = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    if (row.kind === "root") {
      trees.push({ spaceId: row.spaceId, spaceName: row.spaceName, spaceKind: row.spaceKind, rootUid: row.id, children: node.children });
      continue;
    }
    if (row.parentId) nodes.get(row.parentId)?.children.push(node);
  }
  return trees;
}
