import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";

/** One file's text into the search index, after its upload or new version (ADR 028). */
export const extractTextJob = defineJob({
  type: "search.extract",
  version: 1,
  payloadSchema: z.object({ fileId: z.uuid() }),
  async run(ctx, payload) {
    const { indexFileContent } = await import("./search-index.server");
    const outcome = await indexFileContent(ctx, payload.fileId);
    return { processedItems: 1, successCount: outcome === "failed" ? 0 : 1, failureCount: outcome === "failed" ? 1 : 0 };
  },
});

/**
 * Files still waiting for their text (copies, files from before the index, the demo), a batch per
 * run; while some remain the job enqueues a next run. Idempotent: indexed files are not pending.
 */
export const catchUpIndexJob = defineJob({
  type: "search.catch-up",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { catchUpContentIndex, requestCatchUp } = await import("./search-index.server");
    const { indexed, remaining } = await catchUpContentIndex(ctx);
    if (remaining) await requestCatchUp(ctx);
    return { processedItems: indexed, successCount: indexed, failureCount: 0 };
  },
});
