import { Hono } from "hono";
import { getTrial, startTrial } from "~/features/billing/trials.server";
import { previewPlanChange } from "~/features/billing/plan-change.server";
import { applyPlanLimits, listReadOnlyOverPlan } from "~/features/billing/plan-limits.server";
import {
  changeSubscription,
  getSubscription,
  listInvoices,
  listPrices,
  openPortal,
  receiveStripeEvent,
  setCancelAtPeriodEnd,
  startCheckout,
} from "~/features/billing/subscription.server";
import { normalizeTier } from "~/features/access/access.constants";
import { AppError } from "~/lib/errors";
import type { Context } from "hono";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/billing/…: the member's subscription (issue 43, docs/billing.md). The free trial (GET, POST
 * { tier }); what would be over another plan's limits (GET /preview?tier=); prices; checkout
 * (POST → the page to send the browser to); the subscription (GET; POST to change, with
 * `confirm` for a downgrade; POST /cancel { resume }); invoices; Stripe's customer portal.
 */
export const billingApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/trial", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ trial: await getTrial(apiServiceContext(c), actor.userId) }, 200);
  })
  // What would be over the limits on another plan (?tier=free|basic|pro|business|custom).
  .get("/preview", async (c) => {
    const actor = requireApiActor(c);
    const tier = normalizeTier(c.req.query("tier"));
    if (!tier) throw new AppError("VALIDATION_ERROR", "tier: Say which plan to compare with: free, basic, pro, business or custom.");
    return c.json(await previewPlanChange(apiServiceContext(c), actor.userId, tier), 200);
  })
  .post("/trial", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ trial: await startTrial(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .get("/prices", async (c) => {
    requireApiActor(c);
    return c.json({ prices: await listPrices(apiServiceContext(c)) }, 200);
  })
  .post("/checkout", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await startCheckout(apiServiceContext(c), actor.userId, await readJsonBody(c)), 201);
  })
  .get("/subscription", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ subscription: await getSubscription(apiServiceContext(c), actor.userId) }, 200);
  })
  .post("/subscription", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await changeSubscription(apiServiceContext(c), actor.userId, await readJsonBody(c)), 200);
  })
  .post("/subscription/cancel", async (c) => {
    const actor = requireApiActor(c);
    const body = (await readJsonBody(c)) as { resume?: unknown } | null;
    return c.json({ subscription: await setCancelAtPeriodEnd(apiServiceContext(c), actor.userId, body?.resume !== true) }, 200);
  })
  .get("/invoices", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ invoices: await listInvoices(apiServiceContext(c), actor.userId) }, 200);
  })
  // What is read-only over the member's plan (GET), and "check again" after making room (POST).
  .get("/plan-limits", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ readOnly: await listReadOnlyOverPlan(apiServiceContext(c), actor.userId) }, 200);
  })
  .post("/plan-limits", async (c) => {
    const actor = requireApiActor(c);
    const ctx = apiServiceContext(c);
    await applyPlanLimits(ctx, actor.userId);
    return c.json({ readOnly: await listReadOnlyOverPlan(ctx, actor.userId) }, 200);
  })
  .post("/portal", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await openPortal(apiServiceContext(c), actor.userId), 201);
  });

/**
 * POST /api/billing/webhook: Stripe's events. Mounted ahead of the CSRF check and sessions (Stripe
 * has neither): its proof is the signature over the raw body, checked by the service.
 */
export async function stripeWebhook(c: Context<AppEnv>): Promise<Response> {
  // Stripe's events are a few KB: anything near a megabyte is not one (refused before it is read).
  if (Number(c.req.header("content-length") ?? 0) > 1_000_000) throw new AppError("PAYLOAD_TOO_LARGE", "A Stripe event is never this large.");
  const body = await c.req.text();
  return c.json(await receiveStripeEvent(apiServiceContext(c), body, c.req.header("stripe-signature") ?? null), 200);
}
