import { pruneRoomAudit } from "~/features/datarooms/audit-retention.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { requireTeam, teamEvent } from "./team-access.server";
import { deleteTeamEventsBefore, insertTeamEvents, listTeamRoomIds, listTeamsToPrune, setTeamLegalHold, setTeamRetention } from "./teams.queries.server";
import { legalHoldSchema, retentionLabel, retentionSchema } from "./teams.schema";

/**
 * How long a team keeps its logs (issue 42, ADR 039): the owner and admins (`team.logs.manage`)
 * set a period in days (0 = forever) for the team's activity and the audit logs of its data rooms,
 * and place or release a legal hold that stops every cleanup. The nightly job prunes what is older;
 * a room's audit chain still verifies from the checkpoint its pruning recorded.
 */

const DAY_MS = 24 * 3600_000;


export async function setLogRetention(ctx: ServiceContext, userId: string, rawTeamId: unknown, input: unknown): Promise<{ days: number }> {
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.logs.manage");
  const { days } = parseInput(retentionSchema, input);
  if (days !== team.logRetentionDays) {
    await setTeamRetention(ctx.db, team.id, days, ctx.now(), await teamEvent(ctx, team.id, userId, "logs.retention", { detail: `${retentionLabel(team.logRetentionDays)} → ${retentionLabel(days)}` }));
  }
  return { days };
}

export async function placeLegalHold(ctx: ServiceContext, userId: string, rawTeamId: unknown, input: unknown): Promise<void> {
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.logs.manage");
  const { reason } = parseInput(legalHoldSchema, input);
  const placed = await setTeamLegalHold(ctx.db, team.id, { at: ctx.now(), by: userId, reason }, await teamEvent(ctx, team.id, userId, "logs.hold", { detail: reason }));
  if (!placed) throw new AppError("CONFLICT", "A legal hold is already placed on this team. Release it first to place another.");
}

export async function releaseLegalHold(ctx: ServiceContext, userId: string, rawTeamId: unknown): Promise<void> {
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.logs.manage");
  const released = await setTeamLegalHold(ctx.db, team.id, null, await teamEvent(ctx, team.id, userId, "logs.release", { detail: team.legalHoldReason || null }));
  if (!released) throw new AppError("CONFLICT", "No legal hold is placed on this team.");
}

const EVENTS_PER_ROUND = 500;
const MAX_ROUNDS = 40;

/**
 * The nightly cleanup: for each team with a period and no legal hold, its activity entries and its
 * rooms' audit entries older than the period go. Idempotent: a second run with the same clock
 * removes nothing. Returns how many entries went.
 */
export async function pruneTeamLogs(ctx: ServiceContext): Promise<{ teams: number; activity: number; audit: number }> {
  let activity = 0;
  let audit = 0;
  const due = await listTeamsToPrune(ctx.db);
  for (const team of due) {
    const cutoff = new Date(ctx.now().getTime() - team.logRetentionDays * DAY_MS);
    let events = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const removed = await deleteTeamEventsBefore(ctx.db, team.id, cutoff, EVENTS_PER_ROUND);
      events += removed;
      if (removed < EVENTS_PER_ROUND) break;
    }
    let entries = 0;
    for (const roomId of await listTeamRoomIds(ctx.db, team.id)) {
      entries += await pruneRoomAudit(ctx, roomId, cutoff, `the retention policy of the team “${team.name}” (${retentionLabel(team.logRetentionDays)})`);
    }
    if (events + entries > 0) {
      await insertTeamEvents(ctx.db, [
        await teamEvent(ctx, team.id, null, "logs.prune", { detail: `${events} activity ${events === 1 ? "entry" : "entries"} and ${entries} audit ${entries === 1 ? "entry" : "entries"} older than ${retentionLabel(team.logRetentionDays)}` }),
      ]);
    }
    activity += events;
    audit += entries;
  }
  ctx.logger.info("team logs pruned", { teams: due.length, activity, audit });
  return { teams: due.length, activity, audit };
}
