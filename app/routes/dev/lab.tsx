import { HeaderRow, Table, TableBody, TableCell, TableRow } from "~/components/ui/table";
import { ErrorPage } from "~/components/error-page";
import { IntentButton } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { advanceLocalLabOrder } from "~/features/billing/local-lab.server";
import { listLocalLabOrders } from "~/features/billing/lab-local.server";
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
      <Alert variant="info">The development print lab: what a real lab does on its side. Each picture links to the signed address a lab downloads its original from; ship or fail an order and the lab calls Strongroom back at the order's signed address.</Alert>
      <h1 className="text-2xl font-semibold text-slate-900">Print lab</h1>
      {orders.length === 0 ? (
        <p className="text-sm text-slate-700">No orders yet.</p>
      ) : (
        <Table caption="Lab orders" isCaptionHidden>
          <HeaderRow columns={["Order", "For", "Prints", "Pictures", "Status", "Actions"]} />
          <TableBody>
            {orders.map((order) => (
              <TableRow key={order.id} data-testid="lab-order">
                <TableCell className="font-mono text-xs">{order.reference.slice(0, 8).toUpperCase()}</TableCell>
                <TableCell>{order.recipient}</TableCell>
                <TableCell>{order.copies}</TableCell>
                <TableCell>
                  <ul className="space-y-1">
                    {order.pictures.map((picture) => (
                      <li key={picture.url}>
                        <a className="text-sky-800 underline" href={picture.url} target="_blank" rel="noreferrer">
                          {picture.name}
                        </a>
                      </li>
                    ))}
                  </ul>
                </TableCell>
                <TableCell>{order.status}</TableCell>
                <TableCell>
                  {order.status === "received" ? (
                    <div className="flex gap-2">
                      <IntentButton intent="ship" fields={{ labOrderId: order.id }} label="Ship" variant="secondary" />
                      <IntentButton intent="fail" fields={{ labOrderId: order.id }} label="Fail" variant="secondary" />
                    </div>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
