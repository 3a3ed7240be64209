import { Link, redirect } from "react-router";
import { IntentButton, IntentForm } from "~/components/intent-form";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { ADDONS, TIER_LABELS, type AddonType } from "~/features/access/access.constants";
import { ADDON_LABELS } from "~/features/access/components/restricted";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { formatMoney, INTERVAL_LABELS, SOLD_TIERS, type SoldTier, type SubscriptionView } from "~/features/billing/billing.constants";
import { PlanPicker, planFromForm, type PlanChoice } from "~/features/billing/components/plan-picker";
import { changeSubscription, getSubscription, listPrices, openPortal, reviewPlanChange, setCancelAtPeriodEnd, startCheckout } from "~/features/billing/subscription.server";
import { applyPlanLimits, listReadOnlyOverPlan } from "~/features/billing/plan-limits.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { formatDayUtc } from "~/lib/format-utc";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/subscription";

export const meta: Route.MetaFunction = () => titleMeta("Subscription");

/** Settings: subscription (spec §2): the plan bought on Stripe, its add-ons and next invoice; buy, change, cancel. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const [subscription, prices, readOnly] = await Promise.all([getSubscription(ctx, user.id), listPrices(ctx), listReadOnlyOverPlan(ctx, user.id)]);
    const asked = new URL(request.url).searchParams.get("plan");
    return { subscription, prices, asked, readOnly: readOnly.map((space) => ({ id: space.id, kind: space.kind, name: space.name, reason: space.reason })) };
  });
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  return runFormAction(
    async () => {
      if (intent === "checkout") throw redirect((await startCheckout(ctx, user.id, planFromForm(form))).url);
      if (intent === "portal") throw redirect((await openPortal(ctx, user.id)).url);
      if (intent === "review") {
        const plan = planFromForm(form);
        return { ok: true as const, review: await reviewPlanChange(ctx, user.id, plan), plan };
      }
      if (intent === "change") {
        const plan = { ...planFromForm(form), confirm: form.get("confirm") === "yes" };
        const { subscription } = await changeSubscription(ctx, user.id, plan);
        return redirectWithNotice(context, "/settings/subscription", { type: "success", message: `Your plan is now ${subscription?.tierLabel ?? "changed"}.` });
      }
      if (intent === "recheck") {
        const { overPlan } = await applyPlanLimits(ctx, user.id);
        return redirectWithNotice(context, "/settings/subscription", { type: "success", message: overPlan.length === 0 ? "Everything fits your plan: nothing is read-only." : `Still over your plan: ${overPlan.length} read-only.` });
      }
      if (intent === "cancel" || intent === "resume") {
        await setCancelAtPeriodEnd(ctx, user.id, intent === "cancel");
        return redirectWithNotice(context, "/settings/subscription", { type: "success", message: intent === "cancel" ? "Your subscription ends at the end of this period." : "Your subscription goes on." });
      }
      return { ok: false as const, message: "Choose what to do: buy, change or cancel." };
    },
    { intent },
  );
}

function addonsText(addons: Partial<Record<AddonType, number>>): string {
  const parts = ADDONS.filter((addon) => (addons[addon] ?? 0) > 0).map((addon) => ((addons[addon] ?? 0) > 1 || addon === "extra_datarooms" || addon === "extra_storage" ? `${addons[addon]} × ${ADDON_LABELS[addon]}` : ADDON_LABELS[addon]));
  return parts.length > 0 ? parts.join(", ") : "None";
}

function Current({ subscription }: { subscription: SubscriptionView }) {
  return (
    <section aria-labelledby="current" className="space-y-3 rounded-lg border border-slate-200 bg-white p-5" data-testid="subscription-current">
      <h2 id="current" className="text-lg font-semibold text-slate-900">
        {subscription.tierLabel}, {INTERVAL_LABELS[subscription.interval].toLowerCase()}
      </h2>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="text-slate-600">Add-ons</dt>
        <dd className="text-slate-900">{addonsText(subscription.addons)}</dd>
        <dt className="text-slate-600">Status</dt>
        <dd className="text-slate-900">{subscription.status === "past_due" ? "Payment overdue: update your card" : subscription.cancelAtPeriodEnd ? "Ends at the end of this period" : "Active"}</dd>
        <dt className="text-slate-600">{subscription.cancelAtPeriodEnd ? "Ends on" : "Next invoice"}</dt>
        <dd className="text-slate-900" data-testid="next-invoice">
          {subscription.cancelAtPeriodEnd
            ? subscription.currentPeriodEnd
              ? formatDayUtc(subscription.currentPeriodEnd)
              : "—"
            : `${subscription.nextAmount !== null && subscription.currency ? formatMoney(subscription.nextAmount, subscription.currency) : "—"}${subscription.currentPeriodEnd ? ` on ${formatDayUtc(subscription.currentPeriodEnd)}` : ""}`}
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <IntentButton intent={subscription.cancelAtPeriodEnd ? "resume" : "cancel"} label={subscription.cancelAtPeriodEnd ? "Keep my subscription" : "Cancel subscription"} variant="secondary" />
        <IntentButton intent="portal" label="Cards and billing details" variant="secondary" />
        <Link to="/settings/invoices" className="self-center text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
          Invoices
        </Link>
      </div>
    </section>
  );
}

export default function SubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { subscription, prices, asked, readOnly } = loaderData;
  const failure = actionData && !actionData.ok ? actionData : null;
  const review = actionData && actionData.ok && "review" in actionData ? actionData : null;
  const initial: PlanChoice = subscription
    ? { tier: subscription.tier, interval: subscription.interval, addons: subscription.addons }
    : { tier: (SOLD_TIERS as readonly string[]).includes(asked ?? "") ? (asked as SoldTier) : "business", interval: "month", addons: {} };
  return (
    <div className="max-w-3xl space-y-6">
      <SettingsHeader
        title="Subscription"
        description={subscription ? "Your plan and add-ons, billed through Stripe. Upgrades apply at once; you pay the rest of the period's difference today." : "Choose a plan and the add-ons you need. You pay through Stripe's secure checkout; you can change or cancel at any time."}
      />
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      {subscription ? <Current subscription={subscription} /> : null}
      {readOnly.length > 0 ? (
        <section aria-labelledby="read-only" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-5" data-testid="over-plan">
          <h2 id="read-only" className="text-lg font-semibold text-slate-900">
            Read-only: over your plan
          </h2>
          <ul className="list-disc space-y-0.5 pl-5 text-sm text-slate-800">
            {readOnly.map((space) => (
              <li key={space.id}>
                {space.kind === "dataroom" ? (
                  <a href={`/dataroom/${space.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {space.name}
                  </a>
                ) : (
                  <span className="font-medium">{space.kind === "personal" ? "Your files" : space.name}</span>
                )}
                : {space.reason}
              </li>
            ))}
          </ul>
          <p className="text-sm text-slate-800">Nothing is deleted. Each can be read and downloaded, and changed again once your plan holds it: choose a bigger plan or add-on below, or delete what is over (the trash counts until it is emptied).</p>
          <IntentButton intent="recheck" label="Check again" variant="secondary" />
        </section>
      ) : null}
      {review ? (
        <section aria-labelledby="review" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-5" data-testid="plan-review">
          <h2 id="review" className="text-lg font-semibold text-slate-900">
            {review.review.downgrade ? `Lower your plan to ${review.review.tierLabel}?` : `Change to ${review.review.tierLabel}`}
          </h2>
          <p className="text-sm text-slate-800">
            From now on: {review.review.currency ? formatMoney(review.review.nextAmount, review.review.currency) : "—"} per period.{" "}
            {review.review.downgrade ? "The unused part of this period is credited to your next invoice." : "The difference for the rest of this period is charged today."}
          </p>
          {review.review.downgrade && review.review.over.length > 0 ? (
            <div className="space-y-1" data-testid="downgrade-over-limits">
              <h3 className="text-sm font-semibold text-slate-900">Over {review.review.tierLabel}'s limits</h3>
              <ul className="list-disc space-y-0.5 pl-5 text-sm text-slate-800">
                {review.review.over.map((item) => (
                  <li key={`${item.limit}:${item.where ?? ""}`}>{item.text}</li>
                ))}
              </ul>
              <p className="text-sm text-slate-800">Nothing of it is deleted. You add no more of it until it fits the plan again.</p>
            </div>
          ) : review.review.downgrade ? (
            <p className="text-sm text-slate-800">Everything you have fits {review.review.tierLabel}'s limits.</p>
          ) : null}
          <IntentForm
            intent="change"
            className="flex gap-2"
            fields={{ confirm: "yes", tier: String(review.plan.tier ?? ""), interval: String(review.plan.interval ?? ""), ...Object.fromEntries(Object.entries(review.plan.addons).map(([addon, quantity]) => [`addon_${addon}`, String(quantity)])) }}
          >
            <Button type="submit">{review.review.downgrade ? "Confirm downgrade" : "Confirm change"}</Button>
            <Link to="/settings/subscription" className="self-center text-sm font-medium text-slate-700 underline-offset-2 hover:underline">
              Keep my plan
            </Link>
          </IntentForm>
        </section>
      ) : null}
      <section aria-labelledby="choose" className="space-y-3">
        <h2 id="choose" className="text-lg font-semibold text-slate-900">
          {subscription ? "Change plan or add-ons" : "Choose a plan"}
        </h2>
        <PlanPicker key={JSON.stringify(initial)} prices={prices} initial={initial} intent={subscription ? "review" : "checkout"} submitLabel={subscription ? "Review change" : "Continue to checkout"} />
        {!subscription ? (
          <p className="text-sm text-slate-600">
            Enterprise ({TIER_LABELS.custom}) is arranged with us: see{" "}
            <Link to="/settings/plan" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              your plan
            </Link>
            .
          </p>
        ) : null}
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
