import { getTrial } from "~/features/billing/trials.server";
import { TRIAL_DAYS } from "~/features/billing/trials.constants";
import { Link } from "react-router";
import { readConfig } from "~/lib/config.server";
import { requestContext } from "~/lib/request-context.server";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import {
  ADDONS,
  DATAROOMS_PER_BATCH,
  FEATURES,
  LIMIT_NAMES,
  STORAGE_MB_PER_UNIT,
  TIER_LABELS,
  UNLIMITED,
  type AddonType,
  type FeatureName,
  type LimitName,
  type TierLimits,
} from "~/features/access/access.constants";
import type { AddonQuantities } from "~/features/access/access-check";
import { loadMemberAccess } from "~/features/access/access.server";
import { ADDON_LABELS, Restricted } from "~/features/access/components/restricted";
import {
  accessLabel,
  describeLimit,
  formatStorage,
  openUpgradeModal,
  upgradeModalMessages,
} from "~/features/access/components/upgrade-modal";
import { useFeature } from "~/features/access/user-store";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import { authCallFor, requireMember } from "~/features/auth/auth-guard.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/plan";

export const meta: Route.MetaFunction = () => titleMeta("Plan");

export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const ctx = authCallFor(context, request).ctx;
  const [access, trial] = await Promise.all([loadMemberAccess(ctx, member.user.id), getTrial(ctx, member.user.id)]);
  const contactEmail = readConfig(context.get(requestContext).env).CONTACT_EMAIL;
  return { tier: access.tier, limits: access.limits, addons: access.addons, contactEmail, trial };
}

/** Where each feature lives, once its page exists; a feature without one shows "Included" (no dead links). */
const FEATURE_PAGES: Partial<Record<FeatureName, string>> = {};

const ADDON_EFFECTS: Record<AddonType, (quantity: number) => string> = {
  extra_datarooms: (quantity) => `+${quantity * DATAROOMS_PER_BATCH} data rooms`,
  extra_storage: (quantity) => `+${formatStorage(quantity * STORAGE_MB_PER_UNIT)} of storage per data room`,
  e_signatures: () => "Electronic signatures on any plan",
  dataroom_team: () => "Team collaboration in data rooms",
  dataroom_guests: () => "Guest access to data rooms",
};

/** What an add-on adds to one limit (only extra data rooms and extra storage raise limits). */
function addonRaise(name: LimitName, addons: AddonQuantities): { amount: number; addon: AddonType; quantity: number } | null {
  if (name === "max_datarooms" && (addons.extra_datarooms ?? 0) > 0) {
    const quantity = addons.extra_datarooms ?? 0;
    return { amount: quantity * DATAROOMS_PER_BATCH, addon: "extra_datarooms", quantity };
  }
  if (name === "max_dataroom_storage_mb" && (addons.extra_storage ?? 0) > 0) {
    const quantity = addons.extra_storage ?? 0;
    return { amount: quantity * STORAGE_MB_PER_UNIT, addon: "extra_storage", quantity };
  }
  return null;
}

function LimitRow({ name, limits, addons, planLabel }: { name: LimitName; limits: TierLimits; addons: AddonQuantities; planLabel: string }) {
  const value = limits[name];
  const raise = value === UNLIMITED ? null : addonRaise(name, addons);
  const base = raise ? value - raise.amount : value;
  const amount = (megabytesOrCount: number) =>
    name === "max_dataroom_storage_mb" ? formatStorage(megabytesOrCount) : megabytesOrCount.toLocaleString("en-US");
  return (
    <li data-testid={`limit-${name}`}>
      <span className="font-medium text-slate-900">{describeLimit(name, value)}</span>
      {raise ? (
        <span className="block text-slate-600">
          {amount(base)} with the {planLabel} plan + {amount(raise.amount)} from {raise.quantity} × {ADDON_LABELS[raise.addon]}
        </span>
      ) : null}
    </li>
  );
}

