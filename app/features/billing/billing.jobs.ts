import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { reviewOwnersOverPlan } from "./plan-limits.server";
import { forgetOldShippingAddresses, lookAgainAtOpenOrders } from "./print-orders.server";
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

/** Every hour: print orders waiting on news that may have been lost (a checkout's event, the lab's answer or callback) are looked at again. */
export const printOrdersJob = defineJob({
  type: "billing.print-orders",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { looked, moved, failed } = await lookAgainAtOpenOrders(ctx);
    ctx.logger.info("print orders looked at again", { looked, moved, failed });
    return { processedItems: looked, successCount: looked - failed, failureCount: failed };
  },
});

/** Nightly: finished print orders forget where they went after their retention (print-orders.server.ts). Safe to run twice. */
export const printPrivacyJob = defineJob({
  type: "billing.print-privacy",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { forgotten } = await forgetOldShippingAddresses(ctx);
    return { processedItems: forgotten, successCount: forgotten, failureCount: 0 };
  },
});
