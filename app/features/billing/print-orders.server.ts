import { z } from "zod";
import type { PrintOrderStatus } from "~/db/schema/billing";
import { findUserById } from "~/features/auth/auth.queries.server";
import { entityTagOf, sendDeliverable, type ContentDelivery, type ContentRequest } from "~/features/files/content.server";
import { findFileById } from "~/features/files/folders.queries.server";
import { requireFolderAccess } from "~/features/files/spaces.server";
import { requireOpenVisit } from "~/features/sharing/share-content.server";
import { sendMail } from "~/features/mail/mailer.server";
import { mailOrigin, notifyMember } from "~/features/notifications/notifications.server";
import { readConfig } from "~/lib/config.server";
import { hmacSign, timingSafeEqualString } from "~/lib/crypto.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { callStripe } from "./billing-customer.server";
import { formatMoney } from "./billing.constants";
import { printLabFor } from "./print-lab.server";
import { LabRefusal } from "./print-lab.types";
import { DEFAULT_PRINT_CATALOGUE, MAX_PRINT_COPIES, MAX_PRINT_ITEMS, PRINT_ADDRESS_RETENTION_DAYS, PRINT_STATUS_LABELS, shippingCentsTo, unitCents, type PrintCatalogue, type PrintOrderLine, type PrintOrderView } from "./print-orders.constants";
import {
  findGallerySeller,
  forgetFinishedOrderAddresses,
  findPrintOrder,
  insertPrintOrder,
  listOpenPrintOrders,
  listPrintableFiles,
  listPrintOrdersFromLinksOf,
  listPrintOrdersOf,
  movePrintOrder,
  setCheckoutSession,
  type PrintOrderRow,
} from "./print-orders.queries.server";
import { returnOrigin, stripeFor } from "./stripe-client.server";

/**
 * Print orders from galleries (issue 43, docs/billing.md): a member picks pictures of a gallery
 * folder they can see, with a size, a paper and copies each, priced from the print catalogue;
 * pays through Checkout (a one-off payment); the order goes to the print lab. Its life only moves
 * forward — created → paid → sent → shipped, or → failed → refunded — each step once (a
 * conditional write), each with an e-mail; Stripe's and the lab's calls only say "look again".
 */

const catalogueSchema = z.object({
  currency: z.string().length(3),
  shippingCents: z.number().int().min(0),
  shippingByCountry: z.record(z.string().regex(/^[A-Z]{2}$/, "shippingByCountry: countries are two-letter codes in capitals."), z.number().int().min(0)).optional(),
  countries: z.array(z.string().regex(/^[A-Z]{2}$/, "countries: two-letter codes in capitals.")).min(1).optional(),
  sizes: z.array(z.object({ id: z.string().min(1), label: z.string().min(1), cents: z.number().int().min(1) })).min(1),
  papers: z.array(z.object({ id: z.string().min(1), label: z.string().min(1), percent: z.number().int().min(0).max(500) })).min(1),
});

/** The catalogue read once per deployment's settings (a page, a job's loop over orders: the same object). */
const catalogues = new WeakMap<object, PrintCatalogue>();

export function printCatalogue(ctx: ServiceContext): PrintCatalogue {
  const known = catalogues.get(ctx.env);
  if (known) return known;
  const catalogue = readCatalogue(readConfig(ctx.env).PRINT_CATALOGUE);
  catalogues.set(ctx.env, catalogue);
  return catalogue;
}

function readCatalogue(raw: string | undefined): PrintCatalogue {
  if (!raw) return DEFAULT_PRINT_CATALOGUE;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError("SERVICE_UNAVAILABLE", "PRINT_CATALOGUE is not JSON (docs/configuration.md).");
  }
  const parsed = catalogueSchema.safeParse(json);
  if (!parsed.success) throw new AppError("SERVICE_UNAVAILABLE", `PRINT_CATALOGUE: ${parsed.error.issues[0]?.message ?? "not valid"} (docs/configuration.md).`);
  return parsed.data;
}

export function printsOffered(ctx: ServiceContext): boolean {
  return readConfig(ctx.env).PRINT_LAB_DRIVER !== "off";
}

