import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { TIER_LABELS } from "./access.constants";
import { deleteUserAccessRows } from "./access.queries.server";
import { loadMemberAccess } from "./access.server";
import { findTrial } from "~/features/billing/trials.queries.server";
import { findReferralCode, findReferralOf, listReferralsOf } from "~/features/billing/referrals.queries.server";
import { listPrintOrdersOf } from "~/features/billing/print-orders.queries.server";

/** The member's plan, add-ons, explicit permission grants and resulting limits, and their free trial. */
export const accessPersonalData = definePersonalDataSource({
  name: "plan-and-permissions",
  async export(ctx, userId) {
    const [access, trial, code, referredBy, referred, printOrders] = await Promise.all([
      loadMemberAccess(ctx, userId),
      findTrial(ctx.db, userId),
      findReferralCode(ctx.db, userId),
      findReferralOf(ctx.db, userId),
      listReferralsOf(ctx.db, userId),
      listPrintOrdersOf(ctx.db, userId, 1000),
    ]);
    return [
      {
        path: "plan.json",
        description: "Your plan, its limits after add-ons, your add-ons, the permissions and features it gives you, your free trial if you had one, and your referrals.",
        data: {
          tier: access.tier,
          plan: TIER_LABELS[access.tier],
          limits: access.limits,
          addons: access.addons,
          permissions: access.permissions,
          features: access.features,
          permissionMatrix: access.permissionMatrix,
          trial: trial ? { tier: trial.tier, startedAt: trial.startedAt.toISOString(), endsAt: trial.endsAt.toISOString(), remindedAt: trial.remindedAt?.toISOString() ?? null, endedAt: trial.endedAt?.toISOString() ?? null } : null,
          referrals: {
            code: code?.code ?? null,
            clicks: code?.clicks ?? 0,
            referredBy: referredBy ? { status: referredBy.status, signedUpAt: referredBy.signedUpAt.toISOString(), paidAt: referredBy.paidAt?.toISOString() ?? null } : null,
            // The people they brought, by status and date only (their addresses are theirs).
            referred: referred.map((person) => ({ status: person.status, signedUpAt: person.signedUpAt.toISOString(), creditCents: person.creditCents })),
          },
        },
      },
      {
        path: "print-orders.json",
        description: "Your print orders: what you ordered, where it was shipped, what it cost and what happened to it.",
        data: printOrders.map((order) => ({
          id: order.id,
          status: order.status,
          name: order.name,
          email: order.email,
          address: order.address,
          items: order.items,
          shippingCents: order.shippingCents,
          totalCents: order.totalCents,
          currency: order.currency,
          trackingUrl: order.trackingUrl,
          events: order.events,
          createdAt: order.createdAt.toISOString(),
        })),
      },
    ];
  },
  async erase(ctx, userId) {
    await deleteUserAccessRows(ctx.db, userId);
    return { r2Keys: [] };
  },
});
