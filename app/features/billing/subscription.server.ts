import type Stripe from "stripe";
import { z } from "zod";
import { ADDONS, normalizeTier, TIER_LABELS, tierRank, type AddonType, type Tier } from "~/features/access/access.constants";
import type { AddonQuantities } from "~/features/access/access-check";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import {
  COUNTED_ADDONS,
  INTERVALS,
  MAX_ADDON_QUANTITY,
  SOLD_TIERS,
  type Interval,
  type PriceKey,
  type PriceView,
  type SoldTier,
  type SubscriptionView,
} from "./billing.constants";
import { keyOfPrice, priceIdOf, priceIds } from "./billing-prices.server";
import {
  findBillingAccount,
  findBillingAccountByCustomer,
  isEventRecorded,
  recordEvent,
  writeEntitlement,
  type BillingAccountRow,
  type Entitlement,
} from "./billing.queries.server";
import { previewPlanChange, type OverLimit } from "./plan-change.server";
import { applyPlanLimits } from "./plan-limits.server";
import { lookAgainAtPayment } from "./print-orders.server";
import { callStripe, customerOf } from "./billing-customer.server";
import { rewardReferral } from "./referrals.server";
import { returnOrigin, stripeFor, subtleCrypto, webhookSecret } from "./stripe-client.server";

/**
 * Subscriptions on Stripe (issue 43, ADR 044). Stripe is the record: checkout and changes go to
 * Stripe, and the member's tier and add-ons are only ever written from Stripe's own answer to
 * "what is this customer's subscription now?" (`syncSubscription`). A webhook event is a prompt
 * to ask again, never the answer, so a replayed, duplicated or late event changes nothing.
 */

/** Statuses that keep what was bought (past_due: Stripe is still retrying the card). */
const LIVE = new Set(["active", "trialing", "past_due"]);

const quantity = z.coerce.number({ error: "Say how many, as a whole number." }).int("Say how many, as a whole number.").min(0, "A quantity cannot be negative.").max(MAX_ADDON_QUANTITY, `At most ${MAX_ADDON_QUANTITY} at once; write to us for more.`);
const toggle = z.coerce.number().int().min(0).max(1, "This add-on is on (1) or off (0).");
const addonsSchema = z.strictObject(
  { extra_datarooms: quantity.optional(), extra_storage: quantity.optional(), e_signatures: toggle.optional(), dataroom_team: toggle.optional(), dataroom_guests: toggle.optional() },
  { error: "Choose from extra_datarooms, extra_storage, e_signatures, dataroom_team and dataroom_guests." },
);
const planSchema = z.object({
  tier: z.enum(SOLD_TIERS, { error: "Choose a plan: basic, pro or business." }),
  interval: z.enum(INTERVALS, { error: 'Choose "month" or "year".' }).default("month"),
  addons: addonsSchema.default({}),
});
const changeSchema = planSchema.extend({ confirm: z.boolean().optional() });

type Plan = z.output<typeof planSchema>;

function addonQuantities(addons: Plan["addons"]): AddonQuantities {
  const result: AddonQuantities = {};
  for (const addon of ADDONS) if ((addons[addon] ?? 0) > 0) result[addon] = addons[addon];
  return result;
}

/** The items a plan is made of: the tier and each add-on with its quantity. */
function planItems(ctx: ServiceContext, plan: Plan): { key: PriceKey; price: string; quantity: number }[] {
  const ids = priceIds(ctx.env);
  const items = [{ key: plan.tier as PriceKey, price: priceIdOf(ids, plan.tier, plan.interval), quantity: 1 }];
  for (const [addon, count] of Object.entries(addonQuantities(plan.addons)) as [AddonType, number][]) items.push({ key: addon, price: priceIdOf(ids, addon, plan.interval), quantity: count });
  return items;
}

