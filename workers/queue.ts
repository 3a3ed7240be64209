import { failDeadLetteredJob, jobGroupKey, runJobMessages } from "~/features/jobs/run-job.server";
import { createLogger, describeError } from "~/lib/log.server";
import { createServiceContext } from "~/lib/service-context.server";

export const DEAD_LETTER_SUFFIX = "-dlq";

/**
 * Queue consumer: parse → dispatch → ack or retry (D1 runs one query at a time per database
 * anyway). Messages of the same job whose definition takes many at once (a batch operation's
 * chunks) run together, so its set-based statements cover them all; every other message runs
 * alone. Each message is settled individually, so one failure never replays the whole batch.
 */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const isDeadLetterQueue = batch.queue.endsWith(DEAD_LETTER_SUFFIX);
  const groups = new Map<string, Message<unknown>[]>();
  for (const message of batch.messages) {
    const key = (isDeadLetterQueue ? null : jobGroupKey(message.body)) ?? `message:${message.id}`;
    groups.set(key, [...(groups.get(key) ?? []), message]);
  }
  for (const messages of groups.values()) {
    const first = messages[0]!;
    const attempts = Math.max(...messages.map((message) => message.attempts));
    const requestId = `queue:${first.id}`;
    const logger = createLogger({ requestId, queue: batch.queue, attempts, messages: messages.length });
    const ctx = createServiceContext(env, { requestId, logger });
    try {
      if (isDeadLetterQueue) {
        await failDeadLetteredJob(ctx, first.body);
        first.ack();
        continue;
      }
      const result = await runJobMessages(ctx, messages.map((message) => message.body), attempts);
      for (const message of messages) {
        if (result.outcome === "retry") message.retry({ delaySeconds: result.delaySeconds });
        else message.ack();
      }
    } catch (error) {
      // Bookkeeping itself failed (e.g. D1 unavailable): let the queue redeliver these messages.
      logger.error("queue message could not be settled", describeError(error));
      for (const message of messages) message.retry({ delaySeconds: 5 });
    }
  }
}
