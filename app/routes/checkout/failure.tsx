import { Link, useSearchParams } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/failure";

export const meta: Route.MetaFunction = () => titleMeta("Checkout failure");

/** Checkout failure (spec §2): Stripe's "back" from checkout. Nothing was charged; the plan is as it was. */
export function loader({ context, request }: Route.LoaderArgs) {
  requireMember(context, request);
  return null;
}

export default function CheckoutFailurePage() {
  const [params] = useSearchParams();
  const plan = params.get("plan");
  const retry = `/settings/subscription${plan && /^(basic|pro|business)$/.test(plan) ? `?plan=${plan}` : ""}`;
  return (
    <div className="mx-auto max-w-xl space-y-5 py-8 text-center" data-testid="checkout-failure">
      <h1 className="text-2xl font-semibold text-slate-900">Checkout not completed</h1>
      <p className="text-sm text-slate-700">The payment did not go through, so nothing was charged and your plan is as it was. You can try again with the same or another card.</p>
      <div className="flex justify-center gap-3">
        <Link to={retry} className={buttonClassName({})}>
          Try again
        </Link>
        <Link to="/dashboard" className={buttonClassName({ variant: "secondary" })}>
          Back to the dashboard
        </Link>
      </div>
    </div>
  );
}
