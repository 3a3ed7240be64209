import { requestContentIndexing } from "~/features/search/search.jobs";
import { z } from "zod";
import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { METADATA_KEY_MAX, METADATA_VALUE_MAX, PAGE_SIZE } from "./files.constants";
import { ROLE_RIGHTS, type EffectiveSpaceRole } from "./files.permissions";
import type { FolderKind } from "~/db/schema";
import { listAllFolders, listMemberSpaces } from "./folders.queries.server";
import { personalRootFolderId } from "./folders.server";
import {
  deleteFavorite,
  fileNameTaken,
  insertFavorite,
  insertFileRow,
  listDuplicateFiles,
  listDuplicateGroups,
  listFavoriteItems,
  listFilesWithMetadata,
  listFilesWithTag,
  listMetadataKeyCounts,
  listMetadataValueCounts,
  listRecentFiles,
  listSpaceRecentFiles,
  listTagCounts,
  listTemplates,
  loadFileExtrasRows,
  replaceFileMetadata,
  replaceFileTags,
  updateTemplateFlag,
  type DuplicateKeyset,
  type OrganizedFileRow,
} from "./organize.queries.server";
import {
  copyTemplateSchema,
  documentNameFor,
  favoriteTargetSchema,
  parseTagFilter,
  setMetadataSchema,
  setTagsSchema,
  setTemplateSchema,
  type FavoriteItemType,
} from "./organize.schema";
import { newObjectKey, putStoredStream, readStoredObject, sealsObjects } from "./encryption.server";
import { assertUploadFits, spaceUsage } from "./storage.server";
import { decodeCursor, encodeCursor, fileNotFound, requireFileAccess, requireFolderAccess } from "./spaces.server";
import { requestDerivatives } from "~/features/galleries/galleries.jobs";

/**
 * Favorites, tags, metadata, duplicates, recent uploads and document templates, for every space
 * the member belongs to (data rooms reuse the same services per space). Favorites are personal:
 * anyone who may see an item may star it, viewers included. Tags, metadata and the template flag
 * change the file for everyone, so they need the edit right; tags and metadata also need the
 * `basic_editing` feature and duplicates `advanced_features`.
 */

/** The favourites page shows at most this many folders and this many files (newest first). */
export const FAVORITES_LIST_MAX = 500;
/** The tags page lists at most this many distinct tags. */
export const TAG_LIST_MAX = 1_000;
/** Duplicate groups per page, and files shown per group. */
export const DUPLICATE_GROUPS_PAGE = 50;
export const DUPLICATE_FILES_PER_GROUP = 20;

// ---- shapes the UI and the API receive -----------------------------------------------------------

export type FileExtras = {
  favorite: boolean;
  isTemplate: boolean;
  tags: string[];
  metadata: { key: string; value: string }[];
  /** Other live files with the same content in the same space; null while the file is not hashed. */
  duplicateCount?: number | null;
};

export type OrganizedFile = {
  id: string;
  name: string;
  size: number;
  type: string;
  createdAt: number;
  folder: { uid: string; label: string; kind: string };
  space: { id: string; name: string };
};

function toOrganizedFile(row: OrganizedFileRow): OrganizedFile {
  return {
    id: row.id,
    name: row.name,
    size: row.size,
    type: row.contentType,
    createdAt: row.createdAt.getTime(),
    folder: { uid: row.folderId, label: row.folderLabel, kind: row.folderKind },
    space: { id: row.spaceId, name: row.spaceName },
  };
}

/** Keyset pages read one row more than they show, to know whether there is a next page. */
function paginate<Row>(rows: Row[], limit: number, keyOf: (row: Row) => string) {
  const visible = rows.slice(0, limit);
  const last = visible.at(-1);
  return { visible, nextCursor: rows.length > limit && last ? keyOf(last) : null };
}

const cursorSchema = z.object({ cursor: z.string().max(1_200).optional().catch(undefined) });

// ---- the file details panel ------------------------------------------------------------------

/** The details panel's data for a live file the caller can see (404 otherwise), in one round trip. */
export async function loadFileExtras(ctx: ServiceContext, userId: string, fileId: string): Promise<FileExtras> {
  const rows = await loadFileExtrasRows(ctx.db, fileId, userId);
  if (!rows.file) throw fileNotFound();
  return {
    favorite: rows.isFavorite,
    isTemplate: rows.file.isTemplate,
    tags: rows.tags,
    metadata: rows.metadata,
    duplicateCount: rows.file.sha256 ? rows.duplicateCount : null,
  };
}