function viewOf(account: BillingAccountRow | undefined): SubscriptionView | null {
  const tier = normalizeTier(account?.tier) as SoldTier | null;
  if (!account || !account.status || !LIVE.has(account.status) || !tier || !(SOLD_TIERS as readonly string[]).includes(tier)) return null;
  return {
    status: account.status,
    tier,
    tierLabel: TIER_LABELS[tier],
    interval: (account.interval as Interval | null) ?? "month",
    addons: (account.addons ?? {}) as Partial<Record<AddonType, number>>,
    currentPeriodEnd: account.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: account.cancelAtPeriodEnd,
    nextAmount: account.nextAmount,
    currency: account.currency,
  };
}

/** What one Stripe subscription entitles to (unknown prices are ignored, logged). */
function entitlementOf(ctx: ServiceContext, userId: string, subscription: Stripe.Subscription | null): Entitlement {
  const ids = priceIds(ctx.env);
  let tier: Tier = "free";
  let interval: Interval | null = null;
  let periodEnd: number | null = null;
  let amount = 0;
  const addons: Record<string, number> = {};
  const live = subscription && LIVE.has(subscription.status);
  for (const item of live ? subscription.items.data : []) {
    const known = keyOfPrice(ids, item.price.id);
    if (!known) {
      ctx.logger.warn("unknown Stripe price on a subscription", { userId, price: item.price.id });
      continue;
    }
    interval = known.interval;
    amount += (item.price.unit_amount ?? 0) * (item.quantity ?? 1);
    periodEnd = periodEnd === null ? item.current_period_end : Math.min(periodEnd, item.current_period_end);
    if ((SOLD_TIERS as readonly string[]).includes(known.key)) {
      if (tierRank(known.key as Tier) > tierRank(tier)) tier = known.key as Tier;
    } else {
      addons[known.key] = (COUNTED_ADDONS as readonly string[]).includes(known.key) ? (item.quantity ?? 1) : 1;
    }
  }
  const covered = tier === "free" ? [] : SOLD_TIERS.filter((candidate) => tierRank(candidate) <= tierRank(tier));
  return {
    userId,
    tier,
    addons,
    coveredTrialTiers: covered,
    snapshot: {
      subscriptionId: subscription?.id ?? null,
      status: subscription?.status ?? null,
      tier: tier === "free" ? null : tier,
      interval,
      addons,
      currentPeriodEnd: periodEnd === null ? null : new Date(periodEnd * 1000),
      cancelAtPeriodEnd: Boolean(live && subscription.cancel_at_period_end),
      nextAmount: live ? amount : null,
      currency: subscription?.currency ?? null,
    },
  };
}

/** The customer's current subscription on Stripe: the newest live one, else the newest. */
async function currentSubscription(ctx: ServiceContext, customerId: string): Promise<Stripe.Subscription | null> {
  const subscriptions = await callStripe(ctx, "list subscriptions", () => stripeFor(ctx).subscriptions.list({ customer: customerId, status: "all", limit: 10 }));
  const sorted = [...subscriptions.data].sort((a, b) => b.created - a.created);
  return sorted.find((subscription) => LIVE.has(subscription.status)) ?? sorted[0] ?? null;
}

/**
 * Look again: read the member's subscription from Stripe and write their tier, add-ons and the
 * snapshot from it (ending a trial the plan covers). The same answer writes the same rows, so
 * running it for every event, in any order and any number of times, ends in Stripe's state.
 */
export async function syncSubscription(ctx: ServiceContext, userId: string): Promise<SubscriptionView | null> {
  const account = await findBillingAccount(ctx.db, userId);
  if (!account) return null;
  const subscription = await currentSubscription(ctx, account.customerId);
  const entitlement = entitlementOf(ctx, userId, subscription);
  if (!subscription) {
    // Never subscribed (a checkout left unpaid): Stripe has nothing to say about the plan, so the
    // tier ops or a trial gave stays as it is.
    ctx.logger.info("no subscription on Stripe yet", { userId });
    return null;
  }
  await writeEntitlement(ctx.db, entitlement, ctx.now());
  // A smaller plan leaves what is over it read-only; a bigger one makes it writable again.
  await applyPlanLimits(ctx, userId);
  // A first payment settles a referral; it never undoes the plan just written (the next look retries it).
  if (subscription && entitlement.tier !== "free") {
    await rewardReferral(ctx, userId, subscription).catch((error: unknown) => ctx.logger.error("referral not settled", { userId, error: error instanceof Error ? error.message : String(error) }));
  }
  ctx.logger.info("subscription synced", { userId, tier: entitlement.tier, status: subscription?.status ?? null });
  return viewOf({ ...account, ...entitlement.snapshot });
}

