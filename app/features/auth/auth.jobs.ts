import { z } from "zod";
import { defineJob } from "~/features/jobs/job-definition";

/** Expired e-mail links and codes are kept this long (for support questions), then deleted. */
export const AUTH_TOKEN_RETENTION_DAYS = 7;

/**
 * Nightly: deletes expired sessions (validation already refuses them; this keeps the table
 * small) and e-mail tokens that expired more than a week ago. Safe to run twice: it only deletes.
 */
export const pruneAuthRecordsJob = defineJob({
  type: "accounts.prune-expired",
  version: 1,
  payloadSchema: z.object({ tokenRetentionDays: z.number().int().min(1).max(365) }),
  async run(ctx, payload) {
    const { deleteExpiredSessions, deleteStaleAuthTokens } = await import("./auth.queries.server");
    const now = ctx.now();
    const sessions = await deleteExpiredSessions(ctx.db, now);
    const tokens = await deleteStaleAuthTokens(ctx.db, new Date(now.getTime() - payload.tokenRetentionDays * 24 * 3600_000));
    ctx.logger.info("pruned expired sessions and tokens", { sessions, tokens });
    return { processedItems: sessions + tokens, successCount: sessions + tokens, failureCount: 0 };
  },
});
