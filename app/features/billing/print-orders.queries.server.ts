import { and, desc, eq, inArray, isNull, like } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { files, printOrders, type PrintOrderStatus } from "~/db/schema";

export type PrintOrderRow = typeof printOrders.$inferSelect;

/** The pictures among `fileIds` that are live images in the folder (what may be printed from it). */
export async function listPrintableFiles(db: Database, folderId: string, fileIds: readonly string[]): Promise<{ id: string; name: string }[]> {
  if (fileIds.length === 0) return [];
  return db
    .select({ id: files.id, name: files.name })
    .from(files)
    .where(and(eq(files.folderId, folderId), inArray(files.id, [...fileIds]), isNull(files.trashedAt), like(files.contentType, "image/%")))
    .all();
}

export async function insertPrintOrder(db: Database, row: typeof printOrders.$inferInsert): Promise<void> {
  await db.insert(printOrders).values(row).run();
}

export async function findPrintOrder(db: Database, id: string): Promise<PrintOrderRow | undefined> {
  return db.select().from(printOrders).where(eq(printOrders.id, id)).get();
}

export async function findPrintOrderByLab(db: Database, labOrderId: string): Promise<PrintOrderRow | undefined> {
  return db.select().from(printOrders).where(eq(printOrders.labOrderId, labOrderId)).get();
}

export async function listPrintOrdersOf(db: Database, buyerId: string, limit: number): Promise<PrintOrderRow[]> {
  return db.select().from(printOrders).where(eq(printOrders.buyerId, buyerId)).orderBy(desc(printOrders.createdAt)).limit(limit).all();
}

export async function setCheckoutSession(db: Database, id: string, sessionId: string, now: Date): Promise<void> {
  await db.update(printOrders).set({ checkoutSessionId: sessionId, updatedAt: now }).where(eq(printOrders.id, id)).run();
}

/**
 * One step of the order's life, only from the status it must be in (`from`): false when another
 * delivery of the same news got there first, so each step (and its e-mail) happens once.
 */
export async function movePrintOrder(
  db: Database,
  order: PrintOrderRow,
  from: PrintOrderStatus,
  to: PrintOrderStatus,
  change: Partial<Pick<PrintOrderRow, "paymentIntentId" | "labOrderId" | "trackingUrl" | "failure">>,
  detail: string | null,
  now: Date,
): Promise<boolean> {
  const events = [...order.events, { at: now.toISOString(), status: to, detail }];
  const rows = await db
    .update(printOrders)
    .set({ ...change, status: to, events, updatedAt: now })
    .where(and(eq(printOrders.id, order.id), eq(printOrders.status, from)))
    .returning({ id: printOrders.id });
  return rows.length > 0;
}
