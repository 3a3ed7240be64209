import { reapplyPlanLimitsForSpaces } from "~/features/billing/plan-limits.server";
import type { SQL } from "drizzle-orm";
import type { SpaceRole } from "~/db/schema";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { FOLDER_LABEL_MAX, PAGE_SIZE, TRASH_RETENTION_MS } from "./files.constants";
import { ROLE_RIGHTS } from "./files.permissions";
import { findFolderByLabel, findRootFolder, insertFolder } from "./folders.queries.server";
import { announceFilesChanged, assertRight, assertSpaceRight, decodeCursor, encodeCursor } from "./spaces.server";
import { freeNames } from "./free-names.server";
import { nameWithSuffix } from "./item-names";
import { daysLeftInTrash, RESTORED_SUFFIX, type ItemRef, type ItemType } from "./trash.constants";
import {
  deletePendingDeletions,
  deleteTrashGroups,
  findExpiredTrashRoots,
  findItemsWithRole,
  findKeysInUse,
  findLiveFolderSpace,
  listPendingDeletions,
  listTrashRoots,
  loadChainsAndProtected,
  markTrashed,
  restoreGroups,
  trashStatements,
  type ChainRow,
  type ItemAccessRow,
  type RestoreMove,
} from "./trash.queries.server";
import { deleteItemsSchema, restoreItemsSchema, trashQuerySchema } from "./trash.schema";
import { abortExpiredUploads } from "./uploads.server";
import { purgeExpiredDatarooms } from "~/features/datarooms/datarooms.server";
import type { AuditEvent } from "~/features/datarooms/audit-record.server";
import { deleteWithDerived } from "./derived-objects";

/**
 * Delete, trash, restore and the purge (spec §2 "Delete dialog", §9 "Deleted items can be
 * restored from trash for 30 days", QUALITY S26).
 *
 * - Deleting moves the item to the trash; a folder takes its whole live subtree with it (same
 *   `trashed_at`, `trash_root_id` = the folder). The trash lists only what the member deleted.
 * - Restoring puts the item back in its original folder when that folder is live; otherwise the
 *   folder path it had (labels from the space root) is found or recreated. A name already taken
 *   there gets " (restored)" (files: before the extension), then " (restored 2)", and so on.
 * - Deleting for good, and the nightly purge 30 days later, delete the D1 rows first (recording
 *   the R2 keys in r2_deletions in the same batch), then the R2 objects, then those records: a
 *   crash anywhere leaves the work to the next purge, and every step can run twice.
 */

/** Roles that may delete and restore (the trash lists the spaces where the member has them). */
const DELETING_ROLES = (Object.keys(ROLE_RIGHTS) as SpaceRole[]).filter((role) => ROLE_RIGHTS[role].includes("files.delete"));

/** R2's `delete()` takes at most 1,000 keys per call. */
export const R2_DELETE_BATCH = 1_000;
/** Trash groups per purge batch; each batch is a handful of set-based statements. */
export const PURGE_GROUPS_PER_BATCH = 50;
/** One run does at most this many batches (the next night continues), staying inside the Worker's limits. */
export const PURGE_MAX_BATCHES = 40;
export const DRAIN_MAX_ROUNDS = 40;

const PROTECTED_MESSAGE = "The Inbox, the Outbox and the top folder of a space cannot be deleted.";

function itemNotFound(type: ItemType) {
  return new AppError("NOT_FOUND", `This ${type} does not exist or you don't have access to it.`);
}

function byRef(rows: ItemAccessRow[]) {
  return new Map(rows.map((row) => [`${row.type}:${row.id}`, row]));
}

/**
 * The named items with the caller's role, all or nothing: one unknown item, or one in a space the
 * caller does not belong to, is a 404 for the whole call (nothing changes); one where the caller
 * may not delete is a 403.
 */
