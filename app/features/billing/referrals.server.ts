import type Stripe from "stripe";
import { readConfig } from "~/lib/config.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { findBillingAccount } from "./billing.queries.server";
import { callStripe, customerOf } from "./billing-customer.server";
import { REFERRAL_CODE_PATTERN, type ReferralPage } from "./referrals.constants";
import {
  countReferralClick,
  findReferralCode,
  findReferralOf,
  findReferrerByCode,
  insertReferral,
  insertReferralCode,
  listPaidFingerprints,
  listReferralsOf,
  markReferralCredited,
  settleReferral,
} from "./referrals.queries.server";
import { stripeFor } from "./stripe-client.server";

/**
 * Referrals (issue 43, docs/billing.md): each member's link (/ref/{code}) sets a first-party
 * cookie for 90 days; a sign-up with it is attributed to the referrer; when the referred member
 * first pays, both get a credit on their Stripe customer balance (the next invoices use it).
 * Refused: a self-referral (the referrer's own address, +tags and Gmail dots aside) and a card
 * the referrer or another of their paid referrals already used (Stripe's card fingerprint).
 */

const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

/** One mailbox, however it is written: lower case, no +tag, no dots for Gmail. */
export function mailboxOf(email: string): string {
  const [local = "", domain = ""] = email.trim().toLowerCase().split("@");
  const bare = local.split("+")[0]!;
  const gmail = domain === "gmail.com" || domain === "googlemail.com";
  return `${gmail ? bare.replace(/\./g, "") : bare}@${gmail ? "gmail.com" : domain}`;
}

function creditOf(ctx: ServiceContext): number {
  return readConfig(ctx.env).REFERRAL_CREDIT_CENTS;
}

async function ensureCode(ctx: ServiceContext, userId: string): Promise<{ code: string; clicks: number }> {
  const existing = await findReferralCode(ctx.db, userId);
  if (existing) return existing;
  await insertReferralCode(ctx.db, userId, newCode(), ctx.now());
  return (await findReferralCode(ctx.db, userId))!;
}

/** /referrals: the member's link, what it brought and what they earned. */
export async function getReferralPage(ctx: ServiceContext, userId: string): Promise<ReferralPage> {
  const [{ code, clicks }, people] = await Promise.all([ensureCode(ctx, userId), listReferralsOf(ctx.db, userId)]);
  const credited = people.filter((person) => person.status === "paid");
  const currency = credited.find((person) => person.currency)?.currency ?? "eur";
  return {
    code,
    path: `/ref/${code}`,
    credit: { cents: creditOf(ctx), currency },
    stats: { clicks, signUps: people.length, paid: credited.length, creditedCents: credited.filter((person) => person.creditedAt).reduce((sum, person) => sum + (person.creditCents ?? 0), 0), currency },
    people: people.map((person) => ({
      email: maskEmail(person.email),
      signedUpAt: person.signedUpAt.toISOString(),
      status: person.status,
      refusal: person.refusal,
      creditCents: person.creditCents,
      currency: person.currency,
      credited: person.creditedAt !== null,
    })),
  };
}

