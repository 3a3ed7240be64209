import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./auth";

/**
 * A member's free trial of a paid tier (issue 43, ADR 043): one per member, ever (the primary key).
 * While `ends_at` is ahead and `ended_at` is empty, the member's access is the higher of this tier
 * and the tier they pay for; the morning job reminds them before the end and closes it after.
 */
export const memberTrials = sqliteTable(
  "member_trials",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    tier: text("tier").notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    endsAt: integer("ends_at", { mode: "timestamp_ms" }).notNull(),
    /** When the "your trial ends soon" e-mail went out (once). */
    remindedAt: integer("reminded_at", { mode: "timestamp_ms" }),
    /** When the trial was closed: by the morning job after `ends_at`, or early (a plan bought). */
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("member_trials_open_idx").on(table.endsAt).where(sql`ended_at IS NULL`)],
);

/**
 * A member's Stripe customer and the last subscription read from Stripe (issue 43, ADR 044). The
 * snapshot is what Settings: subscription shows; `users.tier` and `user_addons` are written from
 * the same read. It is only ever written from Stripe's answer, never from an event's body.
 */
export const billingAccounts = sqliteTable(
  "billing_accounts",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    subscriptionId: text("subscription_id"),
    /** Stripe's status (active, past_due, canceled, …); null before the first purchase. */
    status: text("status"),
    tier: text("tier"),
    interval: text("interval"),
    addons: text("addons", { mode: "json" }).$type<Record<string, number>>(),
    currentPeriodEnd: integer("current_period_end", { mode: "timestamp_ms" }),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    /** Cents of the next invoice as Stripe's prices say (sum of items), with its currency. */
    nextAmount: integer("next_amount"),
    currency: text("currency"),
    syncedAt: integer("synced_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [uniqueIndex("billing_accounts_customer_idx").on(table.customerId)],
);

/** Stripe events already acted on (a replay or a duplicate is answered 200 and does nothing). */
export const billingEvents = sqliteTable("billing_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  customerId: text("customer_id"),
  receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * The local payments driver's store (development and tests only, PAYMENTS_DRIVER=local): the
 * Stripe objects it serves (customers, prices, checkout sessions, subscriptions, invoices) as
 * Stripe's JSON. Empty in production, where Stripe holds them.
 */
export const localStripeObjects = sqliteTable(
  "local_stripe_objects",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    customerId: text("customer_id"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("local_stripe_objects_customer_idx").on(table.kind, table.customerId)],
);

/** A member's referral code (issue 43): their link is /ref/{code}; clicks are counted here. */
export const referralCodes = sqliteTable(
  "referral_codes",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    clicks: integer("clicks").notNull().default(0),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [uniqueIndex("referral_codes_code_idx").on(table.code)],
);

/**
 * A sign-up attributed to a referrer by the 90-day cookie of their link (one per referred member).
 * `status`: signed_up → paid (both credited on the Stripe customer balance) or refused (a
 * self-referral, or a card the referrer or another of their referrals already paid with).
 */
export const referrals = sqliteTable(
  "referrals",
  {
    referredId: text("referred_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    referrerId: text("referrer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["signed_up", "paid", "refused"] }).notNull(),
    refusal: text("refusal"),
    signedUpAt: integer("signed_up_at", { mode: "timestamp_ms" }).notNull(),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    cardFingerprint: text("card_fingerprint"),
    creditCents: integer("credit_cents"),
    currency: text("currency"),
    creditedAt: integer("credited_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("referrals_referrer_idx").on(table.referrerId)],
);

export const printOrderStatuses = ["created", "paid", "sent", "shipped", "failed", "refunded", "expired"] as const;
export type PrintOrderStatus = (typeof printOrderStatuses)[number];

/**
 * A print order from a gallery (issue 43): pictures in sizes and papers priced from the print
 * catalogue, paid through Checkout (payment mode), sent to the print lab. `status` only moves
 * forward: created → paid → sent → shipped, or → failed → refunded. `events` is its timeline.
 */
export const printOrders = sqliteTable(
  "print_orders",
  {
    id: text("id").primaryKey(),
    /** The member who ordered, or null for a public gallery's visitor (who opens it with its token: an HMAC of its id). */
    buyerId: text("buyer_id").references(() => users.id, { onDelete: "cascade" }),
    folderId: text("folder_id").notNull(),
    /** The public gallery (share link) a visitor ordered from, or null for a member's own gallery. */
    shareLinkId: text("share_link_id"),
    name: text("name").notNull(),
    email: text("email").notNull(),
    address: text("address", { mode: "json" }).$type<{ line1: string; line2?: string; city: string; postalCode: string; country: string }>().notNull(),
    items: text("items", { mode: "json" }).$type<{ fileId: string; name: string; size: string; paper: string; quantity: number; unitCents: number }[]>().notNull(),
    shippingCents: integer("shipping_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: printOrderStatuses }).notNull(),
    checkoutSessionId: text("checkout_session_id"),
    paymentIntentId: text("payment_intent_id"),
    labOrderId: text("lab_order_id"),
    trackingUrl: text("tracking_url"),
    failure: text("failure"),
    events: text("events", { mode: "json" }).$type<{ at: string; status: PrintOrderStatus; detail: string | null }[]>().notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("print_orders_buyer_idx").on(table.buyerId, table.createdAt), uniqueIndex("print_orders_lab_idx").on(table.labOrderId), index("print_orders_open_idx").on(table.status, table.updatedAt)],
);