/** Settings: subscription — the last answer from Stripe (null: no paid plan). */
export async function getSubscription(ctx: ServiceContext, userId: string): Promise<SubscriptionView | null> {
  return viewOf(await findBillingAccount(ctx.db, userId));
}

/** Every configured price with its amount, as Stripe has it (the plan picker). */
export async function listPrices(ctx: ServiceContext): Promise<PriceView[]> {
  const ids = priceIds(ctx.env);
  const prices = await callStripe(ctx, "list prices", () => stripeFor(ctx).prices.list({ active: true, limit: 100 }));
  return prices.data.flatMap((price) => {
    const known = keyOfPrice(ids, price.id);
    return known ? [{ key: known.key, interval: known.interval, id: price.id, amount: price.unit_amount ?? 0, currency: price.currency }] : [];
  });
}

/** POST /api/billing/checkout: a Checkout session for a plan and its add-ons → where to send the browser. */
export async function startCheckout(ctx: ServiceContext, userId: string, input: unknown): Promise<{ url: string }> {
  const plan = parseInput(planSchema, input);
  const items = planItems(ctx, plan);
  const account = await customerOf(ctx, userId);
  if (viewOf(account)) throw new AppError("CONFLICT", "You already have a subscription: change it in Settings → Subscription instead.");
  const origin = returnOrigin(ctx);
  const session = await callStripe(ctx, "create checkout session", () =>
    stripeFor(ctx).checkout.sessions.create({
      mode: "subscription",
      customer: account.customerId,
      client_reference_id: userId,
      line_items: items.map((item) => ({ price: item.price, quantity: item.quantity })),
      success_url: `${origin}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/checkout/failure?plan=${plan.tier}`,
      metadata: { user_id: userId },
      subscription_data: { metadata: { user_id: userId } },
    }),
  );
  if (!session.url) throw new AppError("SERVICE_UNAVAILABLE", "Stripe did not return a checkout page. Nothing was charged; please try again.");
  ctx.logger.info("checkout started", { userId, tier: plan.tier, interval: plan.interval, items: items.length });
  return { url: session.url };
}

/** The checkout success page: the session must be the member's; then look again. */
export async function completeCheckout(ctx: ServiceContext, userId: string, sessionId: string): Promise<SubscriptionView | null> {
  const account = await findBillingAccount(ctx.db, userId);
  if (!account || !/^cs_[A-Za-z0-9_]+$/.test(sessionId)) throw new AppError("NOT_FOUND", "This checkout is not yours, or it does not exist.");
  const session = await callStripe(ctx, "read checkout session", () => stripeFor(ctx).checkout.sessions.retrieve(sessionId));
  if (session.customer !== account.customerId) throw new AppError("NOT_FOUND", "This checkout is not yours, or it does not exist.");
  return syncSubscription(ctx, userId);
}

function isDowngrade(from: SubscriptionView, to: Plan): boolean {
  if (tierRank(to.tier) < tierRank(from.tier)) return true;
  return ADDONS.some((addon) => (to.addons[addon] ?? 0) < (from.addons[addon] ?? 0));
}

/**
 * POST /api/billing/subscription: change the plan and add-ons. An upgrade applies at once and the
 * rest of the period is invoiced now (prorated); a downgrade or an add-on removal needs
 * `confirm: true` (the member has read the preview) and is credited on the next invoice.
 */
