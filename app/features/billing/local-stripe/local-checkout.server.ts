import { PDF, rgb, StandardFonts } from "@libpdf/core";
import Stripe from "stripe";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { formatMoney } from "../billing.constants";
import { returnOrigin, LOCAL_WEBHOOK_SECRET, stripeFor, subtleCrypto } from "../stripe-client.server";
import { receiveStripeEvent } from "../subscription.server";
import { LOCAL_CARDS } from "./local-catalogue";
import { localId } from "./local-stripe.server";
import { listLocalObjects, readLocalObject, writeLocalObject, type StripeObject } from "./local-stripe.queries.server";
import { writeSubscriptionFor } from "./local-stripe.server";

/**
 * The local driver's hosted pages (development and tests): what Stripe's Checkout and customer
 * portal do on Stripe's side — take the card, make the subscription and its invoice — and then
 * tell the app as Stripe does, with signed events to its webhook service. Nowhere in production
 * (config refuses the local driver there; these answer 404 under the Stripe driver).
 */

export { LOCAL_CARDS };

function requireLocal(ctx: ServiceContext): void {
  if (readConfig(ctx.env).PAYMENTS_DRIVER !== "local") throw new AppError("NOT_FOUND", "This page exists only with the local payments driver.");
}

type Line = { price: StripeObject; quantity: number };

export type LocalCheckoutView = {
  id: string;
  status: string;
  email: string | null;
  lines: { label: string; quantity: number; amount: string }[];
  total: string;
  /** The billing period of a subscription; null for a one-off payment. */
  interval: string | null;
  cancelUrl: string;
};

async function readSession(ctx: ServiceContext, sessionId: string): Promise<StripeObject> {
  requireLocal(ctx);
  const session = await readLocalObject(ctx.db, sessionId);
  if (session?.object !== "checkout.session") throw new AppError("NOT_FOUND", "This checkout does not exist.");
  return session;
}

export async function readLocalCheckout(ctx: ServiceContext, sessionId: string): Promise<LocalCheckoutView> {
  const session = await readSession(ctx, sessionId);
  const customer = await readLocalObject(ctx.db, String(session.customer));
  const lines = (session.line_items_local as Line[]) ?? [];
  const currency = String(session.currency);
  const recurring = (lines[0]?.price.recurring as { interval?: string } | null | undefined)?.interval;
  return {
    id: session.id,
    status: String(session.status),
    email: (customer?.email as string | null | undefined) ?? (session.customer_email as string | null) ?? null,
    lines: lines.map((line) => ({ label: String(line.price.lookup_key), quantity: line.quantity, amount: formatMoney(Number(line.price.unit_amount) * line.quantity, currency) })),
    total: formatMoney(Number(session.amount_total), currency),
    interval: recurring ?? null,
    cancelUrl: String(session.cancel_url),
  };
}

/** Sends the app one event as Stripe would: Stripe's JSON, signed with the endpoint's secret. */
export async function deliverLocalEvent(ctx: ServiceContext, type: string, object: StripeObject): Promise<void> {
  const payload = JSON.stringify({ id: localId("evt"), object: "event", api_version: Stripe.API_VERSION, created: Math.floor(ctx.now().getTime() / 1000), type, livemode: false, data: { object } });
  const header = await stripeFor(ctx).webhooks.generateTestHeaderStringAsync({ payload, secret: LOCAL_WEBHOOK_SECRET, cryptoProvider: subtleCrypto });
  await receiveStripeEvent(ctx, payload, header);
}

/**
 * "Pay" on the local checkout page: the declined test card is refused as Stripe refuses it (the
 * session stays open); any other pays — a subscription and its paid invoice are made, the events
 * go out, and the browser goes to the app's success page.
 */
export async function payLocalCheckout(ctx: ServiceContext, sessionId: string, card: string): Promise<{ redirect: string }> {
  const session = await readSession(ctx, sessionId);
  if (session.status !== "open") throw new AppError("CONFLICT", "This checkout is already complete or has expired.");
  if (card.replace(/\s/g, "") === LOCAL_CARDS.declined.replace(/\s/g, "")) throw new AppError("UNPROCESSABLE", "Your card was declined. Try another card.");
  if (!/^\d{16}$/.test(card.replace(/\s/g, ""))) throw new AppError("VALIDATION_ERROR", "Your card number is incomplete.");
  const now = ctx.now();
  if (session.mode === "payment") {
    // A one-off payment (a print order): the charge, then the session completes.
    const intent: StripeObject = { id: localId("pi"), object: "payment_intent", amount: session.amount_total, currency: session.currency, status: "succeeded", refunded: false, created: Math.floor(now.getTime() / 1000) };
    await writeLocalObject(ctx.db, "payment_intent", intent, null, now);
    const paid = { ...session, status: "complete", payment_status: "paid", payment_intent: intent.id };
    await writeLocalObject(ctx.db, "checkout.session", paid, null, now);
    await deliverLocalEvent(ctx, "checkout.session.completed", paid);
    return { redirect: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id) };
  }
  const { subscription, invoice } = await writeSubscriptionFor(ctx.db, session, now, returnOrigin(ctx), card);
  const completed = { ...session, status: "complete", payment_status: "paid", subscription: subscription.id };
  await writeLocalObject(ctx.db, "checkout.session", completed, String(session.customer), now);
  // The order Stripe sends them in is not promised; the app reads the state either way.
  await deliverLocalEvent(ctx, "customer.subscription.created", subscription);
  await deliverLocalEvent(ctx, "invoice.paid", invoice);
  await deliverLocalEvent(ctx, "checkout.session.completed", completed);
  return { redirect: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id) };
}

