import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { RequestForm } from "~/features/secrets/components/request-form";
import { getSecretPlan } from "~/features/secrets/secrets.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/request-new";
import { UpLink } from "~/components/up-link";

export const meta: Route.MetaFunction = () => titleMeta("Request a secret");

/** /secrets/requests/new: a link that lets anyone send the member a secret only they can open. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getSecretPlan(serviceContextFor(context), user.id));
}

export default function NewRequestPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <div className="max-w-3xl space-y-1">
        <UpLink to="/secrets">Secrets</UpLink>
        <h1 className="text-2xl font-semibold text-slate-900">Request a secret</h1>
        <p className="text-sm text-slate-700">
          Send the link to whoever holds the secret (a client's password, a supplier's API key). What they type is encrypted in their browser so that only your passphrase opens it; we never can.
        </p>
      </div>
      <RequestForm maxExpiryHours={loaderData.maxExpiryHours} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
