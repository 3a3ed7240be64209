import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { completeEnvelope } from "./seal-envelope.server";
import { expireAndRemind } from "./reminders.server";
import { purgeTemplatesTrash } from "./templates.server";

/** Seals an envelope once its last person has signed (enqueued by signing.server.ts). */
export const sealEnvelopeJob = defineJob({
  type: "signatures.seal",
  version: 1,
  payloadSchema: z.object({ envelopeId: z.string().min(1).max(64) }),
  async run(ctx, payload) {
    const outcome = await completeEnvelope(ctx, payload.envelopeId);
    return { processedItems: 1, successCount: outcome === "completed" ? 1 : 0, failureCount: 0 };
  },
});

/** Daily (cron): envelopes past their expiry close, recipients due a reminder get one, old trashed templates go. */
export const signatureRemindersJob = defineJob({
  type: "signatures.reminders",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const done = await expireAndRemind(ctx);
    // The templates' trash is emptied in the same pass (30 days, like files and forms).
    const purged = await purgeTemplatesTrash(ctx);
    ctx.logger.info("signatures.reminders", { ...done, purgedTemplates: purged });
    return { processedItems: done.expired + done.reminded + purged, successCount: done.expired + done.reminded + purged, failureCount: 0 };
  },
});