const orderShape = {
  items: z
    .array(
      z.object({
        fileId: z.string().min(1),
        size: z.string().min(1, "Choose a size."),
        paper: z.string().min(1, "Choose a paper."),
        quantity: z.coerce.number().int("Copies are a whole number.").min(1, "At least one copy.").max(MAX_PRINT_COPIES, `At most ${MAX_PRINT_COPIES} copies of one picture.`),
      }),
    )
    .min(1, "Choose at least one picture to print.")
    .max(MAX_PRINT_ITEMS, `At most ${MAX_PRINT_ITEMS} pictures in one order.`),
  name: z.string().trim().min(1, "Enter the name to ship to.").max(120),
  address: z.object({
    line1: z.string().trim().min(1, "Enter the street address.").max(200),
    line2: z.string().trim().max(200).optional(),
    city: z.string().trim().min(1, "Enter the city.").max(100),
    postalCode: z.string().trim().min(1, "Enter the postal code.").max(20),
    country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, "Enter the country as its two-letter code (DE, FR, US…).")
      .transform((value) => value.toUpperCase()),
  }),
};
const memberOrderSchema = z.object({ folderId: z.string().min(1, "Say which gallery the pictures are from."), ...orderShape });
const visitorOrderSchema = z.object({ email: z.email({ error: "Enter the e-mail address to send the order's news to." }).max(200), ...orderShape });

function viewOf(ctx: ServiceContext, row: PrintOrderRow): PrintOrderView {
  const catalogue = printCatalogue(ctx);
  // The catalogue's words for a size and a paper (its ids where the catalogue has changed since).
  const sizeLabel = (id: string) => catalogue.sizes.find((size) => size.id === id)?.label ?? id;
  const paperLabel = (id: string) => catalogue.papers.find((paper) => paper.id === id)?.label ?? id;
  return {
    id: row.id,
    status: row.status,
    statusLabel: PRINT_STATUS_LABELS[row.status],
    name: row.name,
    email: row.email,
    address: row.address,
    items: row.items.map((item) => ({ ...item, sizeLabel: sizeLabel(item.size), paperLabel: paperLabel(item.paper) })),
    shippingCents: row.shippingCents,
    totalCents: row.totalCents,
    currency: row.currency,
    trackingUrl: row.trackingUrl,
    failure: row.failure,
    events: row.events,
    createdAt: row.createdAt.toISOString(),
    folderId: row.folderId,
  };
}

type OrderData = z.output<typeof memberOrderSchema>;

/** The order (created), priced here, and its Checkout session → where to pay. */
async function placeOrder(ctx: ServiceContext, data: Omit<OrderData, "folderId">, where: { folderId: string; buyerId: string | null; shareLinkId: string | null; email: string; cancelPath: (id: string) => string }): Promise<{ id: string; url: string }> {
  const catalogue = printCatalogue(ctx);
  const pictures = new Map((await listPrintableFiles(ctx.db, where.folderId, data.items.map((item) => item.fileId))).map((file) => [file.id, file]));
  const items = data.items.map((item) => {
    const picture = pictures.get(item.fileId);
    if (!picture) throw new AppError("VALIDATION_ERROR", "items: Only pictures of this gallery can be printed.");
    const cents = unitCents(catalogue, item.size, item.paper);
    if (cents === null) throw new AppError("VALIDATION_ERROR", `items: Choose a size (${catalogue.sizes.map((size) => size.label).join(", ")}) and a paper (${catalogue.papers.map((paper) => paper.label).join(", ")}).`);
    return { fileId: item.fileId, name: picture.name, size: item.size, paper: item.paper, quantity: item.quantity, unitCents: cents };
  });
  const shippingCents = shippingCentsTo(catalogue, data.address.country);
  if (shippingCents === null) throw new AppError("VALIDATION_ERROR", `address.country: Prints are not shipped to ${data.address.country}. They are shipped to ${catalogue.countries!.join(", ")}.`);
  // What the lab cannot make is refused before anyone pays.
  printLabFor(ctx, catalogue).check(items);
  const now = ctx.now();
  const id = crypto.randomUUID();
  const total = items.reduce((sum, item) => sum + item.unitCents * item.quantity, 0) + shippingCents;
  await insertPrintOrder(ctx.db, {
    id,
    buyerId: where.buyerId,
    folderId: where.folderId,
    shareLinkId: where.shareLinkId,
    name: data.name,
    email: where.email,
    address: data.address,
    items,
    shippingCents,
    totalCents: total,
    currency: catalogue.currency,
    status: "created",
    events: [{ at: now.toISOString(), status: "created", detail: null }],
    createdAt: now,
    updatedAt: now,
  });
  const label = (item: (typeof items)[number]) =>
    `${item.name} · ${catalogue.sizes.find((size) => size.id === item.size)?.label ?? item.size} · ${catalogue.papers.find((paper) => paper.id === item.paper)?.label ?? item.paper}`;
  const origin = returnOrigin(ctx);
  const successPath = await orderPath(ctx, { id, buyerId: where.buyerId });
  const session = await callStripe(ctx, "create print checkout", () =>
    stripeFor(ctx).checkout.sessions.create({
      mode: "payment",
      customer_email: where.email,
      ...(where.buyerId ? { client_reference_id: where.buyerId } : {}),
      line_items: [
        ...items.map((item) => ({ price_data: { currency: catalogue.currency, unit_amount: item.unitCents, product_data: { name: label(item) } }, quantity: item.quantity })),
        { price_data: { currency: catalogue.currency, unit_amount: shippingCents, product_data: { name: `Shipping to ${data.address.country}` } }, quantity: 1 },
      ],
      success_url: `${origin}${successPath}`,
      cancel_url: `${origin}${where.cancelPath(id)}`,
      metadata: { print_order_id: id },
    }),
  );
  if (!session.url) throw new AppError("SERVICE_UNAVAILABLE", "Stripe did not return a checkout page. Nothing was charged; please try again.");
  await setCheckoutSession(ctx.db, id, session.id, now);
  ctx.logger.info("print order created", { orderId: id, items: items.length, total, visitor: where.buyerId === null });
  return { id, url: session.url };
}

