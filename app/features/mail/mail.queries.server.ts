import { and, desc, eq, inArray, lt, notInArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";

export type MailRow = typeof mailOutbox.$inferSelect;

/** Records a message; false when one with its id is there already (sent once). */
export async function insertMail(db: Database, row: typeof mailOutbox.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(mailOutbox).values(row).onConflictDoNothing().returning({ id: mailOutbox.id });
  return inserted.length > 0;
}

export async function findMail(db: Database, id: string): Promise<MailRow | undefined> {
  return db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).get();
}

export async function listRecentMail(db: Database, limit: number, to?: string): Promise<MailRow[]> {
  const query = db.select().from(mailOutbox);
  const filtered = to ? query.where(eq(mailOutbox.toAddress, to)) : query;
  return filtered.orderBy(desc(mailOutbox.createdAt)).limit(limit).all();
}

/** Claims a queued message for delivery; a duplicate queue delivery finds it already sent. */
export async function markMailSent(db: Database, id: string, now: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: "sent", sentAt: now })
    .where(and(eq(mailOutbox.id, id), inArray(mailOutbox.status, ["queued", "failed"])))
    .run();
}

export async function markMailAttemptFailed(db: Database, id: string, attempts: number, error: string): Promise<void> {
  await db.update(mailOutbox).set({ status: "failed", attempts, lastError: error.slice(0, 500) }).where(eq(mailOutbox.id, id)).run();
}

/** Erases a member's mail records (account deletion), keeping the templates still to be delivered. */
export async function deleteMailForUser(db: Database, userId: string, keepTemplates: string[]): Promise<number> {
  const where = keepTemplates.length
    ? and(eq(mailOutbox.userId, userId), notInArray(mailOutbox.template, keepTemplates))
    : eq(mailOutbox.userId, userId);
  const result = await db.delete(mailOutbox).where(where).run();
  return result.meta.changes;
}

/** Mail records older than the retention window that are no longer waiting for delivery. */
export async function deleteDeliveredMailBefore(db: Database, before: Date, limit: number): Promise<number> {
  const stale = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(lt(mailOutbox.createdAt, before), inArray(mailOutbox.status, ["stored", "sent", "failed"])))
    .limit(limit);
  const result = await db.delete(mailOutbox).where(inArray(mailOutbox.id, stale)).run();
  return result.meta.changes;
}