function FeatureTile({ feature }: { feature: (typeof FEATURES)[number] }) {
  const isAllowed = useFeature(feature.name);
  const label = accessLabel(feature.name);
  const href = FEATURE_PAGES[feature.name];
  return (
    <li
      data-testid={`feature-${feature.name}`}
      data-state={isAllowed ? "unlocked" : "locked"}
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h3 className="font-semibold text-slate-900">{label}</h3>
      <p className="flex-1 text-sm text-slate-700">{feature.description}</p>
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs text-slate-600">From the {TIER_LABELS[feature.requiredTier]} plan</span>
        <Restricted feature={feature.name} label={`Open ${label}`}>
          {href ? (
            <Link to={href} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              Open
            </Link>
          ) : isAllowed ? (
            <Badge variant="success">Included</Badge>
          ) : (
            <Button variant="secondary" size="sm">
              Open
            </Button>
          )}
        </Restricted>
      </div>
    </li>
  );
}

export default function PlanPage({ loaderData }: Route.ComponentProps) {
  const { tier, limits, addons, contactEmail, trial } = loaderData;
  const planLabel = TIER_LABELS[tier];
  const activeAddons = ADDONS.filter((addon) => (addons[addon] ?? 0) > 0);
  return (
    <>
      <SettingsHeader title="Your plan" description="What your plan includes, its limits and your add-ons." />

      <Card data-testid="current-plan">
        <CardHeader>
          <CardTitle as="h2">Current plan</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3">
          <p className="text-lg font-semibold text-slate-900">
            {planLabel} <Badge variant="brand">{trial.status === "active" ? "Free trial" : "Your plan"}</Badge>
          </p>
          {trial.status === "active" ? (
            <p data-testid="plan-trial">
              Your free {TIER_LABELS[trial.tier]} trial: {trial.daysLeft} day{trial.daysLeft === 1 ? "" : "s"} left.{" "}
              <Link to="/trial" className="font-medium text-brand-700 underline">
                What happens when it ends
              </Link>
            </p>
          ) : trial.status === "available" ? (
            <p data-testid="plan-trial">
              <Link to="/trial" className="font-medium text-brand-700 underline">
                Try a paid plan free for {TRIAL_DAYS} days
              </Link>{" "}
              — no card needed, once per account.
            </p>
          ) : null}
          <p>
            Buy or change your plan and add-ons in{" "}
            <Link to="/settings/subscription" className="font-medium text-brand-700 underline">
              Subscription
            </Link>{" "}
            (Stripe's secure checkout). {upgradeModalMessages.contact}:{" "}
            <a href={`mailto:${contactEmail}?subject=${encodeURIComponent("Change my plan")}`} className="font-medium text-brand-700 underline">
              {contactEmail}
            </a>
            .
          </p>
          <Button variant="secondary" onClick={() => openUpgradeModal({ requiredTier: null })}>
            Compare plans
          </Button>
        </CardContent>
      </Card>

      <div className="grid gap-4 md:grid-cols-2">
        <Card data-testid="plan-limits">
          <CardHeader>
            <CardTitle as="h2">Limits</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="space-y-2">
              {LIMIT_NAMES.map((name) => (
                <LimitRow key={name} name={name} limits={limits} addons={addons} planLabel={planLabel} />
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card data-testid="plan-addons">
          <CardHeader>
            <CardTitle as="h2">Add-ons</CardTitle>
          </CardHeader>
          <CardContent>
            {activeAddons.length > 0 ? (
              <ul className="space-y-2">
                {activeAddons.map((addon) => (
                  <li key={addon}>
                    <span className="font-medium text-slate-900">
                      {ADDON_LABELS[addon]} × {addons[addon]}
                    </span>
                    <span className="block text-slate-600">{ADDON_EFFECTS[addon](addons[addon] ?? 0)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p>No add-ons. Extra data rooms, extra storage, e-signatures, data room teams and guests can be added to any plan.</p>
            )}
          </CardContent>
        </Card>
      </div>

      <section aria-labelledby="plan-features-heading" className="space-y-4">
        <h2 id="plan-features-heading" className="text-xl font-semibold text-slate-900">
          What your plan includes
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {FEATURES.map((feature) => (
            <FeatureTile key={feature.name} feature={feature} />
          ))}
        </ul>
      </section>
    </>
  );
}
