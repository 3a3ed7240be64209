import { requestCatchUp } from "~/features/search/search.jobs";
import { assertWithinLimit } from "~/features/access/access.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { newObjectKey, putStoredStream, readStoredObject, sealsObjects } from "./encryption.server";
import { findCopySources, insertCopies, type CopiedFileRow, type CopiedFolderRow, type CopySourceRow } from "./copy.queries.server";
import { freeNames } from "./free-names.server";
import { assertFoldersFitUnder, movedName } from "./move.server";
import { assertSpaceRight, announceFilesChanged, ensurePersonalSpace, requireFolderAccess } from "./spaces.server";
import { assertFilesFit, spaceUsage } from "./storage.server";
import type { ItemType } from "./trash.constants";
import { findItemsWithRole } from "./trash.queries.server";

/**
 * Copying files and folders into a folder of the same space (batch `copy`, issue 22).
 *
 * - Within one space, like move: a data room's files stay under its rules, a member's own files
 *   under theirs. From the member's own files a copy may also go into another space where they
 *   may upload (a team's drive, a room: issue 42); nothing leaves a room or a team's drive. Reading the items needs `files.download` there, writing the copies
 *   `files.upload` in the target folder.
 * - A folder is copied with everything live below it (at most COPY_FILES_MAX files a call), not
 *   into itself or below itself, nor deeper than FOLDER_DEPTH_MAX levels; the root, Inbox and
 *   Outbox of a space are not copied.
 * - Each copy's bytes are read and written again under a new generated key (S14), sealed as the
 *   space seals new files (ADR 021), so the copy is independent of its original. The copies count
 *   against the space's quota and files limit, checked before anything is written.
 * - Copied items keep their names, or get " (2)", " (3)", … where a name is taken.
 * - Idempotent: each copy's id (and so its R2 key) is derived from `seed` (the batch operation)
 *   and its original's id, objects are written before their rows, and a row already there is left
 *   as it is, so running the same copy again ends in the same rows and R2 keys.
 * - All or nothing: one refused item refuses the call, and nothing is written.
 */

/** Files one call may copy (the selected ones and those inside selected folders). */
export const COPY_FILES_MAX = 1000;

const PROTECTED_MESSAGE = "The Inbox, the Outbox and the top folder of a space cannot be copied.";

