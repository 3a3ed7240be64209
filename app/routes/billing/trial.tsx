import { useState } from "react";
import { Link, useNavigation, useSearchParams } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { TIER_LABELS, normalizeTier, type Tier } from "~/features/access/access.constants";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { TrialModal } from "~/features/billing/components/trial-modal";
import { TRIAL_DAYS, type TrialTier } from "~/features/billing/trials.constants";
import { getTrial, startTrial } from "~/features/billing/trials.server";
import { previewPlanChange } from "~/features/billing/plan-change.server";
import { runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { formatDayUtc } from "~/lib/format-utc";
import type { Route } from "./+types/trial";

export const meta: Route.MetaFunction = () => titleMeta("Trial");

/** /trial (spec §2 "Trial"): the member's free trial: the one they may start, the one running, or the one they had. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const trial = await getTrial(ctx, user.id);
    // The plan they pay for: what they return to (the access's tier is the trial's while it runs).
    const paidTier = (normalizeTier(user.tier) ?? "free") as Tier;
    // While it runs: what would be over the limits of that plan when it ends.
    const afterTrial = trial.status === "active" ? await previewPlanChange(ctx, user.id, paidTier) : null;
    return { trial, paidTier, afterTrial };
  });
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  try {
    const trial = await startTrial(serviceContextFor(context), user.id, { tier: form.get("tier") });
    const message = trial.status === "active" ? `Your ${TIER_LABELS[trial.tier]} trial has started: ${trial.daysLeft} days left.` : "Your trial has started.";
    return await redirectWithNotice(context, "/trial", { type: "success", message });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return { ok: false as const, message: error.message };
    throw error;
  }
}

export default function TrialPage({ loaderData, actionData }: Route.ComponentProps) {
  const { trial, paidTier, afterTrial } = loaderData;
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const asked = params.get("tier") as TrialTier | null;
  const tiers = trial.status === "available" ? trial.tiers : [];
  const [tier, setTier] = useState<TrialTier>(tiers.includes(asked as TrialTier) ? (asked as TrialTier) : (tiers.at(-1) ?? "business"));
  // Opened by the upgrade modal's "Try it free" (?tier=…): the trial modal is up at once.
  const [isModalOpen, setModalOpen] = useState(asked !== null && tiers.includes(asked));
  return (
    <div className="max-w-2xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Free trial</h1>
      {actionData && !actionData.ok ? <Alert variant="error">{actionData.message}</Alert> : null}
      {trial.status === "available" ? (
        <section className="space-y-4" aria-labelledby="offer">
          <h2 id="offer" className="text-lg font-semibold text-slate-900">
            Try a paid plan free for {TRIAL_DAYS} days
          </h2>
          <p className="text-sm text-slate-700">
            Everything the plan has, for {TRIAL_DAYS} days, without a card. You are on {TIER_LABELS[paidTier]}; when the trial ends you are on it again, and nothing is deleted. One trial per account.
          </p>
          <div className="flex flex-wrap items-end gap-3">
            <label className="text-sm font-medium text-slate-900">
              Plan to try
              <select className={nativeSelectClassName} value={tier} onChange={(event) => setTier(event.target.value as TrialTier)}>
                {tiers.map((candidate) => (
                  <option key={candidate} value={candidate}>
                    {TIER_LABELS[candidate]}
                  </option>
                ))}
              </select>
            </label>
            <Button onClick={() => setModalOpen(true)}>Start free trial</Button>
          </div>
          <TrialModal tier={tier} current={paidTier} open={isModalOpen} onOpenChange={setModalOpen} isStarting={navigation.state === "submitting"} />
        </section>
      ) : trial.status === "active" ? (
        <section className="space-y-2" aria-labelledby="running" data-testid="trial-running">
          <h2 id="running" className="text-lg font-semibold text-slate-900">
            Your {TIER_LABELS[trial.tier]} trial: {trial.daysLeft} day{trial.daysLeft === 1 ? "" : "s"} left
          </h2>
          <p className="text-sm text-slate-700">
            It ends on {formatDayUtc(trial.endsAt)}. Then you are on {TIER_LABELS[paidTier]} again; nothing is deleted. We remind you by e-mail 3 days before.
          </p>
          {afterTrial && afterTrial.over.length > 0 ? (
            <div className="space-y-1" data-testid="trial-over-limits">
              <h3 className="text-sm font-semibold text-slate-900">Over {afterTrial.tierLabel}'s limits when it ends</h3>
              <ul className="list-disc space-y-0.5 pl-5 text-sm text-slate-700">
                {afterTrial.over.map((item) => (
                  <li key={`${item.limit}:${item.where ?? ""}`}>{item.text}</li>
                ))}
              </ul>
              <p className="text-sm text-slate-700">Nothing of it is deleted; you add no more of it until it fits, or until you choose a plan that holds it.</p>
            </div>
          ) : afterTrial ? (
            <p className="text-sm text-slate-700" data-testid="trial-over-limits">
              Everything you have fits {afterTrial.tierLabel}'s limits.
            </p>
          ) : null}
          <p className="text-sm">
            <Link to="/settings/plan" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Your plan
            </Link>
          </p>
        </section>
      ) : trial.status === "used" ? (
        <p className="text-sm text-slate-700">
          You have had your free {TIER_LABELS[trial.tier]} trial (it ended on {formatDayUtc(trial.endedAt)}). One trial per account.
        </p>
      ) : (
        <p className="text-sm text-slate-700">Your plan, {TIER_LABELS[paidTier]}, already includes everything a trial offers.</p>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
