import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";

/**
 * Nightly (cron → queue): brings stored share-link visitor data in line with each space's privacy
 * setting — deletes visits older than its retention, drops or shortens stored addresses. Works in
 * bounded batches; idempotent (a redelivered message or a second run finds nothing more to do).
 */
export const applySharePrivacyJob = defineJob({
  type: "sharing.apply-privacy",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { applySharePrivacy } = await import("./share-privacy.server");
    const result = await applySharePrivacy(ctx);
    ctx.logger.info("share-link privacy applied", result);
    const processed = result.deleted + result.dropped + result.shortened;
    return { processedItems: processed, successCount: processed, failureCount: 0 };
  },
});
