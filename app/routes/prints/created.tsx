import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { PrintOrderDetails } from "~/features/billing/components/print-order-details";
import { getPrintOrder } from "~/features/billing/print-orders.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/created";

export const meta: Route.MetaFunction = () => titleMeta("Print order created");

/** Print order created (spec §2): the member's order, where it stands, what is in it, its timeline. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => ({ order: await getPrintOrder(serviceContextFor(context), user.id, params.id) }));
}

export default function PrintOrderPage({ loaderData }: Route.ComponentProps) {
  return <PrintOrderDetails order={loaderData.order} galleryHref={`/folders/${loaderData.order.folderId}/gallery`} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