async function loadItems(ctx: ServiceContext, userId: string, refs: ItemRef[]): Promise<ItemAccessRow[]> {
  const fileIds = refs.filter((ref) => ref.type === "file").map((ref) => ref.id);
  const folderIds = refs.filter((ref) => ref.type === "folder").map((ref) => ref.id);
  const found = byRef(await findItemsWithRole(ctx.db, userId, fileIds, folderIds));
  const rows = refs.map((ref) => found.get(`${ref.type}:${ref.id}`));
  refs.forEach((ref, index) => {
    if (!rows[index]) throw itemNotFound(ref.type);
  });
  const present = rows as ItemAccessRow[];
  // One check per space (in a data room, one call to its authority).
  const bySpace = new Map(present.map((row) => [row.spaceId, row.role]));
  for (const [spaceId, role] of bySpace) await assertSpaceRight(ctx, userId, { spaceId, role }, "files.delete");
  for (const row of present) assertRight(row.role, "files.delete");
  return present;
}

function quoted(row: ItemAccessRow): string {
  return `“${row.name}”`;
}

/** A trashed item that went with a deleted folder: only the folder can be restored or deleted. */
function wentWithFolder(row: ItemAccessRow) {
  return new AppError("CONFLICT", `${quoted(row)} was deleted together with its folder. Restore or delete that folder instead.`);
}

function parsePath(text: string | null): string[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((label): label is string => typeof label === "string" && label.length > 0) : [];
  } catch {
    return [];
  }
}

/** Each start folder's labels from just below the space root down to the folder itself, and its ancestor ids. */
function indexChains(chains: ChainRow[]) {
  const byStart = new Map<string, ChainRow[]>();
  for (const row of chains) {
    const list = byStart.get(row.start) ?? [];
    list.push(row);
    byStart.set(row.start, list);
  }
  const result = new Map<string, { path: string[]; ids: Set<string> }>();
  for (const [start, rows] of byStart) {
    rows.sort((a, b) => b.depth - a.depth);
    result.set(start, { path: rows.filter((row) => row.kind !== "root").map((row) => row.label), ids: new Set(rows.map((row) => row.id)) });
  }
  return result;
}

export type DeleteResult = { deleted: number; permanent: boolean };

/**
 * POST /api/items/delete. Live items go to the trash, or straight out with `permanent`; items
 * already in the trash can only be deleted for good (the trash page's "Permanently Delete").
 */
export async function deleteItems(ctx: ServiceContext, userId: string, input: unknown): Promise<DeleteResult> {
  return deleteItemRefs(ctx, userId, parseInput(deleteItemsSchema, input));
}

/** The delete itself, for items already validated (distinct refs): the API's call, or a batch operation's chunks. */
export async function deleteItemRefs(ctx: ServiceContext, userId: string, data: { items: ItemRef[]; permanent: boolean }): Promise<DeleteResult> {
  const rows = await loadItems(ctx, userId, data.items);

  for (const row of rows) {
    if (row.type === "folder" && (row.kind === "root" || row.kind === "inbox" || row.kind === "outbox")) {
      throw new AppError("FORBIDDEN", PROTECTED_MESSAGE);
    }
    if (row.trashedAt !== null && row.trashRootId !== row.id) throw wentWithFolder(row);
    if (row.trashedAt !== null && !data.permanent) {
      throw new AppError("CONFLICT", `${quoted(row)} is already in the trash.`);
    }
  }

  const live = rows.filter((row) => row.trashedAt === null);
  const trashed = rows.filter((row) => row.trashedAt !== null);
  const now = ctx.now();

  let statements: SQL[] = [];
  let liveRoots: ItemAccessRow[] = [];
  if (live.length > 0) {
    const liveFolderIds = live.filter((row) => row.type === "folder").map((row) => row.id);
    const parentIds = [...new Set(live.map((row) => row.parentId).filter((id): id is string => id !== null))];
    const { chains, protectedFolder } = await loadChainsAndProtected(ctx.db, parentIds, liveFolderIds);
    if (protectedFolder) throw new AppError("FORBIDDEN", PROTECTED_MESSAGE);
    const chainOf = indexChains(chains);
    const selectedFolders = new Set(liveFolderIds);
    // An item inside a selected folder goes with that folder (it is not a trash entry of its own).
    liveRoots = live.filter((row) => {
      const ancestors = row.parentId ? chainOf.get(row.parentId)?.ids : undefined;
      return ![...(ancestors ?? [])].some((id) => selectedFolders.has(id));
    });
    const paths = Object.fromEntries(liveRoots.map((row) => [row.id, row.parentId ? (chainOf.get(row.parentId)?.path ?? []) : []]));
    statements = trashStatements({
      folderRootIds: liveRoots.filter((row) => row.type === "folder").map((row) => row.id),
      fileRootIds: liveRoots.filter((row) => row.type === "file").map((row) => row.id),
      paths,
      userId,
      now,
    });
  }

  if (!data.permanent) {
    if (statements.length > 0) await markTrashed(ctx.db, statements);
    ctx.logger.info("items moved to the trash", { userId, items: rows.length, roots: liveRoots.length });
    await announceFilesChanged(ctx, rows.map((row) => row.spaceId), "removed", { userId, events: (spaceId) => itemEvents("items.delete", rows, spaceId, "to the trash") });
    // A space read-only over its plan may fit now.
    await reapplyPlanLimitsForSpaces(ctx, rows.map((row) => row.spaceId));
    return { deleted: rows.length, permanent: false };
  }

  const rootIds = [...liveRoots, ...trashed].map((row) => row.id);
  const keys = await deleteTrashGroups(ctx.db, rootIds, now, statements);
  await removeObjects(ctx, keys);
  ctx.logger.info("items deleted permanently", { userId, items: rows.length, objects: keys.length });
  await announceFilesChanged(ctx, rows.map((row) => row.spaceId), "removed", { userId, events: (spaceId) => itemEvents("items.delete", rows, spaceId, "for good") });
  await reapplyPlanLimitsForSpaces(ctx, rows.map((row) => row.spaceId));
  return { deleted: rows.length, permanent: true };
}

