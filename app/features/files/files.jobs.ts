import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { setSha256ForKey } from "./uploads.queries.server";

export const hashFilePayloadSchema = z.object({
  fileId: z.uuid(),
  r2Key: z.string().min(1).max(1024),
});
export type HashFilePayload = z.infer<typeof hashFilePayloadSchema>;

/** The job id for hashing one stored object: enqueuing it twice sends it once. */
export function hashJobId(r2Key: string): string {
  return `files.hash:${r2Key}`;
}

export function toHex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The runtime's streaming SHA-256 (`crypto.DigestStream`; the DOM typings of `crypto` lack it). */
export function newSha256Stream(): DigestStream {
  const { DigestStream: Digest } = crypto as unknown as { DigestStream: typeof DigestStream };
  return new Digest("SHA-256");
}

/**
 * SHA-256 of an object that arrived in several parts (a single-part upload is hashed while it
 * streams in). The object is streamed through the runtime's DigestStream, never held in memory.
 * Idempotent: the digest is written only where it is still unknown, and only for the file (or
 * earlier version) that holds this very object; a deleted object is nothing to do.
 */
export const hashFileJob = defineJob({
  type: "files.hash",
  version: 1,
  payloadSchema: hashFilePayloadSchema,
  async run(ctx, payload) {
    // The digest is of the file's own bytes: a sealed object (ADR 021) is opened on the way.
    const { plaintextSizeOf, readStoredObject } = await import("./encryption.server");
    const head = await ctx.env.FILES.head(payload.r2Key);
    const body = head ? await readStoredObject(ctx, payload.r2Key, plaintextSizeOf(payload.r2Key, head.size)) : null;
    if (!body) {
      ctx.logger.info("files.hash: object is gone", { fileId: payload.fileId });
      return { processedItems: 1, successCount: 0, failureCount: 0 };
    }
    const digest = newSha256Stream();
    await body.pipeTo(digest);
    const sha256 = toHex(await digest.digest);
    const updated = await setSha256ForKey(ctx.db, payload.fileId, payload.r2Key, sha256);
    return { processedItems: 1, successCount: updated > 0 ? 1 : 0, failureCount: 0 };
  },
});

/**
 * Nightly: room keys still wrapped by a previous key-encryption key are re-wrapped with the
 * current one (ADR 021: rotation never re-encrypts a file). Idempotent: a re-wrapped key is not
 * listed again.
 */
export const rewrapKeysJob = defineJob({
  type: "files.rewrap-keys",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { rewrapSpaceKeys } = await import("./encryption.server");
    const { rewrapped, unreadable } = await rewrapSpaceKeys(ctx);
    return { processedItems: rewrapped + unreadable, successCount: rewrapped, failureCount: unreadable };
  },
});