export async function changeSubscription(ctx: ServiceContext, userId: string, input: unknown): Promise<{ subscription: SubscriptionView | null; over: OverLimit[] }> {
  const plan = parseInput(changeSchema, input);
  const items = planItems(ctx, plan);
  const account = await findBillingAccount(ctx.db, userId);
  const current = viewOf(account);
  if (!account || !current || !account.subscriptionId) throw new AppError("CONFLICT", "You have no subscription to change: choose a plan and go through checkout.");
  const downgrade = isDowngrade(current, plan);
  const preview = downgrade ? await previewPlanChange(ctx, userId, plan.tier, addonQuantities(plan.addons)) : { over: [] };
  if (downgrade && !plan.confirm) {
    throw new AppError("CONFLICT", preview.over.length > 0 ? `This lowers your plan and ${preview.over.length} ${preview.over.length === 1 ? "thing is" : "things are"} over its limits (nothing is deleted; you add no more of it until it fits): confirm to go ahead.` : "This lowers your plan: confirm to go ahead.");
  }
  const stripe = stripeFor(ctx);
  const subscription = await callStripe(ctx, "read subscription", () => stripe.subscriptions.retrieve(account.subscriptionId!));
  const ids = priceIds(ctx.env);
  const existing = new Map(subscription.items.data.map((item) => [keyOfPrice(ids, item.price.id)?.key ?? item.price.id, item]));
  const wanted = new Map(items.map((item) => [item.key as string, item]));
  // Each item kept is updated in place (its price may change with the interval), the others go,
  // and what is new is added: one item per tier or add-on, as at checkout.
  const changes: Stripe.SubscriptionUpdateParams.Item[] = [];
  for (const [key, item] of existing) {
    const next = wanted.get(key);
    if (next) {
      changes.push({ id: item.id, price: next.price, quantity: next.quantity });
      wanted.delete(key);
    } else changes.push({ id: item.id, deleted: true });
  }
  for (const item of wanted.values()) changes.push({ price: item.price, quantity: item.quantity });
  await callStripe(ctx, "update subscription", () =>
    stripe.subscriptions.update(subscription.id, { items: changes, proration_behavior: downgrade ? "create_prorations" : "always_invoice", cancel_at_period_end: false }),
  );
  ctx.logger.info("subscription changed", { userId, tier: plan.tier, downgrade });
  return { subscription: await syncSubscription(ctx, userId), over: preview.over };
}

export type PlanReview = { downgrade: boolean; tierLabel: string; over: OverLimit[]; nextAmount: number; currency: string | null };

/** Before a change: is it a downgrade, what would be over the new limits, and what it costs per period. */
export async function reviewPlanChange(ctx: ServiceContext, userId: string, input: unknown): Promise<PlanReview> {
  const plan = parseInput(planSchema, input);
  const current = await getSubscription(ctx, userId);
  if (!current) throw new AppError("CONFLICT", "You have no subscription to change: choose a plan and go through checkout.");
  const items = planItems(ctx, plan);
  const prices = new Map((await listPrices(ctx)).map((price) => [price.id, price]));
  const nextAmount = items.reduce((sum, item) => sum + (prices.get(item.price)?.amount ?? 0) * item.quantity, 0);
  const downgrade = isDowngrade(current, plan);
  const over = downgrade ? (await previewPlanChange(ctx, userId, plan.tier, addonQuantities(plan.addons))).over : [];
  return { downgrade, tierLabel: TIER_LABELS[plan.tier], over, nextAmount, currency: current.currency };
}

/** POST /api/billing/subscription/cancel { resume? }: stop at the period's end (or take that back). */
export async function setCancelAtPeriodEnd(ctx: ServiceContext, userId: string, cancel: boolean): Promise<SubscriptionView | null> {
  const account = await findBillingAccount(ctx.db, userId);
  if (!account?.subscriptionId || !viewOf(account)) throw new AppError("CONFLICT", "You have no subscription to cancel.");
  await callStripe(ctx, "update subscription", () => stripeFor(ctx).subscriptions.update(account.subscriptionId!, { cancel_at_period_end: cancel }));
  ctx.logger.info(cancel ? "subscription set to cancel" : "subscription resumed", { userId });
  return syncSubscription(ctx, userId);
}

