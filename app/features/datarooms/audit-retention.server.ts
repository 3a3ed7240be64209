import type { ServiceContext } from "~/lib/service-context.server";
import { auditRoom } from "./audit-record.server";
import { findAuditCheckpoint, findLastAuditBefore, pruneAuditThrough } from "./audit.queries.server";
import { roomAuthority } from "./room-authority.server";

/**
 * Retention of a room's audit log (issue 42, ADR 039): entries recorded before a cutoff are
 * removed, and the chain still verifies. First the room records an `audit.prune` entry that names
 * the last entry to go (its seq and fingerprint); then one D1 batch moves the room's checkpoint to
 * that entry and deletes everything up to it. Verifying starts from the checkpoint and accepts it
 * only if a pruning entry in the chain names it. Running again with the same cutoff removes nothing.
 */

/** The words of the pruning entry that attest a checkpoint (verification looks for them). */
export function checkpointMark(seq: number, hash: string): string {
  return `continues from entry #${seq}, fingerprint ${hash}`;
}

/** Removes the room's entries recorded before `cutoff`; `policy` says whose rule it was. Returns how many went. */
export async function pruneRoomAudit(ctx: ServiceContext, roomId: string, cutoff: Date, policy: string): Promise<number> {
  const authority = roomAuthority(ctx, roomId);
  await authority.flushAudit();
  const [last, checkpoint] = await Promise.all([findLastAuditBefore(ctx.db, roomId, cutoff.getTime()), findAuditCheckpoint(ctx.db, roomId)]);
  if (!last || (checkpoint && last.seq <= checkpoint.seq)) return 0;
  const from = (checkpoint?.seq ?? 0) + 1;
  await auditRoom(
    ctx,
    roomId,
    null,
    {
      action: "audit.prune",
      target: { type: "room", id: roomId },
      detail: `Entries #${from}–#${last.seq}, recorded before ${cutoff.toISOString().slice(0, 10)}, removed under ${policy}. The log ${checkpointMark(last.seq, last.hash)}.`,
    },
    { required: true },
  );
  await authority.flushAudit();
  const removed = await pruneAuditThrough(ctx.db, roomId, last, ctx.now(), cutoff);
  ctx.logger.info("audit log pruned", { roomId, removed, through: last.seq });
  return removed;
}
