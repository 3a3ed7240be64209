import { defineJob } from "~/features/jobs/job-definition";
import { chunkPayloadSchema } from "./batch.server";

/**
 * One chunk of a batch operation (≤ 100 items, ids only). The operation's own row is moved by the
 * chunks themselves (processing, counters, completed when no item is pending), so this job owns
 * its state: the consumer only retries it (1 s, 2 s, 4 s) and marks the operation failed after
 * three retries.
 */
export const batchChunkJob = defineJob({
  type: "batch.chunk",
  version: 1,
  payloadSchema: chunkPayloadSchema,
  ownsJobState: true,
  async run(ctx, payload) {
    const { runBatchChunk } = await import("./batch.server");
    return runBatchChunk(ctx, payload);
  },
  async runMany(ctx, payloads) {
    const { runBatchChunks } = await import("./batch.server");
    return runBatchChunks(ctx, payloads);
  },
});