/** POST /api/print-orders: a member's order from a gallery folder they can see → where to pay. */
export async function createPrintOrder(ctx: ServiceContext, userId: string, input: unknown): Promise<{ id: string; url: string }> {
  if (!printsOffered(ctx)) throw new AppError("NOT_FOUND", "Prints are not offered here.");
  const data = parseInput(memberOrderSchema, input);
  await requireFolderAccess(ctx, userId, data.folderId, "files.view");
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError("NOT_FOUND", "This account does not exist.");
  return placeOrder(ctx, data, { folderId: data.folderId, buyerId: userId, shareLinkId: null, email: user.email, cancelPath: (id) => `/print-orders/error?order=${id}` });
}

/**
 * A public gallery's visitor orders prints (the owner allows it on the link): the visit must have
 * passed the link's gates (the same cookie as the gallery page); the order page is theirs through
 * the token in its address (an HMAC of the order's id, so e-mails can carry it too).
 */
export async function createVisitorPrintOrder(ctx: ServiceContext, key: string, cookie: string | null | undefined, input: unknown): Promise<{ id: string; url: string }> {
  if (!printsOffered(ctx)) throw new AppError("NOT_FOUND", "Prints are not offered here.");
  const { row } = await requireOpenVisit(ctx, key, cookie, "gallery");
  if (!row.allowPrints) throw new AppError("FORBIDDEN", "Prints are not offered for this gallery.");
  const data = parseInput(visitorOrderSchema, input);
  return placeOrder(ctx, data, { folderId: row.targetId, buyerId: null, shareLinkId: row.id, email: data.email, cancelPath: () => `/public-gallery/${encodeURIComponent(key)}/prints?cancelled=1` });
}

/** A visitor's order token: HMAC-SHA256 of the order's id under SESSION_SECRET, base64url. */
function orderToken(ctx: ServiceContext, id: string): Promise<string> {
  return hmacSign(readConfig(ctx.env).SESSION_SECRET, `print-order:${id}`);
}

/** Where the order's page is: a member's plain, a visitor's with its token. */
async function orderPath(ctx: ServiceContext, order: { id: string; buyerId: string | null }): Promise<string> {
  return order.buyerId ? `/print-orders/${order.id}` : `/prints/${order.id}?token=${await orderToken(ctx, order.id)}`;
}

/** The buyer's order ("Print order created" page): the member who ordered, or a visitor with its token; 404 for anyone else. */
export async function getPrintOrder(ctx: ServiceContext, userId: string | null, id: string, token: string | null = null): Promise<PrintOrderView> {
  const order = /^[0-9a-f-]{36}$/.test(id) ? await findPrintOrder(ctx.db, id) : undefined;
  const isBuyer = order ? (order.buyerId !== null ? order.buyerId === userId : token !== null && timingSafeEqualString(token, await orderToken(ctx, order.id))) : false;
  if (!order || !isBuyer) throw new AppError("NOT_FOUND", "This print order does not exist or is not yours.");
  // Back from Checkout before Stripe's event, or paid while the lab could not be reached: look again now.
  if ((order.status === "created" && order.checkoutSessionId) || order.status === "paid") return viewOf(ctx, (await lookAgainAtPayment(ctx, order.id)) ?? order);
  return viewOf(ctx, order);
}

