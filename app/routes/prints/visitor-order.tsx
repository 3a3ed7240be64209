import { ErrorPage } from "~/components/error-page";
import { PrintOrderDetails } from "~/features/billing/components/print-order-details";
import { getPrintOrder } from "~/features/billing/print-orders.server";
import { runLoader } from "~/lib/action-result.server";
import { requestContext, serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/visitor-order";

export const meta: Route.MetaFunction = () => titleMeta("Print order created");
export const headers = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

/** Print order created, for a public gallery's visitor: opened with the token in its address (the e-mails carry it). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const { actor } = context.get(requestContext);
  return runLoader(async () => ({ order: await getPrintOrder(serviceContextFor(context), actor?.userId ?? null, params.id, token) }));
}

export default function VisitorPrintOrderPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PrintOrderDetails order={loaderData.order} galleryHref={null} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
