import { and, count, desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { localStripeObjects } from "~/db/schema";

/** The local payments driver's store: Stripe objects as JSON (development and tests only). */
export type StripeObject = Record<string, unknown> & { id: string };

export async function readLocalObject(db: Database, id: string): Promise<StripeObject | null> {
  const row = await db.select({ data: localStripeObjects.data }).from(localStripeObjects).where(eq(localStripeObjects.id, id)).get();
  return (row?.data as StripeObject | undefined) ?? null;
}

export async function writeLocalObject(db: Database, kind: string, object: StripeObject, customerId: string | null, now: Date): Promise<void> {
  await db
    .insert(localStripeObjects)
    .values({ id: object.id, kind, customerId, data: object, createdAt: now })
    .onConflictDoUpdate({ target: localStripeObjects.id, set: { data: object } })
    .run();
}

export async function listLocalObjects(db: Database, kind: string, customerId: string, limit: number): Promise<StripeObject[]> {
  const rows = await db
    .select({ data: localStripeObjects.data })
    .from(localStripeObjects)
    .where(and(eq(localStripeObjects.kind, kind), eq(localStripeObjects.customerId, customerId)))
    .orderBy(desc(localStripeObjects.createdAt), desc(localStripeObjects.id))
    .limit(limit)
    .all();
  return rows.map((row) => row.data as StripeObject);
}

export async function countLocalObjects(db: Database, kind: string, customerId: string): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(localStripeObjects)
    .where(and(eq(localStripeObjects.kind, kind), eq(localStripeObjects.customerId, customerId)))
    .get();
  return row?.n ?? 0;
}

/** Every object of a kind, newest first (the development lab's page). */
export async function listLocalObjectsOfKind(db: Database, kind: string, limit: number): Promise<StripeObject[]> {
  const rows = await db.select({ data: localStripeObjects.data }).from(localStripeObjects).where(eq(localStripeObjects.kind, kind)).orderBy(desc(localStripeObjects.createdAt)).limit(limit).all();
  return rows.map((row) => row.data as StripeObject);
}