/** A UUID (version 8, RFC 9562's custom layout) derived from the operation and the original's id. */
export async function derivedId(seed: string, sourceId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`strongroom copy\n${seed}\n${sourceId}`)));
  digest[6] = (digest[6]! & 0x0f) | 0x80;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  const hex = [...digest.subarray(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export type CopyResult = { copied: number; files: number; bytes: number; targetFolderId: string; items: { type: ItemType; id: string; copyId: string; name: string }[] };

export async function copyItemRefs(ctx: ServiceContext, userId: string, data: { items: { type: ItemType; id: string }[]; targetFolderId: string; seed: string }): Promise<CopyResult> {
  const target = await requireFolderAccess(ctx, userId, data.targetFolderId, "files.upload");
  const found = new Map(
    (
      await findItemsWithRole(
        ctx.db,
        userId,
        data.items.filter((ref) => ref.type === "file").map((ref) => ref.id),
        data.items.filter((ref) => ref.type === "folder").map((ref) => ref.id),
      )
    ).map((row) => [`${row.type}:${row.id}`, row]),
  );
  const rows = data.items.map((ref) => {
    const row = found.get(`${ref.type}:${ref.id}`);
    if (!row) throw new AppError("NOT_FOUND", `This ${ref.type} does not exist or you don't have access to it.`);
    return row;
  });
  // Within one space; or from the member's own files into another space they may add to (a team's
  // drive, a room where they upload): their own files carry no room's rules (issue 42).
  const sourceSpaceId = rows[0]?.spaceId;
  const fromOwnFiles = sourceSpaceId !== undefined && sourceSpaceId !== target.spaceId && (await ensurePersonalSpace(ctx, userId)).id === sourceSpaceId;
  for (const row of rows) {
    if (row.spaceId !== sourceSpaceId || (row.spaceId !== target.spaceId && !fromOwnFiles)) {
      throw new AppError("VALIDATION_ERROR", `“${row.name}” is in another space. Items are copied within a data room, within your own files, or from your own files into another space.`);
    }
    if (row.trashedAt !== null) throw new AppError("VALIDATION_ERROR", `“${row.name}” is in the trash. Restore it first.`);
    if (row.type === "folder" && (row.kind === "root" || row.kind === "inbox" || row.kind === "outbox")) throw new AppError("FORBIDDEN", PROTECTED_MESSAGE);
  }
  if (rows.length === 0) return { copied: 0, files: 0, bytes: 0, targetFolderId: data.targetFolderId, items: [] };
  // One space: reading its items is one decision (in a data room, one call to its authority).
  await assertSpaceRight(ctx, userId, { spaceId: rows[0]!.spaceId, role: rows[0]!.role }, "files.download");

  const folders = rows.filter((row) => row.type === "folder");
  await assertFoldersFitUnder(ctx, folders, data.targetFolderId, "copied");

  const sources = await findCopySources(
    ctx.db,
    rows.filter((row) => row.type === "file").map((row) => row.id),
    folders.map((row) => row.id),
  );
  const sourceFiles = sources.filter((source) => source.type === "file");
  const firstName = rows[0]!.name;
  if (sourceFiles.length > COPY_FILES_MAX) throw new AppError("VALIDATION_ERROR", `“${firstName}” holds more than ${COPY_FILES_MAX.toLocaleString("en-US")} files. Copy its subfolders one by one.`);
  const bytes = sourceFiles.reduce((sum, file) => sum + (file.size ?? 0), 0);
  const usage = await spaceUsage(ctx, target.spaceId);
  assertFilesFit(usage, rows.length === 1 ? firstName : `${rows.length} items`, bytes, sourceFiles.length);
  assertWithinLimit(usage.access, "max_dataroom_folders", usage.folderCount, sources.length - sourceFiles.length);

  // The selected items' names in the target; everything below a copied folder keeps its name.
  const topNames = new Map<string, string>();
  for (const type of ["folder", "file"] as const) {
    const ofType = rows.filter((row) => row.type === type);
    if (ofType.length === 0) continue;
    const names = await freeNames(ctx, type, data.targetFolderId, ofType.map((row) => row.name), movedName, new Set());
    ofType.forEach((row, index) => topNames.set(`${type}:${row.id}`, names[index]!));
  }
  const ids = new Map<string, string>();
  for (const source of sources) ids.set(source.id, await derivedId(data.seed, source.id));
  const placed = (source: CopySourceRow) => ({
    id: ids.get(source.id)!,
    parentId: source.depth === 0 ? data.targetFolderId : ids.get(source.parentId!)!,
    name: source.depth === 0 ? topNames.get(`${source.type}:${source.id}`)! : source.name,
  });

  const folderRows: CopiedFolderRow[] = sources
    .filter((source) => source.type === "folder")
    .map((source) => {
      const copy = placed(source);
      return { id: copy.id, parentId: copy.parentId, label: copy.name, color: source.color, icon: source.icon };
    });
  // Objects first, rows after: a run cut short writes the same objects again and then the rows.
  const sealed = sealsObjects(target.roomPermissions !== null, usage.access);
  const fileRows: CopiedFileRow[] = [];
  for (const source of sourceFiles) {
    const copy = placed(source);
    const r2Key = newObjectKey("files", target.spaceId, sealed, copy.id);
    const body = await readStoredObject(ctx, source.r2Key!, source.size!);
    if (!body) {
      ctx.logger.error("copy source object missing", { fileId: source.id });
      throw new AppError("NOT_FOUND", `The content of “${source.name}” is missing, so it cannot be copied.`);
    }
    await putStoredStream(ctx, r2Key, source.size!, body, { httpMetadata: { contentType: source.contentType! } });
    fileRows.push({ id: copy.id, folderId: copy.parentId, name: copy.name, size: source.size!, contentType: source.contentType!, sha256: source.sha256, r2Key });
  }
  await insertCopies(ctx.db, target.spaceId, userId, folderRows, fileRows, ctx.now());
  // The copies' text comes from their originals' (same bytes) or is read again, by the catch-up job.
  if (fileRows.length > 0) await requestCatchUp(ctx, `${data.seed}:${fileRows[0]!.id}`);

  const items = rows.map((row) => ({ type: row.type, id: row.id, copyId: ids.get(row.id)!, name: topNames.get(`${row.type}:${row.id}`)! }));
  const detail = `${items.length} item${items.length === 1 ? "" : "s"}: ${items.map((item) => item.name).join(", ")}`;
  await announceFilesChanged(ctx, [target.spaceId], "added", { userId, events: () => [{ action: "items.copy", target: { type: "folder", id: data.targetFolderId, name: target.label }, detail }] });
  ctx.logger.info("items copied", { userId, items: items.length, files: fileRows.length, bytes, targetFolderId: data.targetFolderId });
  return { copied: items.length, files: fileRows.length, bytes, targetFolderId: data.targetFolderId, items };
}
