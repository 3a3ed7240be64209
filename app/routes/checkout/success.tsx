import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { buttonClassName } from "~/components/ui/button";
import { ADDONS } from "~/features/access/access.constants";
import { ADDON_LABELS } from "~/features/access/components/restricted";
import { requireMember } from "~/features/auth/auth-guard.server";
import { completeCheckout } from "~/features/billing/subscription.server";
import { runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { useRevalidateWhile } from "~/lib/use-revalidate-while";
import type { Route } from "./+types/success";

export const meta: Route.MetaFunction = () => titleMeta("Checkout success");

/**
 * Checkout success (spec §2): Stripe sends the browser here after payment. The page does not
 * trust the address: it checks the session is the member's and reads the subscription from
 * Stripe (the webhook may still be on its way).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  return runLoader(async () => {
    if (!sessionId) throw new AppError("NOT_FOUND", "This checkout does not exist.");
    return { subscription: await completeCheckout(serviceContextFor(context), user.id, sessionId) };
  });
}

export default function CheckoutSuccessPage({ loaderData }: Route.ComponentProps) {
  const { subscription } = loaderData;
  const addons = subscription ? ADDONS.filter((addon) => (subscription.addons[addon] ?? 0) > 0) : [];
  // Stripe's confirmation is usually seconds behind the browser: look again until it is here.
  useRevalidateWhile(!subscription, 3000);
  return (
    <div className="mx-auto max-w-xl space-y-5 py-8 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">{subscription ? `Welcome to ${subscription.tierLabel}` : "Thank you"}</h1>
      {subscription ? (
        <div className="space-y-2 text-sm text-slate-700" data-testid="checkout-success">
          <p>Your payment went through and your plan is active now. The invoice is in Settings → Invoices.</p>
          {addons.length > 0 ? (
            <ul className="inline-block text-left">
              {addons.map((addon) => (
                <li key={addon}>
                  {subscription.addons[addon]} × {ADDON_LABELS[addon]}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-slate-700" data-testid="checkout-pending">
          Your payment is being confirmed by Stripe. Your plan changes as soon as it is, and this page with it.
        </p>
      )}
      <div className="flex justify-center gap-3">
        <Link to="/dashboard" className={buttonClassName({})}>
          Go to the dashboard
        </Link>
        <Link to="/settings/subscription" className={buttonClassName({ variant: "secondary" })}>
          Your subscription
        </Link>
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
