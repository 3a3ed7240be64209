import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadMemberAccess } from "~/features/access/access.server";
import { LOCAL_CARDS } from "~/features/billing/local-stripe/local-catalogue";
import { payLocalCheckout } from "~/features/billing/local-stripe/local-checkout.server";
import { checkout, memberWhoBought } from "./billing-helpers";
import { LOCAL_WEBHOOK_SECRET, stripeFor, subtleCrypto } from "~/features/billing/stripe-client.server";
import { completeCheckout } from "~/features/billing/subscription.server";
import { testContext } from "~tests/factories/files";
import { countWhere, get, send, signedIn } from "./dataroom-helpers";
import { newAuthClient, origin, testEnv } from "./helpers";

/**
 * Subscriptions on Stripe (issue 43, ADR 044), through the local payments driver: the same Stripe
 * client the app uses in production, answered inside the Worker; its checkout page's "Pay" makes
 * the subscription and sends the app signed events. Stripe is the record: the member's tier and
 * add-ons are written only from Stripe's answer, so replays and late events change nothing.
 */

type Json = Record<string, unknown>;

function customerOf(userId: string) {
  return testEnv.DB.prepare("select customer_id as id from billing_accounts where user_id = ?").bind(userId).first<{ id: string }>();
}

/** A Stripe event as Stripe sends it: its JSON and a Stripe-Signature header for `secret` at `timestamp`. */
async function signedEvent(type: string, object: Json, options: { secret?: string; timestamp?: number; id?: string } = {}) {
  const payload = JSON.stringify({ id: options.id ?? `evt_${crypto.randomUUID().replace(/-/g, "")}`, object: "event", type, created: Math.floor(Date.now() / 1000), data: { object } });
  const header = await stripeFor(testContext()).webhooks.generateTestHeaderStringAsync({ payload, secret: options.secret ?? LOCAL_WEBHOOK_SECRET, timestamp: options.timestamp, cryptoProvider: subtleCrypto });
  return { payload, header };
}

function postEvent(event: { payload: string; header: string | null }) {
  return exports.default.fetch(`${origin}/api/billing/webhook`, { method: "POST", body: event.payload, headers: { "content-type": "application/json", ...(event.header ? { "stripe-signature": event.header } : {}) } });
}

