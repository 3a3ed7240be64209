import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { runTrialsMorning } from "./trials.server";

/** Each morning (workers/cron.ts): trial reminders before the end, and trials past their end closed. Safe to run twice. */
export const trialsMorningJob = defineJob({
  type: "billing.trials",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { reminded, ended } = await runTrialsMorning(ctx);
    return { processedItems: reminded + ended, successCount: reminded + ended, failureCount: 0 };
  },
});
