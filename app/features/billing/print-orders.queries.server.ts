import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, like, lt, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { files, folders, printOrders, shareLinks, type PrintOrderStatus } from "~/db/schema";

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

/** Orders whose next step depends on news from Stripe or the lab: paid, at the lab, or created with a checkout since `since`; least recently moved first. */
export async function listOpenPrintOrders(db: Database, since: Date, limit: number): Promise<PrintOrderRow[]> {
  return db
    .select()
    .from(printOrders)
    .where(or(inArray(printOrders.status, ["paid", "sent"]), and(eq(printOrders.status, "created"), isNotNull(printOrders.checkoutSessionId), gt(printOrders.createdAt, since))))
    .orderBy(asc(printOrders.updatedAt))
    .limit(limit)
    .all();
}

export async function listPrintOrdersOf(db: Database, buyerId: string, limit: number): Promise<PrintOrderRow[]> {
  return db.select().from(printOrders).where(eq(printOrders.buyerId, buyerId)).orderBy(desc(printOrders.createdAt)).limit(limit).all();
}

/** Visitors' orders from the public galleries the member published (their links), newest first, with the gallery's name. */
export async function listPrintOrdersFromLinksOf(db: Database, userId: string, limit: number): Promise<(PrintOrderRow & { gallery: string | null })[]> {
  const rows = await db
    .select({ order: printOrders, gallery: folders.label })
    .from(printOrders)
    .innerJoin(shareLinks, eq(shareLinks.id, printOrders.shareLinkId))
    .leftJoin(folders, eq(folders.id, printOrders.folderId))
    .where(eq(shareLinks.createdBy, userId))
    .orderBy(desc(printOrders.createdAt))
    .limit(limit)
    .all();
  return rows.map((row) => ({ ...row.order, gallery: row.gallery }));
}

/** Who published the gallery a visitor ordered from (its link's maker), and the gallery's name. */
export async function findGallerySeller(db: Database, shareLinkId: string): Promise<{ userId: string | null; gallery: string | null } | undefined> {
  return db
    .select({ userId: shareLinks.createdBy, gallery: folders.label })
    .from(shareLinks)
    .leftJoin(folders, eq(folders.id, shareLinks.targetId))
    .where(eq(shareLinks.id, shareLinkId))
    .get();
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

/**
 * Finished orders (shipped, refunded, not paid) last moved before `before` whose shipping address
 * is still kept: the address goes (its country stays, for the figures), and for a visitor's order
 * (no account) their name and e-mail too. At most `limit` a run; answers how many.
 */
export async function forgetFinishedOrderAddresses(db: Database, before: Date, limit: number): Promise<number> {
  const due = db
    .select({ id: printOrders.id })
    .from(printOrders)
    .where(and(inArray(printOrders.status, ["shipped", "refunded", "expired"]), lt(printOrders.updatedAt, before), sql`json_extract(${printOrders.address}, '$.line1') <> ''`))
    .limit(limit);
  const rows = await db
    .update(printOrders)
    .set({
      address: sql`json_object('line1', '', 'city', '', 'postalCode', '', 'country', json_extract(${printOrders.address}, '$.country'))`,
      name: sql`CASE WHEN ${printOrders.buyerId} IS NULL THEN 'Visitor (details removed)' ELSE ${printOrders.name} END`,
      email: sql`CASE WHEN ${printOrders.buyerId} IS NULL THEN '' ELSE ${printOrders.email} END`,
    })
    .where(inArray(printOrders.id, due))
    .returning({ id: printOrders.id });
  return rows.length;
}