describe("subscriptions on Stripe", () => {
  it("a Free member buys Business with two extra data rooms at checkout: the card is taken, the events arrive, and the plan, add-ons, limits, subscription and invoice follow", async () => {
    const member = await signedIn({ tier: "free" });
    // A trial running when they buy ends: the plan covers it.
    expect((await send(member.client, "POST", "/api/billing/trial", { tier: "pro" })).status).toBe(201);
    const prices = await (await get("/api/billing/prices", member.client)).json<{ prices: { key: string; interval: string; amount: number }[] }>();
    expect(prices.prices).toContainEqual(expect.objectContaining({ key: "business", interval: "month", amount: 7900 }));
    expect(prices.prices).toContainEqual(expect.objectContaining({ key: "extra_datarooms", interval: "year", amount: 10000 }));

    const session = await checkout(member.client, { tier: "business", interval: "month", addons: { extra_datarooms: 2 } });
    // Nothing changes before the card is taken.
    expect((await loadMemberAccess(testContext(), member.id)).tier).toBe("pro");
    const { redirect } = await payLocalCheckout(testContext(), session, LOCAL_CARDS.paid);
    expect(redirect).toBe(`${origin}/checkout/success?session_id=${session}`);

    const access = await loadMemberAccess(testContext(), member.id);
    expect(access.tier).toBe("business");
    expect(access.addons).toEqual({ extra_datarooms: 2 });
    expect(access.limits.max_datarooms).toBe(104);
    expect(access.trial).toBeNull();
    expect(await countWhere("select count(*) as n from users where id = ? and tier = 'business'", member.id)).toBe(1);
    expect(await countWhere("select count(*) as n from member_trials where user_id = ? and ended_at is not null", member.id)).toBe(1);
    // Three events arrived (subscription, invoice, checkout), each recorded once.
    expect(await countWhere("select count(*) as n from billing_events where customer_id = (select customer_id from billing_accounts where user_id = ?)", member.id)).toBe(3);

    const { subscription } = await (await get("/api/billing/subscription", member.client)).json<{ subscription: Json }>();
    expect(subscription).toMatchObject({ status: "active", tier: "business", tierLabel: "Business", interval: "month", addons: { extra_datarooms: 2 }, cancelAtPeriodEnd: false, nextAmount: 9900, currency: "eur" });
    const { invoices } = await (await get("/api/billing/invoices", member.client)).json<{ invoices: Json[] }>();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amount: 9900, currency: "eur", status: "paid" });
    expect(String(invoices[0]!.pdfUrl)).toMatch(/\/dev\/payments\/invoices\/in_[a-z0-9]+\/pdf$/);
    // The success page looks again; the session must be the member's own.
    expect(await completeCheckout(testContext(), member.id, session)).toMatchObject({ tier: "business" });
    const other = await signedIn();
    await expect(completeCheckout(testContext(), other.id, session)).rejects.toMatchObject({ status: 404 });

    // A second checkout is refused: the subscription is changed instead.
    const again = await send(member.client, "POST", "/api/billing/checkout", { tier: "pro" });
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toBe("You already have a subscription: change it in Settings → Subscription instead.");
  });

  it("a declined card charges nothing: the checkout stays open, the plan stays Free, no subscription and no invoice", async () => {
    const member = await signedIn({ tier: "free" });
    const session = await checkout(member.client, { tier: "pro", interval: "year" });
    await expect(payLocalCheckout(testContext(), session, LOCAL_CARDS.declined)).rejects.toMatchObject({ status: 422, message: "Your card was declined. Try another card." });
    await expect(payLocalCheckout(testContext(), session, "4242")).rejects.toMatchObject({ status: 400, message: "Your card number is incomplete." });
    expect((await loadMemberAccess(testContext(), member.id)).tier).toBe("free");
    expect((await (await get("/api/billing/subscription", member.client)).json<{ subscription: unknown }>()).subscription).toBeNull();
    expect((await (await get("/api/billing/invoices", member.client)).json<{ invoices: unknown[] }>()).invoices).toEqual([]);
    // Paid with a good card, the same checkout then completes once.
    await payLocalCheckout(testContext(), session, LOCAL_CARDS.paid);
    await expect(payLocalCheckout(testContext(), session, LOCAL_CARDS.paid)).rejects.toMatchObject({ status: 409 });
    expect((await loadMemberAccess(testContext(), member.id)).tier).toBe("pro");
  });

  it("refuses events with a wrong, missing or stale signature (400, nothing changes); a duplicate, a replay and a late event all end in Stripe's state", async () => {
    const member = await memberWhoBought({ tier: "pro" });
    const customer = (await customerOf(member.id))!.id;
    const ctx = testContext();
    const stripe = stripeFor(ctx);
    const [live] = (await stripe.subscriptions.list({ customer, status: "all" })).data;
    const forged = await signedEvent("customer.subscription.deleted", { id: live!.id, object: "subscription", customer, status: "canceled" }, { secret: "whsec_someone_else" });
    const stale = await signedEvent("customer.subscription.deleted", { id: live!.id, object: "subscription", customer, status: "canceled" }, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    for (const event of [forged, stale, { payload: forged.payload, header: null }]) {
      const response = await postEvent(event);
      expect(response.status).toBe(400);
    }
    expect((await (await postEvent(forged)).json<{ message: string }>()).message).toBe("The event's signature is not valid or too old: it was not sent by Stripe for this endpoint.");
    expect((await loadMemberAccess(testContext(), member.id)).tier).toBe("pro");

    // An event's body is never the answer: a genuine "deleted" event while Stripe says active changes nothing.
    const claim = await signedEvent("customer.subscription.deleted", { id: live!.id, object: "subscription", customer, status: "canceled" });
    expect((await postEvent(claim)).status).toBe(200);
    expect((await loadMemberAccess(testContext(), member.id)).tier).toBe("pro");

    // Stripe cancels it; the "created" event arrives late, then the "deleted" one twice: Free, once.
    await stripe.subscriptions.cancel(live!.id);
    const late = await signedEvent("customer.subscription.created", { ...(live as unknown as Json) });
    expect(await (await postEvent(late)).json()).toEqual({ received: true });
    expect((await loadMemberAccess(testContext(), member.id)).tier).toBe("free");
    const deleted = await signedEvent("customer.subscription.deleted", { id: live!.id, object: "subscription", customer, status: "canceled" }, { id: `evt_dup_${member.id.slice(0, 8)}` });
    expect(await (await postEvent(deleted)).json()).toEqual({ received: true });
    expect(await (await postEvent(deleted)).json()).toEqual({ received: true, duplicate: true });
    expect((await loadMemberAccess(testContext(), member.id)).tier).toBe("free");
    expect((await (await get("/api/billing/subscription", member.client)).json<{ subscription: unknown }>()).subscription).toBeNull();
    // An event about a customer who is no member of ours is answered (Stripe stops retrying) and ignored.
    expect(await (await postEvent(await signedEvent("customer.updated", { id: "cus_nobody", object: "customer" }))).json()).toEqual({ received: true, ignored: true });
  });

  it("a checkout left unpaid changes nothing: a tier given by ops stays when Stripe's events about that customer arrive", async () => {
    const member = await signedIn({ tier: "pro" });
    const session = await checkout(member.client, { tier: "business" });
    const customer = (await customerOf(member.id))!.id;
    const expired = await signedEvent("checkout.session.expired", { id: session, object: "checkout.session", customer });
    expect(await (await postEvent(expired)).json()).toEqual({ received: true });
    expect((await loadMemberAccess(testContext(), member.id)).tier).toBe("pro");
    expect((await (await get("/api/billing/subscription", member.client)).json<{ subscription: unknown }>()).subscription).toBeNull();
  });

  it("an upgrade applies at once with a prorated invoice; a downgrade must be confirmed after its preview; cancelling keeps the plan to the period's end", async () => {
    const member = await memberWhoBought({ tier: "basic", addons: { extra_datarooms: 1 } });
    const upgraded = await send(member.client, "POST", "/api/billing/subscription", { tier: "pro", addons: { extra_datarooms: 1, e_signatures: 1 } });
    expect(upgraded.status, await upgraded.clone().text()).toBe(200);
    expect((await upgraded.json<{ subscription: Json }>()).subscription).toMatchObject({ tier: "pro", addons: { extra_datarooms: 1, e_signatures: 1 }, nextAmount: 2900 + 1000 + 1500 });
    expect(await loadMemberAccess(testContext(), member.id)).toMatchObject({ tier: "pro", addons: { extra_datarooms: 1, e_signatures: 1 } });
    const invoices = (await (await get("/api/billing/invoices", member.client)).json<{ invoices: { amount: number }[] }>()).invoices;
    expect(invoices).toHaveLength(2);
    expect(invoices[0]!.amount).toBeGreaterThan(0);
    expect(invoices[0]!.amount).toBeLessThanOrEqual(2000 + 1500);

    // Taking the add-on away is a downgrade: refused until confirmed; then applied, with no invoice now.
    const unconfirmed = await send(member.client, "POST", "/api/billing/subscription", { tier: "pro", addons: { extra_datarooms: 1 } });
    expect(unconfirmed.status).toBe(409);
    expect((await unconfirmed.json<{ message: string }>()).message).toBe("This lowers your plan: confirm to go ahead.");
    expect((await loadMemberAccess(testContext(), member.id)).addons).toEqual({ extra_datarooms: 1, e_signatures: 1 });
    const confirmed = await send(member.client, "POST", "/api/billing/subscription", { tier: "basic", addons: {}, confirm: true });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect(await loadMemberAccess(testContext(), member.id)).toMatchObject({ tier: "basic", addons: {} });
    expect((await (await get("/api/billing/invoices", member.client)).json<{ invoices: unknown[] }>()).invoices).toHaveLength(2);

    const cancelled = await send(member.client, "POST", "/api/billing/subscription/cancel", {});
    expect((await cancelled.json<{ subscription: Json }>()).subscription).toMatchObject({ tier: "basic", cancelAtPeriodEnd: true });
    expect((await loadMemberAccess(testContext(), member.id)).tier).toBe("basic");
    const resumed = await send(member.client, "POST", "/api/billing/subscription/cancel", { resume: true });
    expect((await resumed.json<{ subscription: Json }>()).subscription).toMatchObject({ cancelAtPeriodEnd: false });
  });

  it("answers members only, refuses what cannot be bought with a message, and a member without a subscription has nothing to change, cancel or manage", async () => {
    const anonymous = await newAuthClient();
    for (const [method, path] of [["GET", "/api/billing/subscription"], ["GET", "/api/billing/invoices"], ["GET", "/api/billing/prices"], ["POST", "/api/billing/checkout"], ["POST", "/api/billing/subscription"], ["POST", "/api/billing/portal"]] as const) {
      const response = method === "GET" ? await get(path, anonymous) : await send(anonymous, method, path, { tier: "pro" });
      expect(response.status, path).toBe(401);
    }
    const member = await signedIn({ tier: "free" });
    const refusals: [Json, string][] = [
      [{ tier: "custom" }, "tier: Choose a plan: basic, pro or business."],
      [{ tier: "pro", interval: "week" }, 'interval: Choose "month" or "year".'],
      [{ tier: "pro", addons: { gold: 1 } }, "addons: Choose from extra_datarooms, extra_storage, e_signatures, dataroom_team and dataroom_guests."],
      [{ tier: "pro", addons: { extra_datarooms: 51 } }, "addons.extra_datarooms: At most 50 at once; write to us for more."],
    ];
    for (const [body, message] of refusals) {
      const response = await send(member.client, "POST", "/api/billing/checkout", body);
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toBe(message);
    }
    // Refused input made no Stripe customer.
    expect(await countWhere("select count(*) as n from billing_accounts where user_id = ?", member.id)).toBe(0);
    expect((await send(member.client, "POST", "/api/billing/subscription", { tier: "pro" })).status).toBe(409);
    expect((await send(member.client, "POST", "/api/billing/subscription/cancel", {})).status).toBe(409);
    expect((await send(member.client, "POST", "/api/billing/portal", {})).status).toBe(409);
    expect(await countWhere("select count(*) as n from users where id = ? and tier = 'free'", member.id)).toBe(1);
  });
});
