import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { pruneTeamLogs } from "./team-retention.server";

/** Nightly (workers/cron.ts): each team's logs older than its retention period go, unless a legal hold stops it. Safe to run twice. */
export const pruneTeamLogsJob = defineJob({
  type: "teams.prune-logs",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { activity, audit } = await pruneTeamLogs(ctx);
    return { processedItems: activity + audit, successCount: activity + audit, failureCount: 0 };
  },
});
