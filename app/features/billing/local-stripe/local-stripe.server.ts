import { Hono, type Context } from "hono";
import type { Database } from "~/db/client.server";
import { sha256Hex } from "~/lib/sha256";
import { LOCAL_CURRENCY, localPrices } from "./local-catalogue";
import { countLocalObjects, listLocalObjects, readLocalObject, writeLocalObject, type StripeObject } from "./local-stripe.queries.server";
import { asList, asString, parseStripeForm, type FormValue } from "./stripe-form";

/**
 * The local payments driver (issue 43, ADR 044): the part of Stripe's API this app calls, served
 * inside the Worker over D1 so `npm start` and the tests take payments without a network. The
 * Stripe client reaches it through its own fetch (stripe-client.server.ts); its hosted pages (the
 * checkout and the customer portal) are pages of the app under /dev, and they send the app signed
 * events as Stripe does (local-checkout.server.ts). It answers in Stripe's shapes and errors.
 */

type Env_ = { Bindings: Env };
const DAY = 86_400;

function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

export function localId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
}

function stripeError(c: Context, status: 400 | 404, message: string, param?: string) {
  return c.json({ error: { type: "invalid_request_error", message, ...(param ? { param } : {}) } }, status);
}

async function form(c: Context): Promise<Record<string, FormValue>> {
  const text = c.req.method === "GET" || c.req.method === "DELETE" ? new URL(c.req.url).search.slice(1) : await c.req.text();
  return parseStripeForm(new URLSearchParams(text));
}

function list(url: string, data: StripeObject[]) {
  return { object: "list", data, has_more: false, url };
}

function priceById(id: string): StripeObject | null {
  return (localPrices().find((price) => price.id === id) as StripeObject | undefined) ?? null;
}

function periodEnd(start: number, interval: string): number {
  const date = new Date(start * 1000);
  if (interval === "year") date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return seconds(date);
}

type Line = { price: StripeObject; quantity: number };

/** Stripe's subscription item, with its full price as Stripe embeds it. */
function item(line: Line, subscriptionId: string, start: number, end: number): StripeObject {
  return { id: localId("si"), object: "subscription_item", price: line.price, quantity: line.quantity, subscription: subscriptionId, current_period_start: start, current_period_end: end };
}

function itemsOf(subscription: StripeObject): StripeObject[] {
  return ((subscription.items as { data?: StripeObject[] } | undefined)?.data ?? []) as StripeObject[];
}

function total(items: readonly Record<string, unknown>[]): number {
  return items.reduce((sum, line) => sum + Number((line.price as { unit_amount?: number }).unit_amount ?? 0) * Number(line.quantity ?? 1), 0);
}

function linesOf(raw: FormValue | undefined): Line[] | string {
  const lines: Line[] = [];
  for (const entry of asList(raw)) {
    // A one-off price given inline (payment mode: print orders).
    const inline = entry.price_data as Record<string, FormValue> | undefined;
    if (inline && typeof inline === "object" && !Array.isArray(inline)) {
      const amount = Number(asString(inline.unit_amount));
      if (!Number.isInteger(amount) || amount < 0) return "price_data.unit_amount: a whole number of cents is required.";
      const product = (inline.product_data as Record<string, FormValue> | undefined) ?? {};
      lines.push({ price: { id: localId("price"), object: "price", unit_amount: amount, currency: asString(inline.currency) ?? LOCAL_CURRENCY, recurring: null, lookup_key: asString(product.name) ?? "Item", type: "one_time" }, quantity: Number(asString(entry.quantity) ?? "1") });
      continue;
    }
    const price = priceById(asString(entry.price) ?? "");
    if (!price) return `No such price: '${asString(entry.price) ?? ""}'`;
    lines.push({ price, quantity: Number(asString(entry.quantity) ?? "1") });
  }
  return lines;
}

