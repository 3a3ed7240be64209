import { z } from "zod";
import { deleteWithDerived } from "~/features/files/derived-objects";
import { defineJob } from "~/features/jobs/job-definition";

/** R2 allows 1 024-byte keys; 100 of them keep a message well under the 128 KB queue limit. */
export const DELETE_OBJECTS_MAX_KEYS = 100;
const R2_KEY_MAX_BYTES = 1024;

export const deleteObjectsPayloadSchema = z.object({
  keys: z
    .array(z.string().min(1).refine((key) => new TextEncoder().encode(key).byteLength <= R2_KEY_MAX_BYTES, "An R2 key is at most 1 024 bytes."))
    .min(1)
    .max(DELETE_OBJECTS_MAX_KEYS),
});
export type DeleteObjectsPayload = z.infer<typeof deleteObjectsPayloadSchema>;

/**
 * Deletes the R2 objects of an erased account (and what was made from them). Idempotent: deleting a key that is already gone
 * succeeds, so a redelivered or retried message is harmless.
 */
export const deleteObjectsJob = defineJob({
  type: "personal-data.delete-objects",
  version: 1,
  payloadSchema: deleteObjectsPayloadSchema,
  async run(ctx, payload) {
    await deleteWithDerived(ctx.env.FILES, payload.keys);
    return { processedItems: payload.keys.length, successCount: payload.keys.length, failureCount: 0 };
  },
});

/**
 * Splits keys into messages of at most DELETE_OBJECTS_MAX_KEYS keys and about 100 KB of JSON,
 * so even keys full of escaped characters keep each message under the 128 KB limit.
 */
export function chunkObjectKeys(keys: readonly string[], maxKeys = DELETE_OBJECTS_MAX_KEYS, maxBytes = 100_000): string[][] {
  const encoder = new TextEncoder();
  const chunks: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const key of new Set(keys)) {
    const size = encoder.encode(JSON.stringify(key)).byteLength + 1;
    if (current.length > 0 && (current.length >= maxKeys || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(key);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
