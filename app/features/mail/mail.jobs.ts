import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { deliverMail } from "./deliver-mail.server";
import { deleteDeliveredMailBefore } from "./mail.queries.server";

/** Delivers one recorded message through the HTTP mail driver; a thrown error lets the queue retry. */
export const deliverMailJob = defineJob({
  type: "mail.deliver",
  version: 1,
  payloadSchema: z.object({ mailId: z.uuid() }),
  async run(ctx, payload) {
    const result = await deliverMail(ctx, payload.mailId);
    return { processedItems: 1, successCount: result === "sent" ? 1 : 0, failureCount: 0 };
  },
});

/** Mail records (addresses, subjects, bodies with expired links) are kept this long, then deleted. */
export const MAIL_RETENTION_DAYS = 30;

/** Nightly: deletes mail records past the retention window, in bounded batches. Safe to run twice. */
export const pruneMailJob = defineJob({
  type: "mail.prune-old",
  version: 1,
  payloadSchema: z.object({ olderThanDays: z.number().int().min(1).max(3650) }),
  async run(ctx, payload) {
    const before = new Date(ctx.now().getTime() - payload.olderThanDays * 24 * 3600_000);
    let deleted = 0;
    for (let round = 0; round < 40; round++) {
      const changes = await deleteDeliveredMailBefore(ctx.db, before, 500);
      deleted += changes;
      if (changes < 500) break;
    }
    ctx.logger.info("pruned old mail records", { deleted });
    return { processedItems: deleted, successCount: deleted, failureCount: 0 };
  },
});