/** One audit entry per item of a room (deleted or restored), named as it was. */
function itemEvents(action: "items.delete" | "items.restore", rows: ItemAccessRow[], spaceId: string, detail: string | null): AuditEvent[] {
  return rows.filter((row) => row.spaceId === spaceId).map((row) => ({ action, target: { type: row.type, id: row.id, name: row.name }, detail }));
}

// ---- restore -----------------------------------------------------------------------------------

/** "report.pdf" → "report (restored).pdf", "Reports" → "Reports (restored 2)"; kept within the length limit. */
export function restoredName(name: string, type: ItemType, attempt: number): string {
  if (attempt === 0) return name;
  return nameWithSuffix(name, type, attempt === 1 ? RESTORED_SUFFIX : `${RESTORED_SUFFIX.slice(0, -1)} ${attempt})`);
}

type RestoreState = {
  roots: Map<string, string>;
  /** `${parentId}/${label}` → folder id, for paths found or recreated during this call. */
  pathFolders: Map<string, string>;
  /** `${type}:${parentId}` → names handed out during this call. */
  claimed: Map<string, Set<string>>;
};

async function spaceRootId(ctx: ServiceContext, spaceId: string, state: RestoreState): Promise<string> {
  const cached = state.roots.get(spaceId);
  if (cached) return cached;
  const root = await findRootFolder(ctx.db, spaceId);
  if (!root) throw new AppError("INTERNAL_ERROR");
  state.roots.set(spaceId, root.id);
  return root.id;
}

/**
 * Where a trash root goes back to: its original folder while that is live, otherwise its original
 * path from the space root, each folder found by label or created again (as a regular folder).
 */
async function restoreParent(ctx: ServiceContext, userId: string, row: ItemAccessRow, state: RestoreState): Promise<string> {
  if (row.originalParentId) {
    const spaceId = await findLiveFolderSpace(ctx.db, row.originalParentId);
    if (spaceId === row.spaceId) return row.originalParentId;
  }
  let parentId = await spaceRootId(ctx, row.spaceId, state);
  for (const rawLabel of parsePath(row.originalPath)) {
    const label = rawLabel.slice(0, FOLDER_LABEL_MAX);
    const key = `${parentId}/${label}`;
    const known = state.pathFolders.get(key);
    if (known) {
      parentId = known;
      continue;
    }
    const existing = await findFolderByLabel(ctx.db, row.spaceId, parentId, label);
    let folderId = existing?.id;
    if (!folderId) {
      folderId = crypto.randomUUID();
      await insertFolder(ctx.db, { id: folderId, spaceId: row.spaceId, parentId, label, color: null, icon: null, kind: "regular", userId, now: ctx.now() });
    }
    state.pathFolders.set(key, folderId);
    parentId = folderId;
  }
  return parentId;
}

