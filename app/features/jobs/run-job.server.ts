import { AppError } from "~/lib/errors";
import { describeError } from "~/lib/log.server";
import type { ServiceContext } from "~/lib/service-context.server";
import {
  markJobCompleted,
  markJobFailed,
  markJobProcessing,
  recordJobAttemptFailure,
} from "./jobs.queries.server";
import { JOB_MAX_RETRIES, jobMessageSchema, retryDelaySeconds } from "./jobs.schema";
import { findJobDefinition } from "./registry.server";

export type JobOutcome =
  | { outcome: "completed" }
  | { outcome: "skipped" }
  | { outcome: "invalid" }
  | { outcome: "failed"; message: string }
  | { outcome: "retry"; delaySeconds: number };

/**
 * The key under which messages of one queue batch run together: the same job, type and version
 * of a definition that takes many payloads at once (`runMany`). Null: the message runs alone.
 */
export function jobGroupKey(body: unknown): string | null {
  const envelope = jobMessageSchema.safeParse(body);
  if (!envelope.success) return null;
  const definition = findJobDefinition(envelope.data.type);
  if (!definition?.runMany || definition.version !== envelope.data.version) return null;
  return `${envelope.data.type}:${envelope.data.version}:${envelope.data.jobId}`;
}

/** Runs one queue message. */
export async function runJobMessage(ctx: ServiceContext, body: unknown, attempts: number): Promise<JobOutcome> {
  return runJobMessages(ctx, [body], attempts);
}

/**
 * Runs one queue message, or several of the same job grouped by `jobGroupKey` (their outcome is
 * shared). Never throws for bad input: a malformed message is acknowledged and logged (retrying
 * it cannot help), a job whose row is already finished is skipped, and a failing run is retried
 * with backoff until JOB_MAX_RETRIES, then marked failed.
 */
export async function runJobMessages(ctx: ServiceContext, bodies: readonly unknown[], attempts: number): Promise<JobOutcome> {
  const envelopes = bodies.map((body) => jobMessageSchema.safeParse(body));
  const first = envelopes[0];
  if (!first?.success || envelopes.some((envelope) => !envelope.success || envelope.data.jobId !== first.data.jobId || envelope.data.type !== first.data.type)) {
    ctx.logger.warn("discarded malformed job message", { messages: bodies.length });
    return { outcome: "invalid" };
  }
  const { jobId, type, version } = first.data;
  const fail = async (message: string): Promise<JobOutcome> => {
    await markJobFailed(ctx.db, jobId, ctx.now(), message);
    ctx.logger.warn("job failed", { jobId, type, reason: message });
    return { outcome: "failed", message };
  };

  const definition = findJobDefinition(type);
  if (!definition) return fail(`Unsupported operation type: ${type}`);
  if (definition.version !== version) return fail(`Unsupported version ${version} of ${type}.`);
  const payloads: unknown[] = [];
  for (const envelope of envelopes) {
    const payload = definition.payloadSchema.safeParse(envelope.data!.payload);
    if (!payload.success) return fail("The job's payload is not valid.");
    payloads.push(payload.data);
  }

  const isRunnable = definition.ownsJobState || (await markJobProcessing(ctx.db, jobId, ctx.now()));
  if (!isRunnable) {
    ctx.logger.info("job skipped: already finished, paused or unknown", { jobId, type });
    return { outcome: "skipped" };
  }

  try {
    const jobCtx = { ...ctx, jobId };
    const result = payloads.length > 1 && definition.runMany ? await definition.runMany(jobCtx, payloads) : await definition.run(jobCtx, payloads[0]);
    if (!definition.ownsJobState) await markJobCompleted(ctx.db, jobId, ctx.now(), result);
    ctx.logger.info("job completed", { jobId, type, messages: payloads.length, ...result });
    return { outcome: "completed" };
  } catch (error) {
    const message = error instanceof AppError ? error.message : "The job stopped unexpectedly.";
    ctx.logger.error("job attempt failed", { jobId, type, attempts, ...describeError(error) });
    if (attempts > JOB_MAX_RETRIES) return fail(message);
    await recordJobAttemptFailure(ctx.db, jobId, ctx.now(), message);
    return { outcome: "retry", delaySeconds: retryDelaySeconds(attempts) };
  }
}

/** A message that exhausted the queue's own retries: its job is marked failed, once. */
export async function failDeadLetteredJob(ctx: ServiceContext, body: unknown): Promise<void> {
  const envelope = jobMessageSchema.safeParse(body);
  if (!envelope.success) {
    ctx.logger.warn("discarded malformed dead-lettered message");
    return;
  }
  const changed = await markJobFailed(ctx.db, envelope.data.jobId, ctx.now(), "The job gave up after repeated failures.");
  ctx.logger.warn("dead-lettered job", { jobId: envelope.data.jobId, type: envelope.data.type, changed });
}
