import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { FOLDER_DEPTH_MAX } from "./files.constants";
import { renameFileSchema } from "./files.schema";
import { toFileSummary, type FileSummary } from "./folders.server";
import { nameWithSuffix } from "./item-names";
import { moveItemsSchema } from "./move.schema";
import { findFolderLineage, findSubtreeHeights, moveRows, renameFileRow, type MoveRow } from "./move.queries.server";
import { announceFilesChanged, requireFileAccess, requireFolderAccess } from "./spaces.server";
import type { ItemType } from "./trash.constants";
import { findItemsWithRole, findTakenNames, type ItemAccessRow } from "./trash.queries.server";
import { freeNames } from "./free-names.server";

/**
 * Moving files and folders, and renaming files (folders are renamed by PATCH /folder/{uid}).
 *
 * - Items move within their space (a data room, or the member's own files): moving between
 *   spaces would carry files across owners, quotas and room rules, so it is refused with a message;
 *   a copy goes there by download and upload (batch copy arrives with batch operations).
 * - Moving needs `files.edit` where the items are, which is where they go (one space: one
 *   decision, in a data room one call to its authority).
 * - A folder cannot go into itself or below itself, nor deeper than FOLDER_DEPTH_MAX levels; the
 *   root, Inbox and Outbox of a space stay where they are.
 * - A name already taken in the target folder gets " (2)", " (3)", … (before a file's
 *   extension), like a desktop's "keep both". Renaming to a taken name is refused instead, since
 *   the member chose that name.
 * - All or nothing: one refused item refuses the call, and nothing changes.
 */

const PROTECTED_MESSAGE = "The Inbox, the Outbox and the top folder of a space cannot be moved.";

function itemNotFound(type: ItemType) {
  return new AppError("NOT_FOUND", `This ${type} does not exist or you don't have access to it.`);
}

/** "report.pdf" → "report (2).pdf" on the 1st attempt, "report (3).pdf" on the 2nd, … */
export function movedName(name: string, type: ItemType, attempt: number): string {
  return attempt === 0 ? name : nameWithSuffix(name, type, ` (${attempt + 1})`);
}

export type MovedItem = { type: ItemType; id: string; name: string };
export type MoveResult = { moved: number; targetFolderId: string; items: MovedItem[] };

/** POST /api/items/move { items: [{ type, id }], targetFolderId } (≤ 100 items a call). */
export async function moveItems(ctx: ServiceContext, userId: string, input: unknown): Promise<MoveResult> {
  return moveItemRefs(ctx, userId, parseInput(moveItemsSchema, input));
}

/**
 * The move itself, for items already validated (distinct refs): the API's 100-item call, or a
 * batch operation's chunks (up to 1,000 items; every list travels as one JSON parameter).
 */
export async function moveItemRefs(ctx: ServiceContext, userId: string, data: { items: { type: ItemType; id: string }[]; targetFolderId: string }): Promise<MoveResult> {
  const target = await requireFolderAccess(ctx, userId, data.targetFolderId, "files.edit");
  const fileIds = data.items.filter((ref) => ref.type === "file").map((ref) => ref.id);
  const folderIds = data.items.filter((ref) => ref.type === "folder").map((ref) => ref.id);
  const found = new Map((await findItemsWithRole(ctx.db, userId, fileIds, folderIds)).map((row) => [`${row.type}:${row.id}`, row]));
  const rows = data.items.map((ref) => {
    const row = found.get(`${ref.type}:${ref.id}`);
    if (!row) throw itemNotFound(ref.type);
    return row;
  });

  for (const row of rows) {
    if (row.spaceId !== target.spaceId) {
      throw new AppError("VALIDATION_ERROR", `“${row.name}” is in another space. Items move within a data room or within your own files; to put a copy there, download it and upload it there.`);
    }
    if (row.trashedAt !== null) throw new AppError("VALIDATION_ERROR", `“${row.name}” is in the trash. Restore it first.`);
    if (row.type === "folder" && (row.kind === "root" || row.kind === "inbox" || row.kind === "outbox")) throw new AppError("FORBIDDEN", PROTECTED_MESSAGE);
  }
  // Already there: nothing to do for those.
  const moving = rows.filter((row) => row.parentId !== data.targetFolderId);
  const movingFolders = moving.filter((row) => row.type === "folder");

  await assertFoldersFitUnder(ctx, movingFolders, data.targetFolderId, "moved");

  const named = await nameInTarget(ctx, data.targetFolderId, moving);
  if (named.length > 0) {
    await moveRows(ctx.db, target.spaceId, data.targetFolderId, named, ctx.now());
    const detail = `${named.length} item${named.length === 1 ? "" : "s"}: ${named.map((row) => row.name).join(", ")}`;
    await announceFilesChanged(ctx, [target.spaceId], "moved", { userId, events: () => [{ action: "items.move", target: { type: "folder", id: data.targetFolderId, name: target.label }, detail }] });
  }
  ctx.logger.info("items moved", { userId, items: named.length, targetFolderId: data.targetFolderId });
  return { moved: named.length, targetFolderId: data.targetFolderId, items: named };
}

