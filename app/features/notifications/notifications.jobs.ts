import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { sendDailyDigests } from "./notifications.server";

/** Daily (07:00 UTC): one digest e-mail per member with notifications waiting. Safe to run twice. */
export const sendDigestsJob = defineJob({
  type: "notifications.send-digests",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const result = await sendDailyDigests(ctx);
    ctx.logger.info("daily digests sent", result);
    return { processedItems: result.notifications, successCount: result.recipients, failureCount: 0 };
  },
});
