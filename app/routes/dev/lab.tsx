import { ErrorPage } from "~/components/error-page";
import { IntentButton } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { advanceLocalLabOrder } from "~/features/billing/local-lab.server";
import { listLocalLabOrders } from "~/features/billing/print-lab.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/lab";

export const meta: Route.MetaFunction = () => titleMeta("Print lab");
export const headers = () => ({ "Cache-Control": "no-store" });

/** The development print lab (PRINT_LAB_DRIVER=local; 404 otherwise): the orders it received, shipped or failed by hand. */
export async function loader({ context }: Route.LoaderArgs) {
  return runLoader(async () => ({ orders: await listLocalLabOrders(serviceContextFor(context)) }));
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  return runFormAction(async () => {
    await advanceLocalLabOrder(serviceContextFor(context), String(form.get("labOrderId") ?? ""), form.get("intent") === "fail" ? "failed" : "shipped");
    return { ok: true as const };
  });
}

export default function LocalLabPage({ loaderData }: Route.ComponentProps) {
  const { orders } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-5 py-6">
      <Alert variant="info">The development print lab: what a real lab does on its side. Ship or fail an order and the lab calls Strongroom back, signed.</Alert>
      <h1 className="text-2xl font-semibold text-slate-900">Print lab</h1>
      {orders.length === 0 ? (
        <p className="text-sm text-slate-700">No orders yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Lab orders</caption>
          <thead className="border-b border-slate-200 text-slate-600">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">Order</th>
              <th scope="col" className="py-2 pr-4 font-medium">For</th>
              <th scope="col" className="py-2 pr-4 font-medium">Prints</th>
              <th scope="col" className="py-2 pr-4 font-medium">Status</th>
              <th scope="col" className="py-2 font-medium"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {orders.map((order) => (
              <tr key={order.id} data-testid="lab-order">
                <td className="py-2 pr-4 font-mono text-xs">{order.reference.slice(0, 8).toUpperCase()}</td>
                <td className="py-2 pr-4">{order.recipient}</td>
                <td className="py-2 pr-4">{order.items}</td>
                <td className="py-2 pr-4">{order.status}</td>
                <td className="flex gap-2 py-2">
                  {order.status === "received" ? (
                    <>
                      <IntentButton intent="ship" fields={{ labOrderId: order.id }} label="Ship" variant="secondary" />
                      <IntentButton intent="fail" fields={{ labOrderId: order.id }} label="Fail" variant="secondary" />
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
