import { z } from "zod";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { defineJob } from "~/features/jobs/job-definition";
import type { ServiceContext } from "~/lib/service-context.server";
import { catchUpContentIndex, indexFileContent } from "./search-index.server";

/** One file's text into the search index, after its upload or new version (ADR 028). */
export const extractTextJob = defineJob({
  type: "search.extract",
  version: 1,
  payloadSchema: z.object({ fileId: z.uuid() }),
  async run(ctx, payload) {
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
    const { indexed, remaining } = await catchUpContentIndex(ctx);
    if (remaining) await requestCatchUp(ctx);
    return { processedItems: indexed, successCount: indexed, failureCount: 0 };
  },
});

/** After an upload or a new version: the file's text is read by a job (once per stored object). */
export async function requestContentIndexing(ctx: ServiceContext, fileId: string, r2Key: string): Promise<void> {
  await enqueueJob(ctx, { definition: extractTextJob, payload: { fileId }, jobId: `search.extract:${r2Key}`, priority: "low" });
}

/** Asks the catch-up job to run (after copies, which add files without an upload). */
export async function requestCatchUp(ctx: ServiceContext, runId: string = crypto.randomUUID()): Promise<void> {
  await enqueueJob(ctx, { definition: catchUpIndexJob, payload: {}, jobId: `search.catch-up:${runId}`, priority: "low" });
}
