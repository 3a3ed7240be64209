import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { createServiceContext } from "~/lib/service-context.server";
import worker from "~workers/app";
import { testEnv } from "./helpers";

/** Batch operations in workerd: a captured queue, and delivery through the Worker's own consumer. */

export type Sent = { body: { jobId: string; type: string; version: number; payload: { operationId: string; chunk: number } } };

/** A service context whose queue is captured, so each message is delivered by the test, through the real consumer. */
export function capturing() {
  const sent: Sent[] = [];
  const queue = {
    send: async (body: Sent["body"]) => void sent.push({ body }),
    sendBatch: async (messages: Sent[]) => void sent.push(...messages),
  };
  const ctx = createServiceContext({ ...testEnv, BATCH_JOBS: queue as unknown as Queue }, { requestId: "test" });
  return { ctx, sent };
}

/** Delivers messages to the queue consumer (the Worker's own `queue` handler), as Queues would. */
export async function deliver(messages: Sent[], attempts = 1) {
  const batch = createMessageBatch(
    "batch-jobs",
    messages.map((message) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts, body: message.body })),
  );
  const execution = createExecutionContext();
  await worker.queue(batch, testEnv, execution);
  await waitOnExecutionContext(execution);
  return getQueueResult(batch, execution);
}
