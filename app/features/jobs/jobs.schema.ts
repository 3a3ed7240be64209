import { z } from "zod";

/**
 * The queue message envelope (≤ 128 KB; ids only, never file contents). `type` picks the job
 * definition, `version` lets a definition change its payload without breaking messages in flight.
 */
export const jobMessageSchema = z.object({
  jobId: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  version: z.number().int().positive(),
  payload: z.unknown(),
});
export type JobMessage = z.infer<typeof jobMessageSchema>;

export const jobPriorities = { low: 0, normal: 1, high: 2, critical: 3 } as const;
export type JobPriority = keyof typeof jobPriorities;

/** Retry policy of spec §9 "Batch": base 1000 ms doubled each time, capped at 30 000 ms. */
export const JOB_MAX_RETRIES = 3;
export function retryDelaySeconds(attempt: number): number {
  const ms = Math.min(1000 * 2 ** Math.max(0, attempt - 1), 30_000);
  return Math.ceil(ms / 1000);
}