function lineOf(row: PrintOrderRow & { gallery?: string | null }): PrintOrderLine {
  return {
    id: row.id,
    reference: row.id.slice(0, 8).toUpperCase(),
    createdAt: row.createdAt.toISOString(),
    status: row.status,
    statusLabel: PRINT_STATUS_LABELS[row.status],
    prints: row.items.reduce((sum, item) => sum + item.quantity, 0),
    totalCents: row.totalCents,
    currency: row.currency,
    buyer: row.name,
    gallery: row.gallery ?? null,
  };
}

/** GET /api/print-orders and /print-orders: the member's own orders, and the visitors' orders from the public galleries they published (newest first, 100 of each). */
export async function listPrintOrders(ctx: ServiceContext, userId: string): Promise<{ mine: PrintOrderLine[]; fromGalleries: PrintOrderLine[] }> {
  const [mine, fromGalleries] = await Promise.all([listPrintOrdersOf(ctx.db, userId, 100), listPrintOrdersFromLinksOf(ctx.db, userId, 100)]);
  return { mine: mine.map(lineOf), fromGalleries: fromGalleries.map(lineOf) };
}

const MAIL: Partial<Record<PrintOrderStatus, { subject: string; message: (order: PrintOrderRow) => string }>> = {
  paid: { subject: "We have your print order", message: (order) => `Thank you: ${formatMoney(order.totalCents, order.currency)} was paid. The pictures go to the print lab now.` },
  sent: { subject: "Your prints are being made", message: () => "The print lab has your order and is printing it. We tell you when it ships." },
  shipped: { subject: "Your prints have shipped", message: (order) => `Your prints are on their way.${order.trackingUrl ? ` Track them: ${order.trackingUrl}` : ""}` },
  failed: { subject: "Your prints could not be made", message: (order) => `${order.failure ?? "The print lab could not print your order."} We are refunding you in full.` },
  refunded: { subject: "Your print order was refunded", message: (order) => `${formatMoney(order.totalCents, order.currency)} is on its way back to your card (it can take 5 to 10 days to show).` },
};

async function tell(ctx: ServiceContext, order: PrintOrderRow, status: PrintOrderStatus): Promise<void> {
  const mail = MAIL[status];
  if (!mail) return;
  await sendMail(ctx, {
    to: order.email,
    userId: order.buyerId,
    id: `print-order:${order.id}:${status}`,
    template: { kind: "print-order", name: order.name, reference: order.id.slice(0, 8).toUpperCase(), subject: mail.subject, message: mail.message(order), link: `${mailOrigin(ctx)}${await orderPath(ctx, order)}` },
  });
}

/** A visitor's paid order is news for whoever published the gallery: a notification (in the app, and by e-mail as they chose). */
async function tellSeller(ctx: ServiceContext, order: PrintOrderRow): Promise<void> {
  const seller = await findGallerySeller(ctx.db, order.shareLinkId!);
  if (!seller?.userId) return;
  const prints = order.items.reduce((sum, item) => sum + item.quantity, 0);
  await notifyMember(ctx, {
    userId: seller.userId,
    actorId: null,
    kind: "print.ordered",
    title: `${order.name} ordered ${prints} ${prints === 1 ? "print" : "prints"}${seller.gallery ? ` from “${seller.gallery}”` : ""}`,
    excerpt: `Paid ${formatMoney(order.totalCents, order.currency)}; the print lab makes and ships them.`,
    link: "/print-orders",
  });
}

/** Moves the order one step and tells the buyer (once: a second delivery finds it moved). */
async function step(ctx: ServiceContext, order: PrintOrderRow, from: PrintOrderStatus, to: PrintOrderStatus, change: Parameters<typeof movePrintOrder>[4], detail: string | null): Promise<PrintOrderRow | null> {
  if (!(await movePrintOrder(ctx.db, order, from, to, change, detail, ctx.now()))) return null;
  const moved = (await findPrintOrder(ctx.db, order.id))!;
  await tell(ctx, moved, to);
  if (to === "paid" && moved.shareLinkId) await tellSeller(ctx, moved);
  ctx.logger.info("print order moved", { orderId: order.id, from, to });
  return moved;
}

