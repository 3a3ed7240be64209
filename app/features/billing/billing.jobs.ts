import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { reviewOwnersOverPlan } from "./plan-limits.server";
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

/** Each morning after the trials: owners with things read-only over their plan are looked at again (what they deleted may make it fit). */
export const planLimitsJob = defineJob({
  type: "billing.plan-limits",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { owners, stillOver } = await reviewOwnersOverPlan(ctx);
    return { processedItems: owners, successCount: owners - stillOver, failureCount: 0 };
  },
});
