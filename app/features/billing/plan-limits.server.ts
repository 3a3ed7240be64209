import { TIER_LABELS, UNLIMITED } from "~/features/access/access.constants";
import { forgetMemberAccess, loadMemberAccess, type MemberAccess } from "~/features/access/access.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { previewPlanChange } from "./plan-change.server";
import { hasOverPlan, listOverPlanOwnersOf, listOwnedLiveRooms, listOwnersOverPlan, writeOverPlan } from "./plan-limits.queries.server";

/**
 * Over the plan means read-only (issue 43, ADR 044): nothing is deleted when a plan gets smaller
 * (a downgrade, an add-on removed, a trial's end, a cancelled subscription); what is over its
 * limits only reads until it fits again. Over: the owner's data rooms beyond the plan's number
 * (the newest; the oldest ones the plan holds stay writable), and any space — a room, the
 * owner's files, a team's drive — over its storage, files, folders, members or guests. The file
 * layer reads it as the effective role "over_plan", the rooms' services through
 * `assertRoomWritable`: every write path refuses, every read still works.
 */

/** Looks at the owner's things against their plan now and marks what is over (or writable again). */
export async function applyPlanLimits(ctx: ServiceContext, ownerId: string): Promise<{ overPlan: string[] }> {
  forgetMemberAccess(ctx, ownerId);
  const access = await loadMemberAccess(ctx, ownerId);
  const [{ over }, rooms] = await Promise.all([previewPlanChange(ctx, ownerId, access.tier, access.addons), listOwnedLiveRooms(ctx.db, ownerId)]);
  const reasons = new Map<string, string[]>();
  const add = (spaceId: string, text: string) => reasons.set(spaceId, [...(reasons.get(spaceId) ?? []), text]);
  const limit = access.limits.max_datarooms;
  if (limit !== UNLIMITED && rooms.length > limit) {
    const text = `${rooms.length} data rooms; ${TIER_LABELS[access.tier]} allows ${limit}`;
    for (const room of rooms.slice(Math.max(0, limit))) add(room.id, text);
  }
  for (const item of over) if (item.spaceId) add(item.spaceId, item.text);
  const marked = new Map([...reasons].map(([id, texts]) => [id, texts.join("; ")]));
  await writeOverPlan(ctx.db, ownerId, marked, ctx.now());
  // What the access snapshot says of it (its over-plan list) is read again on the next look.
  forgetMemberAccess(ctx, ownerId);
  if (marked.size > 0) ctx.logger.info("spaces over the plan are read-only", { ownerId, spaces: marked.size });
  return { overPlan: [...marked.keys()] };
}

/** What of the owner's is read-only over their plan (Settings: subscription, the API): read with their plan. */
export async function listReadOnlyOverPlan(ctx: ServiceContext, ownerId: string): Promise<NonNullable<MemberAccess["overPlan"]>> {
  return (await loadMemberAccess(ctx, ownerId)).overPlan ?? [];
}

/** Nightly: owners with read-only things are looked at again (what was deleted may now fit). */
export async function reviewOwnersOverPlan(ctx: ServiceContext): Promise<{ owners: number; stillOver: number }> {
  let stillOver = 0;
  const owners = await listOwnersOverPlan(ctx.db, 500);
  for (const ownerId of owners) if ((await applyPlanLimits(ctx, ownerId)).overPlan.length > 0) stillOver += 1;
  return { owners: owners.length, stillOver };
}

/** After the owner made room (a room deleted): look again, only when something of theirs is read-only. */
export async function reapplyPlanLimitsIfOver(ctx: ServiceContext, ownerId: string): Promise<void> {
  if (await hasOverPlan(ctx.db, ownerId)) await applyPlanLimits(ctx, ownerId);
}

/** After something was deleted from spaces: those read-only over their plan are looked at again (they may fit now). */
export async function reapplyPlanLimitsForSpaces(ctx: ServiceContext, spaceIds: Iterable<string>): Promise<void> {
  for (const ownerId of await listOverPlanOwnersOf(ctx.db, [...new Set(spaceIds)])) await applyPlanLimits(ctx, ownerId);
}
