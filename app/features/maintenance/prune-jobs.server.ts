import { deleteFinishedJobsBefore } from "~/features/jobs/jobs.queries.server";
import type { ServiceContext } from "~/lib/service-context.server";

export const PRUNE_BATCH_SIZE = 500;
const MAX_ROUNDS = 40;

/**
 * Deletes finished job records (completed, failed, cancelled) older than the retention window,
 * in bounded batches so no single D1 statement grows. Safe to run twice: it only deletes.
 */
export async function pruneFinishedJobs(ctx: ServiceContext, input: { olderThanDays: number }): Promise<number> {
  const before = new Date(ctx.now().getTime() - input.olderThanDays * 24 * 60 * 60 * 1000);
  let deleted = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const changes = await deleteFinishedJobsBefore(ctx.db, before, PRUNE_BATCH_SIZE);
    deleted += changes;
    if (changes < PRUNE_BATCH_SIZE) break;
  }
  ctx.logger.info("pruned finished jobs", { deleted, olderThanDays: input.olderThanDays });
  return deleted;
}