// ---- favorites -------------------------------------------------------------------------------

/** The item must be visible to the caller (404 otherwise, nothing written). */
async function requireVisibleItem(ctx: ServiceContext, userId: string, itemType: FavoriteItemType, itemId: string) {
  if (itemType === "file") await requireFileAccess(ctx, userId, itemId, "files.view");
  else await requireFolderAccess(ctx, userId, itemId, "files.view");
}

/** PUT/DELETE /api/organize/favorites/:type/:id (idempotent both ways). */
export async function setFavorite(ctx: ServiceContext, userId: string, rawTarget: unknown, isFavorite: boolean) {
  const target = parseInput(favoriteTargetSchema, rawTarget);
  await requireVisibleItem(ctx, userId, target.type, target.id);
  if (isFavorite) await insertFavorite(ctx.db, { userId, itemType: target.type, itemId: target.id, now: ctx.now() });
  else await deleteFavorite(ctx.db, userId, target.type, target.id);
  return { type: target.type, id: target.id, favorite: isFavorite };
}

export type FavoriteFolder = { uid: string; label: string; color: string | null; icon: string | null; kind: FolderKind; spaceName: string };
export type FavoritesPage = { folders: FavoriteFolder[]; files: OrganizedFile[]; limit: number };

/** The caller's favourite folders and files that are still there and still theirs to see. */
export async function listFavorites(ctx: ServiceContext, userId: string): Promise<FavoritesPage> {
  const rows = await listFavoriteItems(ctx.db, userId, FAVORITES_LIST_MAX);
  return {
    folders: rows.folders.map((row) => ({ uid: row.id, label: row.label, color: row.color, icon: row.icon, kind: row.kind, spaceName: row.spaceName })),
    files: rows.files.map(toOrganizedFile),
    limit: FAVORITES_LIST_MAX,
  };
}

// ---- tags and metadata -----------------------------------------------------------------------

/** A change to a file's tags or metadata: 404 outsider, 403 without the edit right or the plan. */
async function requireOrganizableFile(ctx: ServiceContext, userId: string, fileId: string) {
  const found = await requireFileAccess(ctx, userId, fileId, "files.edit");
  requireFeature(await loadMemberAccess(ctx, userId), "basic_editing");
  return found.file;
}

/** PUT /api/organize/files/:id/tags: the file's whole set of tags, normalised. */
export async function setFileTags(ctx: ServiceContext, userId: string, fileId: string, input: unknown): Promise<{ tags: string[] }> {
  const file = await requireOrganizableFile(ctx, userId, fileId);
  const { tags } = parseInput(setTagsSchema, input);
  const sorted = [...tags].sort();
  await replaceFileTags(ctx.db, { fileId, spaceId: file.spaceId, tags: sorted, now: ctx.now() });
  return { tags: sorted };
}

/** PUT /api/organize/files/:id/metadata: replaces the file's key/value set with the one sent. */
export async function setFileMetadata(ctx: ServiceContext, userId: string, fileId: string, input: unknown) {
  await requireOrganizableFile(ctx, userId, fileId);
  const { entries } = parseInput(setMetadataSchema, input);
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  await replaceFileMetadata(ctx.db, { fileId, entries: sorted, now: ctx.now() });
  return { metadata: sorted };
}

export type TagIndex = {
  tags: { tag: string; count: number }[];
  /** The tag whose files are listed, or null for the overview. */
  tag: string | null;
  files: OrganizedFile[];
  nextCursor: string | null;
};

const tagQuerySchema = cursorSchema.extend({ tag: z.string().max(200).optional().catch(undefined) });

/**
 * Every tag with its count; with ?tag=, the files carrying it (keyset by name). `spaceId` keeps it
 * to one space (a data room's tags page; the caller has checked the room).
 */
export async function getTagIndex(ctx: ServiceContext, userId: string, rawQuery: unknown, spaceId?: string): Promise<TagIndex> {
  const query = parseInput(tagQuerySchema, rawQuery);
  // An empty ?tag= is the overview; anything else must be a tag (after normalising).
  const wanted = query.tag?.trim() ? query.tag : undefined;
  const tag = wanted === undefined ? null : parseTagFilter(wanted);
  if (wanted !== undefined && tag === null) throw new AppError("VALIDATION_ERROR", "tag: That is not a valid tag.");
  const [tags, rows] = await Promise.all([
    listTagCounts(ctx.db, userId, TAG_LIST_MAX, spaceId),
    tag ? listFilesWithTag(ctx.db, userId, tag, decodeCursor(query.cursor), PAGE_SIZE + 1, spaceId) : Promise.resolve([]),
  ]);
  const page = paginate(rows, PAGE_SIZE, (row) => encodeCursor({ value: row.name, id: row.id }));
  return { tags, tag, files: page.visible.map(toOrganizedFile), nextCursor: page.nextCursor };
}

