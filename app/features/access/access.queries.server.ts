import { and, asc, desc, eq, gt, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { memberTrials, printOrders, referralCodes, referrals, spaces, tiers, userAddons, userPermissions, users } from "~/db/schema";

export type TierRow = typeof tiers.$inferSelect;

export async function listTierRows(db: Database): Promise<TierRow[]> {
  return db.select().from(tiers).orderBy(asc(tiers.sortOrder)).all();
}

/**
 * The member's tier row, addons and explicit grants in one D1 round trip (db.batch). The tier is
 * the higher of the one they pay for (`users.tier`) and a free trial running at `now` (ADR 043).
 */
export async function loadAccessRows(db: Database, userId: string, now: Date) {
  const trialTier = sql`(SELECT t.tier FROM member_trials t WHERE t.user_id = ${users.id} AND t.ends_at > ${now.getTime()} AND t.ended_at IS NULL)`;
  const [tierRows, addonRows, grantRows, trialRows, overPlanRows] = await db.batch([
    db
      .select({ tier: tiers })
      .from(users)
      .innerJoin(tiers, or(eq(tiers.name, users.tier), eq(tiers.name, trialTier)))
      .where(eq(users.id, userId))
      .orderBy(desc(tiers.sortOrder))
      .limit(1),
    db.select({ addon: userAddons.addon, quantity: userAddons.quantity }).from(userAddons).where(eq(userAddons.userId, userId)),
    db
      .select({ scope: userPermissions.scope, permission: userPermissions.permission, value: userPermissions.value })
      .from(userPermissions)
      .where(eq(userPermissions.userId, userId)),
    db
      .select({ tier: memberTrials.tier, endsAt: memberTrials.endsAt })
      .from(memberTrials)
      .where(and(eq(memberTrials.userId, userId), isNull(memberTrials.endedAt), gt(memberTrials.endsAt, now))),
    // What of theirs only reads over their plan (issue 43): the attention feed and pages read it here, no round trip of its own.
    db
      .select({ id: spaces.id, kind: spaces.kind, name: spaces.name, reason: spaces.overPlanReason, since: spaces.overPlanAt })
      .from(spaces)
      .where(and(eq(spaces.ownerId, userId), isNotNull(spaces.overPlanAt)))
      .orderBy(asc(spaces.name))
      .limit(20),
  ]);
  return {
    tier: tierRows[0]?.tier ?? null,
    addons: addonRows,
    grants: grantRows,
    trial: trialRows[0] ?? null,
    overPlan: overPlanRows.map((row) => ({ ...row, since: row.since! })),
  };
}

export async function upsertUserAddon(db: Database, userId: string, addon: string, quantity: number, now: Date): Promise<void> {
  await db
    .insert(userAddons)
    .values({ userId, addon, quantity, updatedAt: now })
    .onConflictDoUpdate({ target: [userAddons.userId, userAddons.addon], set: { quantity, updatedAt: now } })
    .run();
}

export async function deleteUserAddon(db: Database, userId: string, addon: string): Promise<void> {
  await db.delete(userAddons).where(and(eq(userAddons.userId, userId), eq(userAddons.addon, addon))).run();
}

/** Account deletion: the member's add-ons, grants, trial and referrals (the users row cascade would also remove them). */
export async function deleteUserAccessRows(db: Database, userId: string): Promise<void> {
  await db.batch([
    db.delete(userAddons).where(eq(userAddons.userId, userId)),
    db.delete(userPermissions).where(eq(userPermissions.userId, userId)),
    db.delete(memberTrials).where(eq(memberTrials.userId, userId)),
    db.delete(referralCodes).where(eq(referralCodes.userId, userId)),
    db.delete(referrals).where(or(eq(referrals.referredId, userId), eq(referrals.referrerId, userId))),
    db.delete(printOrders).where(eq(printOrders.buyerId, userId)),
  ]);
}
