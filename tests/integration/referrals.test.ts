import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LOCAL_CARDS } from "~/features/billing/local-stripe/local-catalogue";
import { payLocalCheckout } from "~/features/billing/local-stripe/local-checkout.server";
import { attributeSignUp, getReferralPage, mailboxOf } from "~/features/billing/referrals.server";
import { stripeFor } from "~/features/billing/stripe-client.server";
import { syncSubscription } from "~/features/billing/subscription.server";
import { testContext } from "~tests/factories/files";
import { checkout } from "./billing-helpers";
import { countWhere, signedIn } from "./dataroom-helpers";
import { origin, testEnv } from "./helpers";

/**
 * Referrals (issue 43): a member's link sets a 90-day first-party cookie; a sign-up with it is
 * attributed; the referred member's first payment credits both Stripe balances once. A
 * self-referral and a card the referrer or another referral already used are refused.
 */

type Member = Awaited<ReturnType<typeof signedIn>>;

async function follow(code: string, cookie = "") {
  return exports.default.fetch(`${origin}/ref/${code}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
}

async function pays(member: Member, card: string, tier = "pro") {
  const session = await checkout(member.client, { tier, interval: "month" });
  await payLocalCheckout(testContext(), session, card);
}

async function balanceOf(userId: string): Promise<number> {
  const account = await testEnv.DB.prepare("select customer_id as id from billing_accounts where user_id = ?").bind(userId).first<{ id: string }>();
  if (!account) return 0;
  const customer = await stripeFor(testContext()).customers.retrieve(account.id);
  return customer.deleted ? 0 : customer.balance;
}

async function referredBy(referrer: Member, email?: string): Promise<Member> {
  const { code } = await getReferralPage(testContext(), referrer.id);
  const member = await signedIn({ tier: "free", email });
  await attributeSignUp(testContext(), member, code);
  return member;
}

describe("referrals", () => {
  it("a followed link sets a 90-day cookie and counts the click once per browser; the referrer's own visit, an unknown code and essential-only cookies set nothing", async () => {
    const referrer = await signedIn();
    const { code, path } = await getReferralPage(testContext(), referrer.id);
    expect(path).toBe(`/ref/${code}`);

    const first = await follow(code);
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("/register");
    expect(first.headers.get("set-cookie")).toMatch(new RegExp(`^sr_ref=${code}; Path=/; Max-Age=7776000; HttpOnly; SameSite=Lax`));
    await follow(code, `sr_ref=${code}`);
    expect((await getReferralPage(testContext(), referrer.id)).stats.clicks).toBe(1);
    await follow(code, "sr_ref=abcdefgh");
    expect((await getReferralPage(testContext(), referrer.id)).stats.clicks).toBe(2);

    const own = await follow(code, referrer.client.jar.header());
    expect(own.headers.get("location")).toBe("/referrals");
    expect(own.headers.get("set-cookie") ?? "").not.toContain("sr_ref");
    expect((await follow("zzzzzzzz")).headers.get("set-cookie") ?? "").not.toContain("sr_ref");
    expect((await follow(code, "dataroom_cookie_consent=essential")).headers.get("set-cookie") ?? "").not.toContain("sr_ref");
    expect((await getReferralPage(testContext(), referrer.id)).stats.clicks).toBe(2);
  });

  it("the referred member's first payment credits both balances once, whatever Stripe sends again, and the page counts it", async () => {
    const referrer = await signedIn();
    const friend = await referredBy(referrer);
    expect((await getReferralPage(testContext(), referrer.id)).people).toEqual([expect.objectContaining({ email: `${friend.email.slice(0, 1)}•••@${friend.email.split("@")[1]}`, status: "signed_up", credited: false })]);

    await pays(friend, LOCAL_CARDS.paid);
    expect(await balanceOf(friend.id)).toBe(-1000);
    expect(await balanceOf(referrer.id)).toBe(-1000);
    // Looking again (every webhook does) credits nothing more.
    await syncSubscription(testContext(), friend.id);
    await syncSubscription(testContext(), friend.id);
    expect(await balanceOf(friend.id)).toBe(-1000);
    expect(await balanceOf(referrer.id)).toBe(-1000);
    const page = await getReferralPage(testContext(), referrer.id);
    expect(page.stats).toMatchObject({ signUps: 1, paid: 1, creditedCents: 1000, currency: "eur" });
    expect(page.people[0]).toMatchObject({ status: "paid", creditCents: 1000, credited: true });
  });

  it("refuses a self-referral and a card already used by the referrer or another of their referrals; a new card counts", async () => {
    const referrer = await signedIn({ email: `first.last+main-${crypto.randomUUID().slice(0, 8)}@gmail.com` });
    await pays(referrer, LOCAL_CARDS.paid);
    expect(mailboxOf("First.Last+x@googlemail.com")).toBe("firstlast@gmail.com");
    const localPart = referrer.email.split("@")[0]!.split("+")[0]!;
    const self = await referredBy(referrer, `${localPart.replace(".", "")}+${crypto.randomUUID().slice(0, 8)}@gmail.com`);
    const sameCard = await referredBy(referrer);
    const newCard = await referredBy(referrer);
    const repeated = await referredBy(referrer);
    await pays(self, "5105 1051 0510 5100");
    await pays(sameCard, LOCAL_CARDS.paid);
    await pays(newCard, "5555 5555 5555 4444");
    await pays(repeated, "5555 5555 5555 4444");

    const statuses = Object.fromEntries(
      (await testEnv.DB.prepare("select referred_id as id, status, refusal from referrals where referrer_id = ?").bind(referrer.id).all<{ id: string; status: string; refusal: string | null }>()).results.map((row) => [row.id, row]),
    );
    expect(statuses[self.id]).toMatchObject({ status: "refused", refusal: "Signed up with the referrer's own address." });
    expect(statuses[sameCard.id]).toMatchObject({ status: "refused", refusal: "Paid with a card the referrer or another of their referrals already used." });
    expect(statuses[newCard.id]).toMatchObject({ status: "paid", refusal: null });
    expect(statuses[repeated.id]).toMatchObject({ status: "refused" });
    expect(await balanceOf(referrer.id)).toBe(-1000);
    for (const refused of [self, sameCard, repeated]) expect(await balanceOf(refused.id)).toBe(0);
    expect(await countWhere("select count(*) as n from referrals where referrer_id = ? and credited_at is not null", referrer.id)).toBe(1);
  });
});