export type InvoiceView = { id: string; number: string | null; createdAt: string; amount: number; currency: string; status: string | null; pdfUrl: string | null; hostedUrl: string | null };

/** Settings: invoices — the list from Stripe, newest first, with their PDFs. */
export async function listInvoices(ctx: ServiceContext, userId: string): Promise<InvoiceView[]> {
  const account = await findBillingAccount(ctx.db, userId);
  if (!account) return [];
  const invoices = await callStripe(ctx, "list invoices", () => stripeFor(ctx).invoices.list({ customer: account.customerId, limit: 24 }));
  return invoices.data.map((invoice) => ({
    id: invoice.id ?? "",
    number: invoice.number,
    createdAt: new Date(invoice.created * 1000).toISOString(),
    amount: invoice.total,
    currency: invoice.currency,
    status: invoice.status,
    pdfUrl: invoice.invoice_pdf ?? null,
    hostedUrl: invoice.hosted_invoice_url ?? null,
  }));
}

/** POST /api/billing/portal: Stripe's customer portal (cards, cancellation) → its address. */
export async function openPortal(ctx: ServiceContext, userId: string): Promise<{ url: string }> {
  const account = await findBillingAccount(ctx.db, userId);
  if (!account) throw new AppError("CONFLICT", "You have not bought anything yet: there is nothing to manage.");
  const session = await callStripe(ctx, "create portal session", () => stripeFor(ctx).billingPortal.sessions.create({ customer: account.customerId, return_url: `${returnOrigin(ctx)}/settings/subscription` }));
  return { url: session.url };
}

/** The customer an event is about (its object's `customer`, or the object itself). */
function customerOfEvent(event: Stripe.Event): string | null {
  const object = event.data.object as unknown as { object?: string; id?: string; customer?: string | { id: string } | null };
  if (object.object === "customer") return object.id ?? null;
  if (typeof object.customer === "string") return object.customer;
  return object.customer?.id ?? null;
}

/**
 * POST /api/billing/webhook: verify Stripe's signature on the raw body (Web Crypto), then look
 * again for the event's customer. An event seen before is answered and skipped; one about a
 * customer we do not know is answered too (Stripe stops retrying), and logged.
 */
export async function receiveStripeEvent(ctx: ServiceContext, rawBody: string, signature: string | null): Promise<{ received: true; duplicate?: true; ignored?: true }> {
  if (!signature) throw new AppError("VALIDATION_ERROR", "The Stripe-Signature header is missing.");
  let event: Stripe.Event;
  try {
    event = await stripeFor(ctx).webhooks.constructEventAsync(rawBody, signature, webhookSecret(ctx), 300, subtleCrypto);
  } catch (error) {
    ctx.logger.warn("Stripe event refused", { error: error instanceof Error ? error.message : String(error) });
    throw new AppError("VALIDATION_ERROR", "The event's signature is not valid or too old: it was not sent by Stripe for this endpoint.");
  }
  if (await isEventRecorded(ctx.db, event.id)) return { received: true, duplicate: true };
  // A print order's checkout (a one-off payment, no customer): look again at that order.
  const printOrderId = (event.data.object as { metadata?: Record<string, string> | null }).metadata?.print_order_id;
  if (event.type.startsWith("checkout.session.") && printOrderId) {
    await lookAgainAtPayment(ctx, printOrderId);
    await recordEvent(ctx.db, event.id, event.type, null, ctx.now());
    return { received: true };
  }
  const customerId = customerOfEvent(event);
  const account = customerId ? await findBillingAccountByCustomer(ctx.db, customerId) : undefined;
  if (!account) {
    ctx.logger.info("Stripe event for no member", { type: event.type, id: event.id });
    await recordEvent(ctx.db, event.id, event.type, customerId, ctx.now());
    return { received: true, ignored: true };
  }
  await syncSubscription(ctx, account.userId);
  // Recorded after the work: if the read from Stripe failed, Stripe's retry does it again.
  await recordEvent(ctx.db, event.id, event.type, customerId, ctx.now());
  return { received: true };
}
