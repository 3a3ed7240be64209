import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { pruneFinishedJobs } from "./prune-jobs.server";

/** Finished job records are kept this long for the activity views, then pruned nightly. */
export const JOB_RETENTION_DAYS = 30;

export const pruneJobsJob = defineJob({
  type: "maintenance.prune-jobs",
  version: 1,
  payloadSchema: z.object({ olderThanDays: z.number().int().min(1).max(3650) }),
  async run(ctx, payload) {
    const deleted = await pruneFinishedJobs(ctx, payload);
    return { processedItems: deleted, successCount: deleted, failureCount: 0 };
  },
});
