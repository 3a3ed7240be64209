import { failDeadLetteredJob, runJobMessage } from "~/features/jobs/run-job.server";
import { createLogger, describeError } from "~/lib/log.server";
import { createServiceContext } from "~/lib/service-context.server";

export const DEAD_LETTER_SUFFIX = "-dlq";

/**
 * Queue consumer: parse → dispatch → ack or retry, one message at a time (D1 runs one query at a
 * time per database anyway). Every message is settled individually so one failure never
 * replays the whole batch.
 */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const isDeadLetterQueue = batch.queue.endsWith(DEAD_LETTER_SUFFIX);
  for (const message of batch.messages) {
    const requestId = `queue:${message.id}`;
    const logger = createLogger({ requestId, queue: batch.queue, attempts: message.attempts });
    const ctx = createServiceContext(env, { requestId, logger });
    try {
      if (isDeadLetterQueue) {
        await failDeadLetteredJob(ctx, message.body);
        message.ack();
        continue;
      }
      const result = await runJobMessage(ctx, message.body, message.attempts);
      if (result.outcome === "retry") message.retry({ delaySeconds: result.delaySeconds });
      else message.ack();
    } catch (error) {
      // Bookkeeping itself failed (e.g. D1 unavailable): let the queue redeliver this message.
      logger.error("queue message could not be settled", describeError(error));
      message.retry({ delaySeconds: 5 });
    }
  }
}