/** "g•••@example.com": enough to recognise a friend, not to harvest addresses. */
export function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}•••@${domain}`;
}

/**
 * /ref/{code}: a visitor followed a link. Counted once per browser (the cookie already naming the
 * code is not counted again); the referrer's own visit sets nothing. Answers whether to set the
 * cookie (an unknown code: no).
 */
export async function followReferralLink(ctx: ServiceContext, rawCode: string, viewerId: string | null, cookieCode: string | null): Promise<{ setCookie: boolean }> {
  const code = rawCode.toLowerCase();
  if (!REFERRAL_CODE_PATTERN.test(code)) return { setCookie: false };
  const referrer = await findReferrerByCode(ctx.db, code);
  if (!referrer || referrer.userId === viewerId) return { setCookie: false };
  if (cookieCode !== code) await countReferralClick(ctx.db, code);
  return { setCookie: true };
}

/** A new account: attributed to the referrer whose link's cookie came with the sign-up (a self-referral is kept, refused). */
export async function attributeSignUp(ctx: ServiceContext, user: { id: string; email: string }, cookieCode: string | null): Promise<void> {
  const code = cookieCode?.toLowerCase() ?? "";
  if (!REFERRAL_CODE_PATTERN.test(code)) return;
  const referrer = await findReferrerByCode(ctx.db, code);
  if (!referrer || referrer.userId === user.id) return;
  const self = mailboxOf(referrer.email) === mailboxOf(user.email);
  await insertReferral(ctx.db, {
    referredId: user.id,
    referrerId: referrer.userId,
    status: self ? "refused" : "signed_up",
    refusal: self ? "Signed up with the referrer's own address." : null,
    signedUpAt: ctx.now(),
  });
  ctx.logger.info("referral attributed", { referrerId: referrer.userId, referredId: user.id, refused: self });
}

async function fingerprintOf(ctx: ServiceContext, paymentMethod: string | Stripe.PaymentMethod | null | undefined): Promise<string | null> {
  if (!paymentMethod) return null;
  const method = typeof paymentMethod === "string" ? await callStripe(ctx, "read payment method", () => stripeFor(ctx).paymentMethods.retrieve(paymentMethod)) : paymentMethod;
  return method.card?.fingerprint ?? null;
}

/** The card the referrer pays with, if they have one on Stripe. */
async function referrerFingerprint(ctx: ServiceContext, referrerId: string): Promise<string | null> {
  const account = await findBillingAccount(ctx.db, referrerId);
  if (!account) return null;
  const customer = await callStripe(ctx, "read customer", () => stripeFor(ctx).customers.retrieve(account.customerId));
  if (customer.deleted) return null;
  return fingerprintOf(ctx, customer.invoice_settings?.default_payment_method);
}

/**
 * The referred member pays (a live paid subscription, from `syncSubscription`): once, settle the
 * referral — refused for a card already used by the referrer or another paid referral of theirs,
 * else paid — and credit both customer balances (idempotency keys: a retry credits nothing twice).
 */
export async function rewardReferral(ctx: ServiceContext, userId: string, subscription: Stripe.Subscription): Promise<void> {
  let referral = await findReferralOf(ctx.db, userId);
  if (!referral || referral.status === "refused" || (referral.status === "paid" && referral.creditedAt)) return;
  if (referral.status === "signed_up") {
    const [card, referrerCard, used] = await Promise.all([fingerprintOf(ctx, subscription.default_payment_method), referrerFingerprint(ctx, referral.referrerId), listPaidFingerprints(ctx.db, referral.referrerId)]);
    const repeated = card !== null && (card === referrerCard || used.includes(card));
    await settleReferral(ctx.db, userId, {
      status: repeated ? "refused" : "paid",
      refusal: repeated ? "Paid with a card the referrer or another of their referrals already used." : null,
      paidAt: ctx.now(),
      cardFingerprint: card,
      creditCents: repeated ? null : creditOf(ctx),
      currency: repeated ? null : subscription.currency,
    });
    referral = await findReferralOf(ctx.db, userId);
    if (!referral || referral.status !== "paid") {
      ctx.logger.info("referral refused", { referredId: userId, reason: "repeated card" });
      return;
    }
  }
  const amount = referral.creditCents ?? creditOf(ctx);
  const currency = referral.currency ?? subscription.currency;
  const [referred, referrer] = await Promise.all([customerOf(ctx, userId), customerOf(ctx, referral.referrerId)]);
  const stripe = stripeFor(ctx);
  for (const [side, account] of [["referred", referred], ["referrer", referrer]] as const) {
    await callStripe(ctx, "credit balance", () =>
      stripe.customers.createBalanceTransaction(account.customerId, { amount: -amount, currency, description: side === "referred" ? "Referral credit: welcome" : "Referral credit: thank you" }, { idempotencyKey: `referral-${userId}-${side}` }),
    );
  }
  await markReferralCredited(ctx.db, userId, ctx.now());
  ctx.logger.info("referral credited", { referredId: userId, referrerId: referral.referrerId, amount });
}