/** Failed at the lab: the payment goes back in full (Stripe refuses a second refund; the step runs once). */
async function failAndRefund(ctx: ServiceContext, order: PrintOrderRow, from: PrintOrderStatus, failure: string): Promise<PrintOrderRow | null> {
  const failed = await step(ctx, order, from, "failed", { failure }, failure);
  if (!failed) return null;
  if (failed.paymentIntentId) {
    await callStripe(ctx, "refund print order", () => stripeFor(ctx).refunds.create({ payment_intent: failed.paymentIntentId! }, { idempotencyKey: `print-refund-${failed.id}` }));
  }
  return step(ctx, failed, "failed", "refunded", {}, null);
}

/**
 * Stripe said something about the order's checkout (or the buyer is back, or the hourly look):
 * read the session from Stripe; once paid, the order is paid and goes to the lab (sent), or,
 * refused by the lab, failed and refunded. A lab that cannot be reached leaves it paid: the next
 * look sends it again (the lab knows it by its reference, so never twice).
 */
export async function lookAgainAtPayment(ctx: ServiceContext, orderId: string): Promise<PrintOrderRow | null> {
  let order = await findPrintOrder(ctx.db, orderId);
  if (order?.status === "created" && order.checkoutSessionId) {
    const session = await callStripe(ctx, "read print checkout", () => stripeFor(ctx).checkout.sessions.retrieve(order!.checkoutSessionId!));
    // A checkout left until it closed (Stripe's sessions last 24 hours): the order ends unpaid.
    if (session.status === "expired") return (await step(ctx, order, "created", "expired", {}, "The checkout closed before it was paid.")) ?? (await findPrintOrder(ctx.db, orderId)) ?? null;
    if (session.payment_status !== "paid") return order;
    const intent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
    order = (await step(ctx, order, "created", "paid", { paymentIntentId: intent }, null)) ?? (await findPrintOrder(ctx.db, orderId));
  }
  if (order?.status !== "paid") return order ?? null;
  try {
    const { labOrderId } = await printLabFor(ctx, printCatalogue(ctx)).submit({
      reference: order.id,
      callbackUrl: await labCallbackUrl(ctx, order.id),
      recipient: { name: order.name, email: order.email, address: order.address },
      currency: order.currency,
      items: await Promise.all(order.items.map(async (item) => ({ ...item, assetUrl: await pictureUrl(ctx, order!.id, item.fileId) }))),
    });
    return (await step(ctx, order, "paid", "sent", { labOrderId }, null)) ?? (await findPrintOrder(ctx.db, orderId)) ?? null;
  } catch (error) {
    if (error instanceof LabRefusal) return failAndRefund(ctx, order, "paid", error.message);
    if (error instanceof AppError && error.code === "SERVICE_UNAVAILABLE") {
      ctx.logger.warn("print order kept for the lab", { orderId, reason: error.message });
      return order;
    }
    throw error;
  }
}

/** The lab's signed address for one order's callbacks: /api/print-orders/lab?order=…&token=… (HMAC under SESSION_SECRET). */
function labCallbackToken(ctx: ServiceContext, orderId: string): Promise<string> {
  return hmacSign(readConfig(ctx.env).SESSION_SECRET, `print-lab-callback:${orderId}`);
}

async function labCallbackUrl(ctx: ServiceContext, orderId: string): Promise<string> {
  return `${returnOrigin(ctx)}/api/print-orders/lab?order=${orderId}&token=${await labCallbackToken(ctx, orderId)}`;
}

/**
 * POST /api/print-orders/lab?order=…&token=…: the lab's call about one order, at the address the
 * order was given (the lab's own signature, if any, is not needed: the token is ours and the call
 * only says "look again": what counts is the order read from the lab).
 */
export async function receiveLabCall(ctx: ServiceContext, orderId: string | null, token: string | null): Promise<{ received: true }> {
  const expected = orderId ? await labCallbackToken(ctx, orderId) : null;
  if (!orderId || !token || !expected || !timingSafeEqualString(token, expected)) throw new AppError("VALIDATION_ERROR", "This callback address is not valid.");
  await lookAgainAtLab(ctx, orderId);
  return { received: true };
}

