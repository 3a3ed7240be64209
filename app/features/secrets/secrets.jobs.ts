import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";

/**
 * Nightly (cron → queue): expired secrets lose their ciphertext (an "expired" event on their
 * receipt), and receipts of secrets that ended more than 30 days ago go. Idempotent: a second run
 * finds nothing more to do.
 */
export const purgeSecretsJob = defineJob({
  type: "secrets.purge",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { purgeExpiredSecrets } = await import("./secrets.server");
    const result = await purgeExpiredSecrets(ctx);
    const processed = result.expired + result.removed;
    return { processedItems: processed, successCount: processed, failureCount: 0 };
  },
});