/** A paid invoice for `lines` (a new subscription's first period, or a prorated change). */
export async function writePaidInvoice(db: Database, customer: StripeObject, subscriptionId: string, lines: { description: string; amount: number; quantity: number }[], reason: string, now: Date, origin: string): Promise<StripeObject> {
  const customerId = customer.id;
  const number = `${String(customer.invoice_prefix)}-${String((await countLocalObjects(db, "invoice", customerId)) + 1).padStart(4, "0")}`;
  const id = localId("in");
  const amount = lines.reduce((sum, line) => sum + line.amount, 0);
  const invoice: StripeObject = {
    id,
    object: "invoice",
    customer: customerId,
    number,
    status: "paid",
    billing_reason: reason,
    currency: LOCAL_CURRENCY,
    total: amount,
    amount_due: amount,
    amount_paid: amount,
    created: seconds(now),
    hosted_invoice_url: `${origin}/dev/payments/invoices/${id}/pdf`,
    invoice_pdf: `${origin}/dev/payments/invoices/${id}/pdf`,
    parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId } },
    lines: { object: "list", data: lines.map((line) => ({ object: "line_item", description: line.description, amount: line.amount, quantity: line.quantity, currency: LOCAL_CURRENCY })), has_more: false },
  };
  await writeLocalObject(db, "invoice", invoice, customerId, now);
  return invoice;
}

/** A new active subscription for a paid checkout session, with its first invoice. */
export async function writeSubscriptionFor(db: Database, session: StripeObject, now: Date, origin: string, cardNumber: string): Promise<{ subscription: StripeObject; invoice: StripeObject }> {
  const found = await readLocalObject(db, String(session.customer));
  if (!found) throw new Error("The checkout session's customer is gone.");
  // The card, as Stripe keeps it: brand, last four and a fingerprint that is the same for the same number.
  const digits = cardNumber.replace(/\D/g, "");
  const fingerprint = (await sha256Hex(new TextEncoder().encode(digits))).slice(0, 16);
  const method: StripeObject = { id: localId("pm"), object: "payment_method", type: "card", customer: found.id, card: { brand: "visa", last4: digits.slice(-4), fingerprint, exp_month: 12, exp_year: now.getUTCFullYear() + 3 }, created: seconds(now) };
  await writeLocalObject(db, "payment_method", method, found.id, now);
  const customer: StripeObject = { ...found, invoice_settings: { default_payment_method: method.id } };
  await writeLocalObject(db, "customer", customer, customer.id, now);
  const lines = (session.line_items_local as Line[]) ?? [];
  const start = seconds(now);
  const interval = String((lines[0]?.price.recurring as { interval?: string } | undefined)?.interval ?? "month");
  const end = periodEnd(start, interval);
  const id = localId("sub");
  const subscription: StripeObject = {
    id,
    object: "subscription",
    customer: customer.id,
    status: "active",
    created: start,
    start_date: start,
    cancel_at_period_end: false,
    canceled_at: null,
    default_payment_method: method.id,
    currency: LOCAL_CURRENCY,
    metadata: (session.subscription_metadata as Record<string, string> | undefined) ?? {},
    items: { object: "list", data: lines.map((line) => item(line, id, start, end)), has_more: false },
  };
  const invoice = await writePaidInvoice(
    db,
    customer,
    id,
    lines.map((line) => ({ description: `${line.quantity} × ${String(line.price.lookup_key)}`, amount: Number(line.price.unit_amount) * line.quantity, quantity: line.quantity })),
    "subscription_create",
    now,
    origin,
  );
  subscription.latest_invoice = invoice.id;
  await writeLocalObject(db, "subscription", subscription, customer.id, now);
  return { subscription, invoice };
}