/** Where the lab stands with an order it has: shipped (with tracking), failed (cancelled there and refunded here), or still at work. */
async function lookAgainAtLab(ctx: ServiceContext, orderId: string): Promise<PrintOrderRow | null> {
  const order = await findPrintOrder(ctx.db, orderId);
  if (order?.status !== "sent" || !order.labOrderId) return order ?? null;
  const lab = printLabFor(ctx, printCatalogue(ctx));
  const state = await lab.read(order.labOrderId);
  if (state.status === "shipped") return step(ctx, order, "sent", "shipped", { trackingUrl: state.trackingUrl }, state.trackingUrl);
  if (state.status === "failed") {
    await lab.cancel(order.labOrderId);
    return failAndRefund(ctx, order, "sent", state.failure ?? "The print lab could not print your order.");
  }
  return order;
}

/** How long the lab may download an order's pictures (its retries and any pause before production fit). */
export const PICTURE_URL_DAYS = 14;

function pictureToken(ctx: ServiceContext, orderId: string, fileId: string, expires: number): Promise<string> {
  return hmacSign(readConfig(ctx.env).SESSION_SECRET, `print-picture:${orderId}:${fileId}:${expires}`);
}

/** The signed, time-limited address of an ordered picture's original, for the lab. */
async function pictureUrl(ctx: ServiceContext, orderId: string, fileId: string): Promise<string> {
  const expires = Math.floor(ctx.now().getTime() / 1000) + PICTURE_URL_DAYS * 86_400;
  return `${returnOrigin(ctx)}/api/print-orders/${orderId}/pictures/${fileId}?expires=${expires}&token=${await pictureToken(ctx, orderId, fileId, expires)}`;
}

/**
 * GET/HEAD /api/print-orders/{id}/pictures/{fileId}?expires=…&token=…: the original of a picture
 * of a paid order, for the lab only (its signed address; no cookie), while the order is paid or at
 * the lab and the address has not expired; 404 for anything else, the same for every refusal.
 */
export async function deliverOrderedPicture(ctx: ServiceContext, orderId: string, fileId: string, expires: string | null, token: string | null, request: ContentRequest): Promise<ContentDelivery> {
  const notHere = new AppError("NOT_FOUND", "This picture is not available.");
  const until = Number(expires);
  if (!token || !Number.isInteger(until) || until * 1000 < ctx.now().getTime()) throw notHere;
  if (!timingSafeEqualString(token, await pictureToken(ctx, orderId, fileId, until))) throw notHere;
  const order = await findPrintOrder(ctx.db, orderId);
  if (!order || (order.status !== "paid" && order.status !== "sent") || !order.items.some((item) => item.fileId === fileId)) throw notHere;
  // Wherever the picture is now (moved or in the trash it is still what was paid for; purged, it is gone).
  const file = await findFileById(ctx.db, fileId);
  if (!file) throw notHere;
  return sendDeliverable(ctx, file, { key: file.r2Key, size: file.size, etag: await entityTagOf(file), lastModified: file.updatedAt, watermarked: false }, "download", request, null);
}

/**
 * The hourly look (workers/cron.ts): orders whose news may have been lost — a checkout paid
 * without Stripe's event reaching us, a paid order the lab could not take yet, an order at the lab
 * whose callback did not arrive. Each is looked at again; one that fails waits for the next hour.
 */
export async function lookAgainAtOpenOrders(ctx: ServiceContext): Promise<{ looked: number; moved: number; failed: number }> {
  const open = await listOpenPrintOrders(ctx.db, new Date(ctx.now().getTime() - 2 * 86_400_000), 100);
  let moved = 0;
  let failed = 0;
  for (const order of open) {
    try {
      const after = order.status === "sent" ? await lookAgainAtLab(ctx, order.id) : await lookAgainAtPayment(ctx, order.id);
      if (after && after.status !== order.status) moved += 1;
    } catch (error) {
      failed += 1;
      ctx.logger.warn("print order look failed", { orderId: order.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { looked: open.length, moved, failed };
}

/**
 * Nightly (workers/cron.ts): finished orders forget their shipping address after
 * PRINT_ADDRESS_RETENTION_DAYS, and a visitor's order (no account to export or erase) their name
 * and e-mail too. Totals, items and the timeline stay; Stripe keeps its own records.
 */
export async function forgetOldShippingAddresses(ctx: ServiceContext): Promise<{ forgotten: number }> {
  const before = new Date(ctx.now().getTime() - PRINT_ADDRESS_RETENTION_DAYS * 86_400_000);
  let forgotten = 0;
  for (let round = 0; round < 20; round += 1) {
    const done = await forgetFinishedOrderAddresses(ctx.db, before, 200);
    forgotten += done;
    if (done < 200) break;
  }
  return { forgotten };
}