export type MetadataIndex = {
  keys: { key: string; files: number; values: number }[];
  /** The key whose files are listed (null for the overview), its most used values, and the value chosen (or null for any). */
  key: string | null;
  values: { value: string; files: number }[];
  value: string | null;
  files: (OrganizedFile & { value: string })[];
  nextCursor: string | null;
};

/** A metadata index lists at most this many keys and, for a key, this many of its most used values. */
export const METADATA_KEYS_LIST_MAX = 500;
export const METADATA_VALUES_LIST_MAX = 50;

const metadataQuerySchema = cursorSchema.extend({
  key: z.string().max(200).optional().catch(undefined),
  value: z.string().max(METADATA_VALUE_MAX + 10).optional().catch(undefined),
});

/**
 * One space's metadata (a data room's metadata page; the caller has checked the room): every key
 * with the number of files carrying it and of its different values; with ?key=, its most used
 * values and the files carrying it with their value (keyset by name), narrowed by ?value=.
 */
export async function getMetadataIndex(ctx: ServiceContext, userId: string, spaceId: string, rawQuery: unknown): Promise<MetadataIndex> {
  const query = parseInput(metadataQuerySchema, rawQuery);
  const key = query.key?.trim() ? query.key.trim() : null;
  if (key !== null && key.length > METADATA_KEY_MAX) throw new AppError("VALIDATION_ERROR", `key: A metadata key is at most ${METADATA_KEY_MAX} characters.`);
  const value = key !== null && query.value !== undefined && query.value !== "" ? query.value : null;
  const [keys, values, rows] = await Promise.all([
    listMetadataKeyCounts(ctx.db, userId, spaceId, METADATA_KEYS_LIST_MAX),
    key ? listMetadataValueCounts(ctx.db, spaceId, key, METADATA_VALUES_LIST_MAX) : Promise.resolve([]),
    key ? listFilesWithMetadata(ctx.db, userId, spaceId, { key, value }, decodeCursor(query.cursor), PAGE_SIZE + 1) : Promise.resolve([]),
  ]);
  const page = paginate(rows, PAGE_SIZE, (row) => encodeCursor({ value: row.name, id: row.id }));
  return {
    keys: keys.map((row) => ({ key: row.key, files: Number(row.files), values: Number(row.values) })),
    key,
    values: values.map((row) => ({ value: row.value, files: Number(row.files) })),
    value,
    files: page.visible.map((row) => ({ ...toOrganizedFile(row), value: row.value })),
    nextCursor: page.nextCursor,
  };
}

// ---- document templates ----------------------------------------------------------------------

/** PUT /api/organize/files/:id/template: marks or unmarks a file as a document template. */
export async function setFileTemplate(ctx: ServiceContext, userId: string, fileId: string, input: unknown) {
  await requireFileAccess(ctx, userId, fileId, "files.edit");
  const { isTemplate } = parseInput(setTemplateSchema, input);
  await updateTemplateFlag(ctx.db, fileId, isTemplate, ctx.now());
  return { isTemplate };
}

export type UploadTarget = { uid: string; label: string; spaceName: string };
export type TemplatesPage = {
  templates: OrganizedFile[];
  nextCursor: string | null;
  /** Folders the member may upload to (the "Use template" destinations), the personal root first. */
  destinations: UploadTarget[];
  defaultFolderId: string;
};

