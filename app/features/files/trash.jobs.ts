import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";

/**
 * Nightly (cron → queue): deletes what has been in the trash longer than TRASH_RETENTION_DAYS
 * (D1 rows first, then the R2 objects through r2_deletions) and aborts expired uploads. The rule
 * lives in files.constants.ts, so the payload is empty. It also deletes watermarked copies older
 * than two days (ADR 020). Idempotent: a redelivered message, or a
 * second run, finds nothing more to delete; a run that stopped half-way is finished by the next.
 */
export const purgeTrashJob = defineJob({
  type: "files.purge-trash",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const { purgeTrash } = await import("./trash.server");
    const { purgeWatermarkedCopies } = await import("~/features/watermark/watermark.server");
    const result = await purgeTrash(ctx);
    // Watermarked copies are made again on the next view: two days old is stale storage.
    const copies = await purgeWatermarkedCopies(ctx);
    const processed = result.groups + result.objects + result.uploads + copies;
    return { processedItems: processed, successCount: processed, failureCount: 0 };
  },
});
