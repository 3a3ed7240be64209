import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { billingAccounts, billingEvents, memberTrials, userAddons, users } from "~/db/schema";

export type BillingAccountRow = typeof billingAccounts.$inferSelect;

export async function findBillingAccount(db: Database, userId: string): Promise<BillingAccountRow | undefined> {
  return db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId)).get();
}

export async function findBillingAccountByCustomer(db: Database, customerId: string): Promise<BillingAccountRow | undefined> {
  return db.select().from(billingAccounts).where(eq(billingAccounts.customerId, customerId)).get();
}

/** The member's Stripe customer, once (a second writer keeps the first: the caller reads it back). */
export async function insertBillingAccount(db: Database, userId: string, customerId: string, now: Date): Promise<void> {
  await db.insert(billingAccounts).values({ userId, customerId, createdAt: now }).onConflictDoNothing().run();
}

export type Entitlement = {
  userId: string;
  /** The paid tier (free without a live subscription). */
  tier: string;
  addons: Record<string, number>;
  /** Trials of these tiers end now: the paid tier covers them. */
  coveredTrialTiers: string[];
  snapshot: Pick<BillingAccountRow, "subscriptionId" | "status" | "tier" | "interval" | "addons" | "currentPeriodEnd" | "cancelAtPeriodEnd" | "nextAmount" | "currency">;
};

/**
 * What Stripe said, written in one batch: the member's tier and add-ons (the access layer reads
 * them), the subscription's snapshot, and the end of a trial the plan now covers. Writing the same
 * answer twice leaves the same rows.
 */
export async function writeEntitlement(db: Database, entitlement: Entitlement, now: Date): Promise<void> {
  const { userId } = entitlement;
  const addonRows = Object.entries(entitlement.addons)
    .filter(([, quantity]) => quantity > 0)
    .map(([addon, quantity]) => ({ userId, addon, quantity, updatedAt: now }));
  await db.batch([
    db.update(users).set({ tier: entitlement.tier, updatedAt: now }).where(eq(users.id, userId)),
    db.delete(userAddons).where(eq(userAddons.userId, userId)),
    ...(addonRows.length > 0 ? [db.insert(userAddons).values(addonRows)] : []),
    db
      .update(billingAccounts)
      .set({ ...entitlement.snapshot, syncedAt: now })
      .where(eq(billingAccounts.userId, userId)),
    ...(entitlement.coveredTrialTiers.length > 0
      ? [db.update(memberTrials).set({ endedAt: now }).where(and(eq(memberTrials.userId, userId), isNull(memberTrials.endedAt), inArray(memberTrials.tier, entitlement.coveredTrialTiers)))]
      : []),
  ]);
}

export async function isEventRecorded(db: Database, eventId: string): Promise<boolean> {
  return Boolean(await db.select({ id: billingEvents.eventId }).from(billingEvents).where(eq(billingEvents.eventId, eventId)).get());
}

export async function recordEvent(db: Database, eventId: string, type: string, customerId: string | null, now: Date): Promise<void> {
  await db.insert(billingEvents).values({ eventId, type, customerId, receivedAt: now }).onConflictDoNothing().run();
}