export type LocalPortalView = { id: string; email: string | null; returnUrl: string; subscription: { id: string; status: string; cancelAtPeriodEnd: boolean; periodEnd: string | null } | null; balance: string };

async function readPortal(ctx: ServiceContext, portalId: string): Promise<{ portal: StripeObject; customer: StripeObject; subscription: StripeObject | null }> {
  requireLocal(ctx);
  const portal = await readLocalObject(ctx.db, portalId);
  if (portal?.object !== "billing_portal.session") throw new AppError("NOT_FOUND", "This page does not exist.");
  const customer = await readLocalObject(ctx.db, String(portal.customer));
  if (!customer) throw new AppError("NOT_FOUND", "This page does not exist.");
  const subscription = (await listLocalObjects(ctx.db, "subscription", customer.id, 10)).find((candidate) => candidate.status !== "canceled") ?? null;
  return { portal, customer, subscription };
}

export async function readLocalPortal(ctx: ServiceContext, portalId: string): Promise<LocalPortalView> {
  const { portal, customer, subscription } = await readPortal(ctx, portalId);
  const items = ((subscription?.items as { data?: { current_period_end?: number }[] } | undefined)?.data ?? []);
  const end = items[0]?.current_period_end;
  return {
    id: portal.id,
    email: (customer.email as string | null) ?? null,
    returnUrl: String(portal.return_url),
    subscription: subscription ? { id: subscription.id, status: String(subscription.status), cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end), periodEnd: end ? new Date(end * 1000).toISOString() : null } : null,
    balance: formatMoney(-Number(customer.balance ?? 0), "eur"),
  };
}

/** The portal's "Cancel plan" / "Renew plan": at the period's end, as Stripe's portal does by default. */
export async function setLocalPortalCancel(ctx: ServiceContext, portalId: string, cancel: boolean): Promise<void> {
  const { subscription } = await readPortal(ctx, portalId);
  if (!subscription) throw new AppError("CONFLICT", "There is no subscription to cancel.");
  const updated = { ...subscription, cancel_at_period_end: cancel };
  await writeLocalObject(ctx.db, "subscription", updated, String(subscription.customer), ctx.now());
  await deliverLocalEvent(ctx, "customer.subscription.updated", updated);
}

/** The local invoice as a PDF (what Stripe's invoice_pdf link gives). */
export async function localInvoicePdf(ctx: ServiceContext, invoiceId: string): Promise<{ bytes: Uint8Array; filename: string }> {
  requireLocal(ctx);
  const invoice = await readLocalObject(ctx.db, invoiceId);
  if (invoice?.object !== "invoice") throw new AppError("NOT_FOUND", "This invoice does not exist.");
  const customer = await readLocalObject(ctx.db, String(invoice.customer));
  const pdf = PDF.create();
  const page = pdf.addPage({ size: "a4" });
  const ink = rgb(0.1, 0.12, 0.16);
  let y = 770;
  const line = (text: string, size = 11, bold = false) => {
    page.drawText(text, { x: 56, y, size, color: ink, ...(bold ? { font: StandardFonts.HelveticaBold } : {}) });
    y -= size + 10;
  };
  line(`Invoice ${String(invoice.number)}`, 20, true);
  line(`Strongroom (local payments driver: no money moved)`, 9);
  line(`Billed to: ${String(customer?.email ?? "")}`);
  line(`Date: ${new Date(Number(invoice.created) * 1000).toISOString().slice(0, 10)}`);
  y -= 10;
  const currency = String(invoice.currency);
  for (const item of ((invoice.lines as { data?: { description?: string; amount?: number }[] }).data ?? [])) line(`${item.description ?? ""}    ${formatMoney(Number(item.amount ?? 0), currency)}`);
  y -= 10;
  line(`Total ${formatMoney(Number(invoice.total), currency)} - ${String(invoice.status)}`, 13, true);
  return { bytes: await pdf.save(), filename: `invoice-${String(invoice.number)}.pdf` };
}