/**
 * Folders going under a target (moved or copied): none into itself or below itself, and none
 * deeper than FOLDER_DEPTH_MAX levels there.
 */
export async function assertFoldersFitUnder(ctx: ServiceContext, folders: { id: string; name: string }[], targetFolderId: string, verb: "moved" | "copied"): Promise<void> {
  if (folders.length === 0) return;
  const lineage = await findFolderLineage(ctx.db, targetFolderId);
  const above = new Set(lineage.map((row) => row.id));
  const inside = folders.find((row) => above.has(row.id));
  if (inside) throw new AppError("VALIDATION_ERROR", `“${inside.name}” cannot be ${verb} into itself or one of its own subfolders.`);
  // The target's depth below the root (the root is depth 0), then each folder's levels below it.
  const targetDepth = Math.max(0, lineage.length - 1);
  const heights = await findSubtreeHeights(ctx.db, folders.map((row) => row.id));
  const tooDeep = folders.find((row) => targetDepth + 1 + (heights.get(row.id) ?? 0) > FOLDER_DEPTH_MAX);
  if (tooDeep) throw new AppError("VALIDATION_ERROR", `“${tooDeep.name}” would be more than ${FOLDER_DEPTH_MAX} folders deep there. Choose a folder nearer the top.`);
}

/** Each item's name in the target: its own, or the first free " (n)" variant (files and folders apart). */
async function nameInTarget(ctx: ServiceContext, targetFolderId: string, rows: ItemAccessRow[]): Promise<MoveRow[]> {
  const result: MoveRow[] = [];
  for (const type of ["folder", "file"] as const) {
    const ofType = rows.filter((row) => row.type === type);
    if (ofType.length === 0) continue;
    const names = await freeNames(ctx, type, targetFolderId, ofType.map((row) => row.name), movedName, new Set());
    ofType.forEach((row, index) => result.push({ type, id: row.id, name: names[index]! }));
  }
  return result;
}

/** PATCH /api/files/{id} { name }: the file's new name in its folder (a taken name is refused). */
export async function renameFile(ctx: ServiceContext, userId: string, fileId: string, input: unknown): Promise<FileSummary> {
  const { file } = await requireFileAccess(ctx, userId, fileId, "files.edit");
  const { name } = parseInput(renameFileSchema, input);
  if (name !== file.name) {
    const taken = await findTakenNames(ctx.db, "file", file.folderId, [name]);
    if (taken.has(name)) {
      const message = `A file named “${name}” is already in this folder. Choose another name.`;
      throw new AppError("VALIDATION_ERROR", message, { fieldErrors: { name: [message] } });
    }
    await renameFileRow(ctx.db, fileId, name, ctx.now());
    await announceFilesChanged(ctx, [file.spaceId], "renamed", { userId, events: () => [{ action: "file.rename", target: { type: "file", id: fileId, name }, detail: `renamed from “${file.name}”` }] });
  }
  return toFileSummary({ ...file, name });
}
