import { ensurePersonalSpace } from "~/features/files/spaces.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { answerUploadTarget, completeAnswerFile } from "./secret-requests.server";
import { deleteSecretFileRows, findPendingSecretFile, listEndedSecretFiles, markSecretFileReady } from "./secrets.queries.server";

export { REVEAL_STREAM_TYPE } from "./secrets.constants";

/**
 * A secret's attached files on the server (issue 23): they arrive through the file manager's tus
 * path already sealed by the browser (uploads.server.ts asks here where they go and tells here
 * when they are complete), leave in the reveal's answer, and are deleted from R2 when the secret
 * ends: after the last view's answer, on a burn, or by the nightly purge (the safety net).
 */

export { maxSealedFileSize } from "./secret-plan.server";
export const SECRET_FILE_NOT_FOUND = "This secret's file does not exist, is already uploaded, or the secret has ended.";

/**
 * Where a tus upload of a sealed file goes: the member's own pending secret file, or a pending
 * file of an answer to their request (uploaded by a visitor holding its grant), of exactly its
 * declared size.
 */
export async function secretUploadTarget(ctx: ServiceContext, userId: string, fileId: string, length: number): Promise<{ spaceId: string; r2Key: string }> {
  if (!/^[0-9a-f-]{36}$/i.test(fileId)) throw new AppError("NOT_FOUND", SECRET_FILE_NOT_FOUND);
  const file = await findPendingSecretFile(ctx.db, userId, fileId);
  if (file && length !== file.storedSize) throw new AppError("VALIDATION_ERROR", `Upload-Length must be the sealed file's size (${file.storedSize} bytes).`);
  const target = file ? { r2Key: file.r2Key } : await answerUploadTarget(ctx, userId, fileId, length);
  if (!target) throw new AppError("NOT_FOUND", SECRET_FILE_NOT_FOUND);
  // The upload's row lives in the member's own space (their uploads, their page of progress).
  const space = await ensurePersonalSpace(ctx, userId);
  return { spaceId: space.id, r2Key: target.r2Key };
}

/** The last byte of a sealed file arrived: a secret's file is ready (a reveal may hand it out), or an answer's. */
export async function completeSecretFile(ctx: ServiceContext, fileId: string): Promise<void> {
  if (!(await markSecretFileReady(ctx.db, fileId))) await completeAnswerFile(ctx, fileId);
  ctx.logger.info("sealed file uploaded", { fileId });
}

/** Deletes files' objects, then their rows (a repeat finds nothing). */
export async function removeSecretFiles(ctx: ServiceContext, files: readonly { id: string; r2Key: string }[]): Promise<number> {
  if (files.length === 0) return 0;
  for (let start = 0; start < files.length; start += 1000) await ctx.env.FILES.delete(files.slice(start, start + 1000).map((file) => file.r2Key));
  await deleteSecretFileRows(ctx.db, files.map((file) => file.id));
  return files.length;
}

/** The purge's safety net: files of every ended secret (burned, expired, viewed out) go. */
export async function sweepEndedSecretFiles(ctx: ServiceContext): Promise<number> {
  let removed = 0;
  for (let round = 0; round < 20; round++) {
    const batch = await listEndedSecretFiles(ctx.db, 500);
    removed += await removeSecretFiles(ctx, batch);
    if (batch.length < 500) break;
  }
  return removed;
}


/**
 * The reveal's answer when the secret has files, as one stream: 4 bytes (big-endian) of header
 * length, the header (JSON: ciphertext, views left, each file's sealed size), then each file's
 * sealed bytes in order. `done` settles once every byte is sent; after the last view the files'
 * objects are deleted then (they were read out in this same answer).
 */
export function revealStream(ctx: ServiceContext, header: { ciphertext: string; viewsLeft: number }, files: readonly { id: string; storedSize: number; r2Key: string }[], isLast: boolean) {
  const head = new TextEncoder().encode(JSON.stringify({ ...header, files: files.map((file) => ({ storedSize: file.storedSize })) }));
  const length = 4 + head.length + files.reduce((sum, file) => sum + file.storedSize, 0);
  const { readable, writable } = new FixedLengthStream(length);
  const done = (async () => {
    const writer = writable.getWriter();
    try {
      const prefix = new Uint8Array(4);
      new DataView(prefix.buffer).setUint32(0, head.length);
      await writer.write(prefix);
      await writer.write(head);
      for (const file of files) {
        const object = await ctx.env.FILES.get(file.r2Key);
        if (!object) throw new Error("secret file object missing");
        const reader = object.body.getReader();
        for (;;) {
          const { value, done: finished } = await reader.read();
          if (finished) break;
          await writer.write(value);
        }
      }
      await writer.close();
    } catch (error) {
      ctx.logger.error("secret reveal stream failed", { error: error instanceof Error ? error.message : String(error) });
      await writer.abort(error).catch(() => undefined);
    } finally {
      if (isLast) await removeSecretFiles(ctx, files).catch((error: unknown) => ctx.logger.error("secret files not deleted", { error: error instanceof Error ? error.message : String(error) }));
    }
  })();
  return { body: readable, length, done };
}
