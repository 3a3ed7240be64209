import type { z } from "zod";
import type { ServiceContext } from "~/lib/service-context.server";

export type JobResult = { processedItems: number; successCount: number; failureCount: number };

/**
 * A background job (Documenso's pattern): a stable type, a payload version, a zod payload
 * schema shared by producer and consumer, and the use case that runs it. `run` must be
 * idempotent: Queues deliver at least once and retry whole messages.
 */
export type JobDefinition<Payload> = {
  type: string;
  version: number;
  payloadSchema: z.ZodType<Payload>;
  /**
   * Many messages of one job (a batch operation's chunks): `run` moves the job's row itself, and
   * the consumer neither starts nor completes it (it still retries and finally fails it).
   */
  ownsJobState?: boolean;
  run: (ctx: ServiceContext & { jobId: string }, payload: Payload) => Promise<JobResult>;
  /**
   * Several messages of the same job delivered in one queue batch (a batch operation's chunks),
   * run together so set-based statements cover them all (G9). Acked or retried together.
   */
  runMany?: (ctx: ServiceContext & { jobId: string }, payloads: Payload[]) => Promise<JobResult>;
};

export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  return definition;
}