/** Stripe's API, the part this app uses. `origin` is the app's, for the hosted pages' links. */
function localStripeApi(db: Database, origin: string) {
  return new Hono<Env_>()
    // Stripe's idempotency: a POST with a key seen before answers what the first one did.
    .use("*", async (c, next) => {
      const key = c.req.header("idempotency-key");
      if (c.req.method !== "POST" || !key) return next();
      const stored = await readLocalObject(db, `idem_${key}`);
      if (stored) return c.json(stored.response as Record<string, unknown>, stored.status as 200);
      await next();
      if (c.res.status < 300) await writeLocalObject(db, "idempotency", { id: `idem_${key}`, status: c.res.status, response: await c.res.clone().json() }, null, new Date());
    })
    .post("/v1/customers", async (c) => {
      const body = await form(c);
      const customer: StripeObject = {
        id: localId("cus"),
        object: "customer",
        email: asString(body.email) ?? null,
        name: asString(body.name) ?? null,
        metadata: body.metadata ?? {},
        balance: 0,
        invoice_settings: { default_payment_method: null },
        invoice_prefix: crypto.randomUUID().replace(/-/g, "").slice(0, 8).toUpperCase(),
        created: seconds(new Date()),
      };
      await writeLocalObject(db, "customer", customer, customer.id, new Date());
      return c.json(customer);
    })
    .get("/v1/customers/:id", async (c) => {
      const customer = await readLocalObject(db, c.req.param("id"));
      return customer?.object === "customer" ? c.json(customer) : stripeError(c, 404, `No such customer: '${c.req.param("id")}'`, "id");
    })
    .post("/v1/customers/:id/balance_transactions", async (c) => {
      const body = await form(c);
      const customer = await readLocalObject(db, c.req.param("id"));
      if (customer?.object !== "customer") return stripeError(c, 404, `No such customer: '${c.req.param("id")}'`, "id");
      const amount = Number(asString(body.amount));
      if (!Number.isInteger(amount)) return stripeError(c, 400, "amount: an integer is required.", "amount");
      const transaction: StripeObject = { id: localId("cbtxn"), object: "customer_balance_transaction", customer: customer.id, amount, currency: asString(body.currency) ?? LOCAL_CURRENCY, description: asString(body.description) ?? null, type: "adjustment", created: seconds(new Date()), ending_balance: Number(customer.balance ?? 0) + amount };
      await writeLocalObject(db, "customer", { ...customer, balance: transaction.ending_balance }, customer.id, new Date());
      await writeLocalObject(db, "customer_balance_transaction", transaction, customer.id, new Date());
      return c.json(transaction);
    })
    .get("/v1/customers/:id/balance_transactions", async (c) => c.json(list(`/v1/customers/${c.req.param("id")}/balance_transactions`, await listLocalObjects(db, "customer_balance_transaction", c.req.param("id"), 100))))
    .get("/v1/payment_methods/:id", async (c) => {
      const method = await readLocalObject(db, c.req.param("id"));
      return method?.object === "payment_method" ? c.json(method) : stripeError(c, 404, `No such PaymentMethod: '${c.req.param("id")}'`, "id");
    })
    .get("/v1/payment_intents/:id", async (c) => {
      const intent = await readLocalObject(db, c.req.param("id"));
      return intent?.object === "payment_intent" ? c.json(intent) : stripeError(c, 404, `No such payment_intent: '${c.req.param("id")}'`, "id");
    })
    .post("/v1/refunds", async (c) => {
      const body = await form(c);
      const intent = await readLocalObject(db, asString(body.payment_intent) ?? "");
      if (intent?.object !== "payment_intent") return stripeError(c, 400, `No such payment_intent: '${asString(body.payment_intent) ?? ""}'`, "payment_intent");
      if (intent.refunded) return stripeError(c, 400, `Charge for ${intent.id} has already been refunded.`, "payment_intent");
      const refund: StripeObject = { id: localId("re"), object: "refund", payment_intent: intent.id, amount: intent.amount, currency: intent.currency, status: "succeeded", created: seconds(new Date()) };
      await writeLocalObject(db, "payment_intent", { ...intent, refunded: true }, null, new Date());
      await writeLocalObject(db, "refund", refund, null, new Date());
      return c.json(refund);
    })
    .get("/v1/prices", (c) => c.json(list("/v1/prices", localPrices() as StripeObject[])))
    .post("/v1/checkout/sessions", async (c) => {
      const body = await form(c);
      // Subscriptions need a customer; a one-off payment may be a guest's (its e-mail only).
      const customer = body.customer ? await readLocalObject(db, asString(body.customer) ?? "") : { id: null, email: asString(body.customer_email) ?? null };
      if (!customer) return stripeError(c, 400, `No such customer: '${asString(body.customer) ?? ""}'`, "customer");
      const lines = linesOf(body.line_items);
      if (typeof lines === "string") return stripeError(c, 400, lines, "line_items");
      if (lines.length === 0) return stripeError(c, 400, "line_items: at least one is required.", "line_items");
      const mode = asString(body.mode) ?? "subscription";
      const intervals = new Set(lines.map((line) => (line.price.recurring as { interval?: string } | null)?.interval ?? "none"));
      if (mode === "subscription" && (intervals.size > 1 || intervals.has("none"))) return stripeError(c, 400, "All prices of a subscription must be recurring, with the same billing interval.", "line_items");
      if (mode === "payment" && !intervals.has("none")) return stripeError(c, 400, "You specified `payment` mode but passed a recurring price.", "line_items");
      const now = new Date();
      const id = localId("cs_test");
      const session: StripeObject = {
        id,
        object: "checkout.session",
        mode,
        status: "open",
        customer_email: (customer.email as string | null) ?? null,
        payment_intent: null,
        payment_status: "unpaid",
        customer: customer.id,
        client_reference_id: asString(body.client_reference_id) ?? null,
        metadata: body.metadata ?? {},
        subscription_metadata: (body.subscription_data as Record<string, FormValue> | undefined)?.metadata ?? {},
        success_url: asString(body.success_url) ?? `${origin}/`,
        cancel_url: asString(body.cancel_url) ?? `${origin}/`,
        url: `${origin}/dev/payments/checkout/${id}`,
        amount_total: total(lines),
        currency: LOCAL_CURRENCY,
        subscription: null,
        created: seconds(now),
        expires_at: seconds(now) + DAY,
        line_items_local: lines,
      };
      await writeLocalObject(db, "checkout.session", session, (customer.id as string | null) ?? null, now);
      return c.json(session);
    })
    .get("/v1/checkout/sessions/:id", async (c) => {
      const session = await readLocalObject(db, c.req.param("id"));
      return session?.object === "checkout.session" ? c.json(session) : stripeError(c, 404, `No such checkout.session: '${c.req.param("id")}'`, "session");
    })
    .get("/v1/subscriptions", async (c) => {
      const query = await form(c);
      const customer = asString(query.customer);
      if (!customer) return stripeError(c, 400, "customer is required here.", "customer");
      const status = asString(query.status) ?? "active";
      const all = await listLocalObjects(db, "subscription", customer, Number(asString(query.limit) ?? "10"));
      // Stripe lists every status but canceled by default; "all" includes it.
      return c.json(list("/v1/subscriptions", all.filter((sub) => status === "all" || sub.status === status || (status === "active" && sub.status !== "canceled"))));
    })
    .get("/v1/subscriptions/:id", async (c) => {
      const subscription = await readLocalObject(db, c.req.param("id"));
      return subscription?.object === "subscription" ? c.json(subscription) : stripeError(c, 404, `No such subscription: '${c.req.param("id")}'`, "id");
    })
    .post("/v1/subscriptions/:id", async (c) => {
      const subscription = await readLocalObject(db, c.req.param("id"));
      if (subscription?.object !== "subscription") return stripeError(c, 404, `No such subscription: '${c.req.param("id")}'`, "id");
      if (subscription.status === "canceled") return stripeError(c, 400, "A canceled subscription can only update its cancellation_details and metadata.");
      const body = await form(c);
      const now = new Date();
      const cancel = asString(body.cancel_at_period_end);
      if (cancel !== undefined) subscription.cancel_at_period_end = cancel === "true";
      const changes = asList(body.items);
      if (changes.length > 0) {
        const before = itemsOf(subscription);
        let items = [...before];
        for (const change of changes) {
          const id = asString(change.id);
          const existing = id ? items.find((candidate) => candidate.id === id) : undefined;
          if (id && !existing) return stripeError(c, 400, `No such subscription item: '${id}'`, "items");
          if (existing && asString(change.deleted) === "true") {
            items = items.filter((candidate) => candidate !== existing);
            continue;
          }
          const priceId = asString(change.price);
          const price = priceId ? priceById(priceId) : null;
          if (priceId && !price) return stripeError(c, 400, `No such price: '${priceId}'`, "items");
          const quantity = Number(asString(change.quantity) ?? (existing ? existing.quantity : 1));
          if (existing) items = items.map((candidate) => (candidate === existing ? { ...existing, ...(price ? { price } : {}), quantity } : candidate));
          else if (price) items.push(item({ price, quantity }, subscription.id, 0, 0));
        }
        if (items.length === 0) return stripeError(c, 400, "A subscription needs at least one item.", "items");
        const intervals = new Set(items.map((line) => ((line.price as StripeObject).recurring as { interval: string }).interval));
        if (intervals.size > 1) return stripeError(c, 400, "All prices of a subscription must have the same billing interval.", "items");
        const first = before[0];
        let start = Number(first?.current_period_start ?? seconds(now));
        let end = Number(first?.current_period_end ?? periodEnd(start, "month"));
        const interval = [...intervals][0] ?? "month";
        const oldInterval = ((first?.price as StripeObject | undefined)?.recurring as { interval?: string } | undefined)?.interval;
        // The time left of the period, as a share: what the difference in price is charged (or credited) for.
        let share = end > start ? Math.max(0, Math.min(1, (end - seconds(now)) / (end - start))) : 0;
        if (oldInterval !== interval) {
          // A change of interval starts a new period now (Stripe resets the billing cycle anchor).
          start = seconds(now);
          end = periodEnd(start, interval);
          share = 1;
        }
        const difference = Math.round((total(items) - total(before)) * share);
        subscription.items = { object: "list", data: items.map((line) => ({ ...line, current_period_start: start, current_period_end: end })), has_more: false };
        const behavior = asString(body.proration_behavior) ?? "create_prorations";
        const customer = await readLocalObject(db, String(subscription.customer));
        if (customer && behavior !== "none" && difference !== 0) {
          if (difference > 0 && behavior === "always_invoice") {
            const invoice = await writePaidInvoice(db, customer, subscription.id, [{ description: "Remaining time on the new plan (prorated)", amount: difference, quantity: 1 }], "subscription_update", now, origin);
            subscription.latest_invoice = invoice.id;
          } else {
            // What is not invoiced now is settled on the customer's balance (a credit when negative).
            customer.balance = Number(customer.balance ?? 0) + difference;
            await writeLocalObject(db, "customer", customer, customer.id, now);
          }
        }
      }
      await writeLocalObject(db, "subscription", subscription, String(subscription.customer), now);
      return c.json(subscription);
    })
    .delete("/v1/subscriptions/:id", async (c) => {
      const subscription = await readLocalObject(db, c.req.param("id"));
      if (subscription?.object !== "subscription") return stripeError(c, 404, `No such subscription: '${c.req.param("id")}'`, "id");
      subscription.status = "canceled";
      subscription.canceled_at = seconds(new Date());
      await writeLocalObject(db, "subscription", subscription, String(subscription.customer), new Date());
      return c.json(subscription);
    })
    .get("/v1/invoices", async (c) => {
      const query = await form(c);
      const customer = asString(query.customer);
      if (!customer) return stripeError(c, 400, "customer is required here.", "customer");
      return c.json(list("/v1/invoices", await listLocalObjects(db, "invoice", customer, Number(asString(query.limit) ?? "10"))));
    })
    .post("/v1/billing_portal/sessions", async (c) => {
      const body = await form(c);
      const customer = await readLocalObject(db, asString(body.customer) ?? "");
      if (!customer) return stripeError(c, 400, `No such customer: '${asString(body.customer) ?? ""}'`, "customer");
      const id = localId("bps");
      const session: StripeObject = { id, object: "billing_portal.session", customer: customer.id, return_url: asString(body.return_url) ?? `${origin}/`, url: `${origin}/dev/payments/portal/${id}`, created: seconds(new Date()) };
      await writeLocalObject(db, "billing_portal.session", session, customer.id, new Date());
      return c.json(session);
    })
    .all("*", (c) => stripeError(c, 404, `Unrecognized request URL (${c.req.method}: ${new URL(c.req.url).pathname}). The local payments driver serves only what Strongroom calls.`));
}

/** A fetch that answers the Stripe client from the local driver over the caller's database (no network). */
export function localStripeFetch(db: Database, env: Env, origin: string): typeof fetch {
  const api = localStripeApi(db, origin);
  return (async (input: RequestInfo | URL, init?: RequestInit) => api.fetch(new Request(input, init), env)) as typeof fetch;
}
