import { requestContentIndexing } from "~/features/search/search.jobs";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { sha256Hex } from "~/lib/sha256";
import { insertCopies } from "./copy.queries.server";
import { newObjectKey, putStoredObject, sealsObjects } from "./encryption.server";
import { freeNames } from "./free-names.server";
import { findFileById } from "./folders.queries.server";
import { movedName } from "./move.server";
import { announceFilesChanged, requireFolderAccess } from "./spaces.server";
import { assertFilesFit, spaceUsage } from "./storage.server";

/**
 * A file the app made for a member (a PDF filled with a form's answers, …) saved into a folder
 * where they may upload, as an upload would be: their right checked (`files.upload`), the space's
 * quota and files limit before anything is written, a free name (" (2)" where taken), a generated
 * R2 key sealed as the space seals new files (ADR 021), its text indexed, and in a data room the
 * upload in the audit log. Idempotent by `id` (the caller derives it from what was made): saving
 * the same thing again answers the file saved before.
 */
export async function saveMadeFile(
  ctx: ServiceContext,
  userId: string,
  input: { id: string; folderId: string; name: string; contentType: string; bytes: Uint8Array<ArrayBuffer>; auditDetail: string },
): Promise<{ id: string; name: string; folderId: string; isNew: boolean }> {
  const target = await requireFolderAccess(ctx, userId, input.folderId, "files.upload");
  const before = await findFileById(ctx.db, input.id);
  if (before?.trashedAt) throw new AppError("CONFLICT", `It was saved before as “${before.name}”, which is in the trash now. Restore it from the trash.`);
  if (before) return { id: before.id, name: before.name, folderId: before.folderId, isNew: false };
  const usage = await spaceUsage(ctx, target.spaceId);
  assertFilesFit(usage, input.name, input.bytes.byteLength, 1);
  const [name] = await freeNames(ctx, "file", input.folderId, [input.name], movedName, new Set());
  const r2Key = newObjectKey("files", target.spaceId, sealsObjects(target.roomPermissions !== null, usage.access), input.id);
  // The object first, its row after: a save cut short writes the same object again.
  await putStoredObject(ctx, r2Key, input.bytes, { httpMetadata: { contentType: input.contentType } });
  await insertCopies(ctx.db, target.spaceId, userId, [], [{ id: input.id, folderId: input.folderId, name: name!, size: input.bytes.byteLength, contentType: input.contentType, sha256: await sha256Hex(input.bytes), r2Key }], ctx.now());
  await requestContentIndexing(ctx, input.id, r2Key);
  await announceFilesChanged(ctx, [target.spaceId], "added", { userId, events: () => [{ action: "file.upload", target: { type: "file", id: input.id, name: name! }, detail: input.auditDetail }] });
  ctx.logger.info("made file saved", { fileId: input.id, folderId: input.folderId, size: input.bytes.byteLength });
  return { id: input.id, name: name!, folderId: input.folderId, isNew: true };
}
