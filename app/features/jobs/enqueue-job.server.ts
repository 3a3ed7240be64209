import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import type { JobDefinition } from "./job-definition";
import { findJobById, insertJobIfAbsent } from "./jobs.queries.server";
import { jobPriorities, type JobMessage, type JobPriority } from "./jobs.schema";

const terminalStatuses = new Set(["completed", "failed", "cancelled"]);

/**
 * Records the job, then sends its message. With a deterministic `jobId` the call is idempotent:
 * a finished job is not sent again, an unfinished one is re-sent (the consumer skips duplicates).
 */
export async function enqueueJob<Payload>(
  ctx: ServiceContext,
  input: {
    definition: JobDefinition<Payload>;
    payload: Payload;
    jobId?: string;
    priority?: JobPriority;
    totalItems?: number;
    metadata?: Record<string, unknown>;
    delaySeconds?: number;
  },
): Promise<{ jobId: string; isNew: boolean }> {
  const payload = parseInput(input.definition.payloadSchema, input.payload);
  const jobId = input.jobId ?? crypto.randomUUID();
  const isNew = await insertJobIfAbsent(ctx.db, {
    id: jobId,
    type: input.definition.type,
    priority: jobPriorities[input.priority ?? "normal"],
    totalItems: input.totalItems ?? 0,
    metadata: input.metadata ?? {},
    userId: ctx.actor?.userId ?? null,
    now: ctx.now(),
  });
  if (!isNew) {
    const existing = await findJobById(ctx.db, jobId);
    if (!existing) throw new AppError("CONFLICT", "The job could not be recorded. Please try again.");
    if (existing.type !== input.definition.type) throw new AppError("CONFLICT", "A different job already uses that id.");
    if (terminalStatuses.has(existing.status)) return { jobId, isNew: false };
  }
  const message: JobMessage = { jobId, type: input.definition.type, version: input.definition.version, payload };
  await ctx.env.BATCH_JOBS.send(message, { contentType: "json", delaySeconds: input.delaySeconds });
  ctx.logger.info("job enqueued", { jobId, type: input.definition.type, isNew });
  return { jobId, isNew };
}
