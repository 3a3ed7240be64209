import { z } from "zod";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { defineJob } from "~/features/jobs/job-definition";
import type { ServiceContext } from "~/lib/service-context.server";
import { DECISION_EVENT, ENVELOPE_EVENT, FORM_EVENT } from "./workflows.schema";
import { findRun } from "./workflows.queries.server";

/**
 * Telling a waiting run (issue 41, ADR 035): what it waits on is already in our tables (a decided
 * task, an answered form, a finished envelope); the engine's event only wakes it to read them. A
 * person's request never waits on the engine for long, and an event that could not be sent is sent
 * again by a job (at least once: the run reads our tables when woken, so a second event changes nothing).
 */

export type RunEvent = { type: typeof DECISION_EVENT | typeof ENVELOPE_EVENT | typeof FORM_EVENT; payload: Record<string, string> };

/** How long a request waits for the engine to take an event before a job sends it instead. */
export const RUN_EVENT_WAIT_MS = 3_000;

const EVENT_TYPES = [DECISION_EVENT, ENVELOPE_EVENT, FORM_EVENT] as const;

/** Sends an event to a run that is still going (one that ended needs none). */
export const sendRunEventJob = defineJob({
  type: "workflows.send-event",
  version: 1,
  payloadSchema: z.object({ runId: z.string().min(1).max(64), type: z.enum(EVENT_TYPES), payload: z.record(z.string(), z.string().max(200)) }),
  async run(ctx, event) {
    const run = await findRun(ctx.db, event.runId);
    if (run?.status !== "running") return { processedItems: 1, successCount: 0, failureCount: 0 };
    await (await ctx.env.WORKFLOW_RUNS.get(event.runId)).sendEvent({ type: event.type, payload: event.payload });
    return { processedItems: 1, successCount: 1, failureCount: 0 };
  },
});

/** Wakes the run: at once when the engine answers within {@link RUN_EVENT_WAIT_MS}, otherwise by a job retried until it is delivered. */
export async function tellRun(ctx: ServiceContext, runId: string, event: RunEvent, key: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const sent = (async () => (await ctx.env.WORKFLOW_RUNS.get(runId)).sendEvent(event))();
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the engine did not take the event within ${RUN_EVENT_WAIT_MS} ms`)), RUN_EVENT_WAIT_MS)));
    await Promise.race([sent, late]);
  } catch (error) {
    ctx.logger.warn("workflows.event_deferred", { runId, type: event.type, error: error instanceof Error ? error.message : String(error) });
    await enqueueJob(ctx, { definition: sendRunEventJob, payload: { runId, ...event }, jobId: `${sendRunEventJob.type}:${runId}:${event.type}:${key}` });
  } finally {
    clearTimeout(timer);
  }
}
