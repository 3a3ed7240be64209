import { and, asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { tiers, userAddons, userPermissions, users } from "~/db/schema";

export type TierRow = typeof tiers.$inferSelect;

export async function listTierRows(db: Database): Promise<TierRow[]> {
  return db.select().from(tiers).orderBy(asc(tiers.sortOrder)).all();
}

/** The member's tier row, addons and explicit grants in one D1 round trip (db.batch). */
export async function loadAccessRows(db: Database, userId: string) {
  const [tierRows, addonRows, grantRows] = await db.batch([
    db.select({ tier: tiers }).from(users).innerJoin(tiers, eq(tiers.name, users.tier)).where(eq(users.id, userId)),
    db.select({ addon: userAddons.addon, quantity: userAddons.quantity }).from(userAddons).where(eq(userAddons.userId, userId)),
    db
      .select({ scope: userPermissions.scope, permission: userPermissions.permission, value: userPermissions.value })
      .from(userPermissions)
      .where(eq(userPermissions.userId, userId)),
  ]);
  return { tier: tierRows[0]?.tier ?? null, addons: addonRows, grants: grantRows };
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

/** Account deletion: the member's add-ons and grants (the users row cascade would also remove them). */
export async function deleteUserAccessRows(db: Database, userId: string): Promise<void> {
  await db.batch([db.delete(userAddons).where(eq(userAddons.userId, userId)), db.delete(userPermissions).where(eq(userPermissions.userId, userId))]);
}
