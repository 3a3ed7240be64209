import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { referralCodes, referrals, users } from "~/db/schema";

export async function findReferralCode(db: Database, userId: string): Promise<{ code: string; clicks: number } | undefined> {
  return db.select({ code: referralCodes.code, clicks: referralCodes.clicks }).from(referralCodes).where(eq(referralCodes.userId, userId)).get();
}

export async function findReferrerByCode(db: Database, code: string): Promise<{ userId: string; email: string } | undefined> {
  return db
    .select({ userId: referralCodes.userId, email: users.email })
    .from(referralCodes)
    .innerJoin(users, eq(users.id, referralCodes.userId))
    .where(eq(referralCodes.code, code))
    .get();
}

/** The member's code, once (a second writer keeps the first). */
export async function insertReferralCode(db: Database, userId: string, code: string, now: Date): Promise<void> {
  await db.insert(referralCodes).values({ userId, code, createdAt: now }).onConflictDoNothing().run();
}

export async function countReferralClick(db: Database, code: string): Promise<void> {
  await db
    .update(referralCodes)
    .set({ clicks: sql`${referralCodes.clicks} + 1` })
    .where(eq(referralCodes.code, code))
    .run();
}

export async function insertReferral(db: Database, row: typeof referrals.$inferInsert): Promise<void> {
  await db.insert(referrals).values(row).onConflictDoNothing().run();
}

export async function findReferralOf(db: Database, referredId: string) {
  return db.select().from(referrals).where(eq(referrals.referredId, referredId)).get();
}

/** The card fingerprints the referrer's other paid referrals used (a repeated card is refused). */
export async function listPaidFingerprints(db: Database, referrerId: string): Promise<string[]> {
  const rows = await db
    .select({ fingerprint: referrals.cardFingerprint })
    .from(referrals)
    .where(and(eq(referrals.referrerId, referrerId), eq(referrals.status, "paid")))
    .all();
  return rows.flatMap((row) => (row.fingerprint ? [row.fingerprint] : []));
}

/** signed_up → paid or refused, once: false when another run got there first. */
export async function settleReferral(db: Database, referredId: string, change: { status: "paid" | "refused"; refusal: string | null; paidAt: Date; cardFingerprint: string | null; creditCents: number | null; currency: string | null }): Promise<boolean> {
  const rows = await db
    .update(referrals)
    .set(change)
    .where(and(eq(referrals.referredId, referredId), eq(referrals.status, "signed_up")))
    .returning({ id: referrals.referredId });
  return rows.length > 0;
}

export async function markReferralCredited(db: Database, referredId: string, now: Date): Promise<void> {
  await db
    .update(referrals)
    .set({ creditedAt: now })
    .where(and(eq(referrals.referredId, referredId), isNull(referrals.creditedAt)))
    .run();
}

/** The referrer's page: everyone they brought, newest first, with their address. */
export async function listReferralsOf(db: Database, referrerId: string) {
  return db
    .select({
      referredId: referrals.referredId,
      email: users.email,
      status: referrals.status,
      refusal: referrals.refusal,
      signedUpAt: referrals.signedUpAt,
      paidAt: referrals.paidAt,
      creditCents: referrals.creditCents,
      currency: referrals.currency,
      creditedAt: referrals.creditedAt,
    })
    .from(referrals)
    .innerJoin(users, eq(users.id, referrals.referredId))
    .where(eq(referrals.referrerId, referrerId))
    .orderBy(desc(referrals.signedUpAt))
    .limit(200)
    .all();
}
