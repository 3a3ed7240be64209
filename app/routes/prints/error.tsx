import { Link } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { getPrintOrder } from "~/features/billing/print-orders.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/error";

export const meta: Route.MetaFunction = () => titleMeta("Print order error");

/** Print order error (spec §2): the payment was not completed (Checkout's "back"); nothing was charged. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const id = new URL(request.url).searchParams.get("order") ?? "";
  try {
    const order = id ? await getPrintOrder(serviceContextFor(context), user.id, id) : null;
    return { id: order?.id ?? null, folderId: order?.folderId ?? null, paid: order !== null && order.status !== "created" };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return { id: null, folderId: null, paid: false };
    throw error;
  }
}

export default function PrintOrderErrorPage({ loaderData }: Route.ComponentProps) {
  const { id, folderId, paid } = loaderData;
  return (
    <div className="mx-auto max-w-xl space-y-5 py-8 text-center" data-testid="print-order-error">
      <h1 className="text-2xl font-semibold text-slate-900">Your print order was not completed</h1>
      <p className="text-sm text-slate-700">
        {paid ? "This order was paid after all." : "The payment did not go through, so nothing was charged and nothing goes to the print lab. You can try again."}
      </p>
      {paid && id ? (
        <Link to={`/print-orders/${id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
          See the order
        </Link>
      ) : null}
      <div className="flex justify-center gap-3">
        {folderId ? (
          <Link to={`/folders/${folderId}/prints`} className={buttonClassName({})}>
            Try again
          </Link>
        ) : null}
        <Link to="/folders" className={buttonClassName({ variant: "secondary" })}>
          Back to your folders
        </Link>
      </div>
    </div>
  );
}