/** Folders of every space where the member may upload, labelled with their path ("Reports / 2026"). */
/** Every folder the member may upload into (across their spaces), `rootId` first, then by space and path. */
export async function listUploadTargets(ctx: ServiceContext, userId: string, rootId: string): Promise<UploadTarget[]> {
  const [rows, roles] = await Promise.all([listAllFolders(ctx.db, userId, 2_000), memberRoles(ctx, userId)]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const pathOf = (id: string): string => {
    const labels: string[] = [];
    for (let current = byId.get(id), depth = 0; current && current.kind !== "root" && depth < 64; current = current.parentId ? byId.get(current.parentId) : undefined, depth++) {
      labels.unshift(current.label);
    }
    return labels.join(" / ");
  };
  const targets = rows
    .filter((row) => ROLE_RIGHTS[roles.get(row.spaceId) ?? "viewer"].includes("files.upload"))
    .map((row) => ({ uid: row.id, label: row.kind === "root" ? `${row.spaceName} (top level)` : pathOf(row.id), spaceName: row.spaceName }));
  return targets.sort((a, b) => (a.uid === rootId ? -1 : b.uid === rootId ? 1 : a.spaceName.localeCompare(b.spaceName) || a.label.localeCompare(b.label)));
}

async function memberRoles(ctx: ServiceContext, userId: string): Promise<Map<string, EffectiveSpaceRole>> {
  const spaces = await listMemberSpaces(ctx.db, userId);
  return new Map(spaces.map((space) => [space.id, space.role]));
}

/** The templates of the member's spaces (keyset by name) and where a new document may go. */
export async function getTemplates(ctx: ServiceContext, userId: string, rawQuery: unknown, workspace?: { teamId: string | null; rootFolderId: string | null }): Promise<TemplatesPage> {
  const query = parseInput(cursorSchema, rawQuery);
  // In a team's workspace (issue 42): its templates, and a new document goes to its drive when the member may add to it.
  const defaultFolderId = workspace?.rootFolderId ?? (await personalRootFolderId(ctx, userId));
  const [rows, destinations] = await Promise.all([
    listTemplates(ctx.db, userId, decodeCursor(query.cursor), PAGE_SIZE + 1, workspace ? workspace.teamId : undefined),
    listUploadTargets(ctx, userId, defaultFolderId),
  ]);
  const page = paginate(rows, PAGE_SIZE, (row) => encodeCursor({ value: row.name, id: row.id }));
  return { templates: page.visible.map(toOrganizedFile), nextCursor: page.nextCursor, destinations, defaultFolderId };
}

export type CopiedDocument = { id: string; name: string; size: number; type: string; folderId: string };

/**
 * POST /api/organize/templates/:id/copy: a new, independent document from a template. The bytes
 * are copied to a new generated key (S14) as a stream of known length, so the copy survives the
 * template being changed or deleted; the quota of the destination space is checked first
 * (storage.server.ts: the space owner's plan, counting live and trashed files, versions and uploads).
 */
export async function copyTemplate(ctx: ServiceContext, userId: string, templateId: string, input: unknown): Promise<CopiedDocument> {
  const data = parseInput(copyTemplateSchema, input);
  const { file: template } = await requireFileAccess(ctx, userId, templateId, "files.download");
  if (!template.isTemplate) throw new AppError("NOT_FOUND", "This document template does not exist or you don't have access to it.");
  const target = await requireFolderAccess(ctx, userId, data.folderId, "files.upload");
  const name = documentNameFor(data.name, template.name);
  if (await fileNameTaken(ctx.db, data.folderId, name)) {
    throw new AppError("VALIDATION_ERROR", `name: A file named "${name}" is already in that folder. Choose another name.`, {
      fieldErrors: { name: [`A file named "${name}" is already in that folder.`] },
    });
  }
  // The destination space's quota (its owner's plan): bytes and one more file.
  const usage = await spaceUsage(ctx, target.spaceId);
  assertUploadFits(usage, name, template.size, { isNewFile: true });

  const source = await readStoredObject(ctx, template.r2Key, template.size);
  if (!source) {
    ctx.logger.error("template object missing", { fileId: template.id });
    throw new AppError("NOT_FOUND", "This template's content is missing. Upload it again.");
  }
  const id = crypto.randomUUID();
  // Opened from its own space's seal (if any) and sealed for the destination's (ADR 021).
  const r2Key = newObjectKey("files", target.spaceId, sealsObjects(target.roomPermissions !== null, usage.access));
  await putStoredStream(ctx, r2Key, template.size, source, { httpMetadata: { contentType: template.contentType } });
  const now = ctx.now();
  try {
    await insertFileRow(ctx.db, {
      id,
      spaceId: target.spaceId,
      folderId: data.folderId,
      name,
      size: template.size,
      contentType: template.contentType,
      sha256: template.sha256,
      r2Key,
      uploadedBy: userId,
      isTemplate: false,
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    // No row points at the object: remove it so nothing is left behind, then report the failure.
    await ctx.env.FILES.delete(r2Key);
    throw error;
  }
  await requestContentIndexing(ctx, id, r2Key);
  await requestDerivatives(ctx, { id, contentType: template.contentType }, r2Key);
  ctx.logger.info("document created from template", { templateId: template.id, fileId: id, spaceId: target.spaceId, size: template.size });
  return { id, name, size: template.size, type: template.contentType, folderId: data.folderId };
}

// ---- recent uploads --------------------------------------------------------------------------

export type RecentPage = { files: OrganizedFile[]; nextCursor: string | null };

/** The newest files across the member's spaces (keyset by created_at, id). */
export async function getRecentUploads(ctx: ServiceContext, userId: string, rawQuery: unknown, workspace?: string | null): Promise<RecentPage> {
  const query = parseInput(cursorSchema, rawQuery);
  const after = decodeCursor(query.cursor);
  const rows = await listRecentFiles(ctx.db, userId, after && typeof after.value === "number" ? after : null, PAGE_SIZE + 1, workspace);
  const page = paginate(rows, PAGE_SIZE, (row) => encodeCursor({ value: row.createdAt.getTime(), id: row.id }));
  return { files: page.visible.map(toOrganizedFile), nextCursor: page.nextCursor };
}

export type SpaceRecentPage = { files: (OrganizedFile & { uploaderName: string | null })[]; nextCursor: string | null };

/**
 * The newest files of one space with who uploaded each (a data room's recent uploads page). The
 * caller has already checked the member may see the space.
 */
export async function getSpaceRecentUploads(ctx: ServiceContext, spaceId: string, rawQuery: unknown): Promise<SpaceRecentPage> {
  const query = parseInput(cursorSchema, rawQuery);
  const after = decodeCursor(query.cursor);
  const rows = await listSpaceRecentFiles(ctx.db, spaceId, after && typeof after.value === "number" ? after : null, PAGE_SIZE + 1);
  const page = paginate(rows, PAGE_SIZE, (row) => encodeCursor({ value: row.createdAt.getTime(), id: row.id }));
  return { files: page.visible.map((row) => ({ ...toOrganizedFile(row), uploaderName: row.uploaderName })), nextCursor: page.nextCursor };
}

// ---- duplicates ------------------------------------------------------------------------------

export type DuplicateGroup = {
  sha256: string;
  space: { id: string; name: string };
  copies: number;
  size: number;
  /** Bytes freed by keeping one copy. */
  reclaimable: number;
  files: OrganizedFile[];
};
export type DuplicatesPage = {
  summary: { groups: number; files: number; reclaimable: number };
  groups: DuplicateGroup[];
  nextCursor: string | null;
};

const DUPLICATE_CURSOR = /^(\d{1,16}):([0-9a-f]{64}):([A-Za-z0-9_-]{1,64})$/;

function decodeDuplicateCursor(cursor: string | undefined): DuplicateKeyset | null {
  const match = cursor ? DUPLICATE_CURSOR.exec(cursor) : null;
  return match ? { wasted: Number(match[1]), sha256: match[2]!, spaceId: match[3]! } : null;
}

/**
 * Groups of live files with the same SHA-256 within a space, the largest saving first (Pro and up:
 * the caller's plan across their spaces; with `room`, only that room, on its owner's plan, which
 * the room's service has checked).
 */
export async function getDuplicates(ctx: ServiceContext, userId: string, rawQuery: unknown, room?: { spaceId: string }): Promise<DuplicatesPage> {
  if (!room) requireFeature(await loadMemberAccess(ctx, userId), "advanced_features");
  const spaceId = room?.spaceId;
  const query = parseInput(cursorSchema, rawQuery);
  const { summary, groups } = await listDuplicateGroups(ctx.db, userId, decodeDuplicateCursor(query.cursor), DUPLICATE_GROUPS_PAGE + 1, spaceId);
  const page = paginate(groups, DUPLICATE_GROUPS_PAGE, (group) => `${group.wasted}:${group.sha256}:${group.spaceId}`);
  const fileRows = await listDuplicateFiles(
    ctx.db,
    userId,
    [...new Set(page.visible.map((group) => group.sha256))],
    DUPLICATE_FILES_PER_GROUP,
    spaceId,
  );
  const filesByGroup = new Map<string, OrganizedFile[]>();
  for (const row of fileRows) {
    const key = `${row.spaceId}:${row.sha256}`;
    const list = filesByGroup.get(key) ?? [];
    list.push(toOrganizedFile(row));
    filesByGroup.set(key, list);
  }
  return {
    summary: { groups: summary.groups, files: summary.files, reclaimable: summary.wasted },
    groups: page.visible.map((group) => ({
      sha256: group.sha256,
      space: { id: group.spaceId, name: group.spaceName },
      copies: group.copies,
      size: group.size,
      reclaimable: group.wasted,
      files: filesByGroup.get(`${group.spaceId}:${group.sha256}`) ?? [],
    })),
    nextCursor: page.nextCursor,
  };
}
