import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";
import { completeEnvelope } from "./seal-envelope.server";
import { expireAndRemind } from "./reminders.server";

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

/** Nightly (cron): envelopes past their expiry close, and recipients due a reminder get one. */
export const signatureRemindersJob = defineJob({
  type: "signatures.reminders",
  version: 1,
  payloadSchema: z.object({}),
  async run(ctx) {
    const done = await expireAndRemind(ctx);
    ctx.logger.info("signatures.reminders", done);
    return { processedItems: done.expired + done.reminded, successCount: done.expired + done.reminded, failureCount: 0 };
  },
});