async function freeName(ctx: ServiceContext, row: ItemAccessRow, parentId: string, state: RestoreState): Promise<string> {
  const claimKey = `${row.type}:${parentId}`;
  const claimed = state.claimed.get(claimKey) ?? new Set<string>();
  state.claimed.set(claimKey, claimed);
  const [name] = await freeNames(ctx, row.type, parentId, [row.name], restoredName, claimed);
  return name!;
}

export type RestoredItem = { type: ItemType; id: string; name: string; parentId: string };
export type RestoreResult = { restored: number; items: RestoredItem[] };

/** POST /api/items/restore: items the member deleted, with everything that went with them. */
export async function restoreItems(ctx: ServiceContext, userId: string, input: unknown): Promise<RestoreResult> {
  const data = parseInput(restoreItemsSchema, input);
  const rows = await loadItems(ctx, userId, data.items);
  for (const row of rows) {
    if (row.trashedAt === null) throw new AppError("CONFLICT", `${quoted(row)} is not in the trash.`);
    if (row.trashRootId !== row.id) throw wentWithFolder(row);
  }
  const state: RestoreState = { roots: new Map(), pathFolders: new Map(), claimed: new Map() };
  const moves: RestoreMove[] = [];
  // One at a time: a path recreated for one item is found by the next.
  for (const row of rows) {
    const parentId = await restoreParent(ctx, userId, row, state);
    moves.push({ id: row.id, type: row.type, parentId, name: await freeName(ctx, row, parentId, state) });
  }
  await restoreGroups(ctx.db, moves, ctx.now());
  ctx.logger.info("items restored", { userId, items: moves.length });
  await announceFilesChanged(ctx, rows.map((row) => row.spaceId), "restored", { userId, events: (spaceId) => itemEvents("items.restore", rows, spaceId, null) });
  return { restored: moves.length, items: moves.map((move) => ({ type: move.type, id: move.id, name: move.name, parentId: move.parentId })) };
}

// ---- the trash page ----------------------------------------------------------------------------

export type TrashEntry = {
  type: ItemType;
  id: string;
  name: string;
  /** The space's name, then the folders down to where the item was. */
  location: string[];
  spaceKind: string;
  /** The data room it is in (batch operations go to the room's endpoint), or null for the member's own files. */
  roomId: string | null;
  trashedAt: number;
  daysLeft: number;
  size: number | null;
  contentType: string | null;
};

export type TrashPage = { items: TrashEntry[]; nextCursor: string | null; retentionDays: number };

/** The member's trash: what they deleted in every space where they may delete, newest first. */
export async function listTrash(ctx: ServiceContext, userId: string, rawQuery: unknown): Promise<TrashPage> {
  const query = parseInput(trashQuerySchema, rawQuery);
  const cursor = decodeCursor(query.cursor);
  const after = cursor && typeof cursor.value === "number" ? { trashedAt: cursor.value, id: cursor.id } : null;
  const rows = await listTrashRoots(ctx.db, { userId, roles: DELETING_ROLES, after, limit: PAGE_SIZE + 1 });
  const now = ctx.now().getTime();
  const visible = rows.slice(0, PAGE_SIZE);
  const last = visible.at(-1);
  return {
    items: visible.map((row) => ({
      type: row.type,
      id: row.id,
      name: row.name,
      location: [row.spaceName, ...parsePath(row.originalPath)],
      spaceKind: row.spaceKind,
      roomId: row.spaceKind === "dataroom" ? row.spaceId : null,
      trashedAt: row.trashedAt,
      daysLeft: daysLeftInTrash(row.trashedAt, now),
      size: row.size,
      contentType: row.contentType,
    })),
    nextCursor: rows.length > PAGE_SIZE && last ? encodeCursor({ value: last.trashedAt, id: last.id }) : null,
    retentionDays: Math.round(TRASH_RETENTION_MS / 86_400_000),
  };
}

