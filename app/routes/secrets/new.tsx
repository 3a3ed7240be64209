import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { SecretForm } from "~/features/secrets/components/secret-form";
import { expiryLabel } from "~/features/secrets/secrets.constants";
import { getSecretPlan } from "~/features/secrets/secrets.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/new";
import { UpLink } from "~/components/up-link";

export const meta: Route.MetaFunction = () => titleMeta("New secret");

/** /secrets/new: the form seals the secret in the browser and shows its link once. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getSecretPlan(serviceContextFor(context), user.id));
}

export default function NewSecretPage({ loaderData }: Route.ComponentProps) {
  const plan = loaderData;
  const isFull = plan.liveSecrets !== -1 && plan.live >= plan.liveSecrets;
  return (
    <div className="space-y-6">
      <div className="max-w-3xl space-y-1">
        <UpLink to="/secrets">Secrets</UpLink>
        <h1 className="text-2xl font-semibold text-slate-900">New secret</h1>
        <p className="text-sm text-slate-700">
          Your {plan.tierLabel} plan keeps secrets for up to {expiryLabel(plan.maxExpiryHours)}
          {plan.liveSecrets === -1 ? "." : `, ${plan.liveSecrets} waiting to be read at a time (${plan.live} now).`}{" "}
          {plan.maxExpiryHours < 30 * 24 ? (
            <a href="/settings/plan" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Upgrade for 30 days
            </a>
          ) : null}
        </p>
      </div>
      {isFull ? (
        <p className="max-w-3xl rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900" role="status">
          All {plan.liveSecrets} secrets of your plan are waiting to be read. Burn one you no longer need on its receipt, or{" "}
          <a href="/settings/plan" className="font-medium text-brand-700 underline">
            upgrade your plan
          </a>
          .
        </p>
      ) : null}
      <SecretForm maxExpiryHours={plan.maxExpiryHours} maxFileMb={plan.maxFileMb} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
