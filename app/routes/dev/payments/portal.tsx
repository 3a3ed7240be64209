import { ErrorPage } from "~/components/error-page";
import { IntentButton } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { readLocalPortal, setLocalPortalCancel } from "~/features/billing/local-stripe/local-checkout.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { formatDayUtc } from "~/lib/format-utc";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/portal";

export const meta: Route.MetaFunction = () => titleMeta("Local billing portal");
export const headers = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

/** The local payments driver's customer portal (development and tests): the card on file, cancel or renew, back. */
export async function loader({ context, params }: Route.LoaderArgs) {
  return runLoader(async () => ({ portal: await readLocalPortal(serviceContextFor(context), params.id) }));
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const form = await request.formData();
  return runFormAction(async () => {
    await setLocalPortalCancel(serviceContextFor(context), params.id, form.get("intent") === "cancel");
    return { ok: true as const };
  });
}

export default function LocalPortalPage({ loaderData }: Route.ComponentProps) {
  const { portal } = loaderData;
  return (
    <div className="mx-auto max-w-md space-y-5 py-6">
      <Alert variant="info">Local payments driver: what Stripe's customer portal shows. No money moves.</Alert>
      <h1 className="text-2xl font-semibold text-slate-900">Billing details</h1>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="text-slate-600">Email</dt>
        <dd>{portal.email}</dd>
        <dt className="text-slate-600">Card</dt>
        <dd>Visa •••• 4242</dd>
        <dt className="text-slate-600">Credit balance</dt>
        <dd>{portal.balance}</dd>
        <dt className="text-slate-600">Subscription</dt>
        <dd data-testid="portal-subscription">
          {portal.subscription ? (portal.subscription.cancelAtPeriodEnd ? `Ends ${portal.subscription.periodEnd ? formatDayUtc(portal.subscription.periodEnd) : "at the period's end"}` : "Active") : "None"}
        </dd>
      </dl>
      {portal.subscription ? <IntentButton intent={portal.subscription.cancelAtPeriodEnd ? "renew" : "cancel"} label={portal.subscription.cancelAtPeriodEnd ? "Renew plan" : "Cancel plan"} variant="secondary" /> : null}
      <a href={portal.returnUrl} className="block text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
        Return to Strongroom
      </a>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