// ---- R2 objects and the purge ------------------------------------------------------------------

/**
 * Deletes R2 objects whose rows are gone, then their r2_deletions records, 1,000 keys at a time.
 * A key a live file row still uses is never deleted from R2 (only its record is dropped). A
 * failure is logged and left to the purge, which finds the keys in r2_deletions.
 */
export async function removeObjects(ctx: ServiceContext, keys: string[]): Promise<number> {
  let removed = 0;
  for (let start = 0; start < keys.length; start += R2_DELETE_BATCH) {
    const chunk = keys.slice(start, start + R2_DELETE_BATCH);
    try {
      const inUse = await findKeysInUse(ctx.db, chunk);
      const unused = chunk.filter((key) => !inUse.has(key));
      if (unused.length > 0) await deleteWithDerived(ctx.env.FILES, unused);
      await deletePendingDeletions(ctx.db, chunk);
      removed += unused.length;
    } catch (error) {
      ctx.logger.error("R2 objects not deleted yet; the nightly purge will retry", {
        keys: chunk.length,
        error: error instanceof Error ? error.message : String(error),
      });
      return removed;
    }
  }
  return removed;
}

/** Step 2 of the purge: every owed object deletion recorded in r2_deletions, 1,000 keys a round. */
export async function drainR2Deletions(ctx: ServiceContext): Promise<{ objects: number; rounds: number }> {
  let objects = 0;
  let rounds = 0;
  while (rounds < DRAIN_MAX_ROUNDS) {
    const pending = await listPendingDeletions(ctx.db, R2_DELETE_BATCH);
    if (pending.length === 0) break;
    rounds++;
    const unused = pending.filter((entry) => !entry.inUse).map((entry) => entry.key);
    // Errors propagate here: the job is retried and the records are still there.
    if (unused.length > 0) await deleteWithDerived(ctx.env.FILES, unused);
    await deletePendingDeletions(
      ctx.db,
      pending.map((entry) => entry.key),
    );
    objects += unused.length;
    if (pending.length < R2_DELETE_BATCH) break;
  }
  return { objects, rounds };
}

/**
 * Step 1 of the purge: every trash group trashed more than TRASH_RETENTION_MS ago loses its D1
 * rows (its R2 keys go to r2_deletions in the same batch), a bounded number of groups a batch.
 */
export async function purgeExpiredRows(ctx: ServiceContext): Promise<{ groups: number; keys: number }> {
  const now = ctx.now();
  const cutoff = new Date(now.getTime() - TRASH_RETENTION_MS);
  let groups = 0;
  let keys = 0;
  for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
    const roots = await findExpiredTrashRoots(ctx.db, cutoff, PURGE_GROUPS_PER_BATCH);
    if (roots.length === 0) break;
    const recorded = await deleteTrashGroups(ctx.db, roots, now);
    groups += roots.length;
    keys += recorded.length;
  }
  return { groups, keys };
}

export type PurgeResult = { groups: number; objects: number; uploads: number };

/**
 * The nightly purge (job `files.purge-trash`): D1 rows of expired trash first, then the R2
 * objects owed (including any left by an earlier crash), then expired uploads. Safe to run twice.
 */
export async function purgeTrash(ctx: ServiceContext): Promise<PurgeResult> {
  const rows = await purgeExpiredRows(ctx);
  // Whole data rooms past their 30 days: their R2 keys join r2_deletions, drained just below.
  await purgeExpiredDatarooms(ctx);
  const drained = await drainR2Deletions(ctx);
  const uploads = await abortExpiredUploads(ctx, ctx.now());
  ctx.logger.info("trash purged", { groups: rows.groups, keys: rows.keys, objects: drained.objects, uploadsAborted: uploads.aborted, uploadsForgotten: uploads.forgotten });
  return { groups: rows.groups, objects: drained.objects, uploads: uploads.aborted + uploads.forgotten };
}
