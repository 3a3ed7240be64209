import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { memberTrials, users } from "~/db/schema";

/** Free trials: the only place drizzle is called for them. */

export type TrialRow = typeof memberTrials.$inferSelect;

export async function findTrial(db: Database, userId: string): Promise<TrialRow | undefined> {
  return db.select().from(memberTrials).where(eq(memberTrials.userId, userId)).get();
}

/** Starts the member's one trial; false when they have had one (the primary key keeps it to one, also for two clicks at once). */
export async function insertTrial(db: Database, row: typeof memberTrials.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(memberTrials).values(row).onConflictDoNothing().returning({ userId: memberTrials.userId });
  return inserted.length > 0;
}

/** Open trials ending by `until` that were not reminded yet, with their member's address. */
export async function listTrialsToRemind(db: Database, now: Date, until: Date, limit: number) {
  return db
    .select({ userId: memberTrials.userId, tier: memberTrials.tier, endsAt: memberTrials.endsAt, name: users.name, email: users.email })
    .from(memberTrials)
    .innerJoin(users, eq(users.id, memberTrials.userId))
    .where(and(isNull(memberTrials.endedAt), isNull(memberTrials.remindedAt), sql`${memberTrials.endsAt} > ${now.getTime()}`, lte(memberTrials.endsAt, until)))
    .limit(limit)
    .all();
}

/** Open trials past their end, with their member's address. */
export async function listTrialsToEnd(db: Database, now: Date, limit: number) {
  return db
    .select({ userId: memberTrials.userId, tier: memberTrials.tier, endsAt: memberTrials.endsAt, name: users.name, email: users.email, paidTier: users.tier })
    .from(memberTrials)
    .innerJoin(users, eq(users.id, memberTrials.userId))
    .where(and(isNull(memberTrials.endedAt), lte(memberTrials.endsAt, now)))
    .limit(limit)
    .all();
}

/** Marks the reminder sent; false when another run did it first. */
export async function markTrialReminded(db: Database, userId: string, now: Date): Promise<boolean> {
  const rows = await db.update(memberTrials).set({ remindedAt: now }).where(and(eq(memberTrials.userId, userId), isNull(memberTrials.remindedAt))).returning({ userId: memberTrials.userId });
  return rows.length > 0;
}

/** Closes the trial; false when it was closed already. */
export async function markTrialEnded(db: Database, userId: string, now: Date): Promise<boolean> {
  const rows = await db.update(memberTrials).set({ endedAt: now }).where(and(eq(memberTrials.userId, userId), isNull(memberTrials.endedAt))).returning({ userId: memberTrials.userId });
  return rows.length > 0;
}
