import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Badge } from "~/components/ui/badge";
import { HeaderRow, Table, TableBody, TableCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { formatMoney } from "~/features/billing/billing.constants";
import type { PrintOrderLine } from "~/features/billing/print-orders.constants";
import { listPrintOrders } from "~/features/billing/print-orders.server";
import { runLoader } from "~/lib/action-result.server";
import { formatDayUtc } from "~/lib/format-utc";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/list";

export const meta: Route.MetaFunction = () => titleMeta("Print orders");

/** /print-orders: the member's own print orders, and what visitors ordered from the public galleries they published. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => listPrintOrders(serviceContextFor(context), user.id));
}

function StatusBadge({ line }: { line: PrintOrderLine }) {
  return <Badge variant={line.status === "failed" || line.status === "refunded" || line.status === "expired" ? "warning" : "success"}>{line.statusLabel}</Badge>;
}

export default function PrintOrdersPage({ loaderData }: Route.ComponentProps) {
  const { mine, fromGalleries } = loaderData;
  return (
    <div className="max-w-4xl space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Print orders</h1>
        <p className="mt-1 text-sm text-slate-700">Prints you ordered from galleries, and the prints visitors ordered from the public galleries you shared.</p>
      </div>
      <section aria-labelledby="mine-heading" className="space-y-3">
        <h2 id="mine-heading" className="text-lg font-semibold text-slate-900">
          Your orders
        </h2>
        {mine.length === 0 ? (
          <p className="text-sm text-slate-700">You have not ordered prints yet. Open a gallery folder and choose “Order prints”.</p>
        ) : (
          <Table caption="Your print orders" isCaptionHidden>
            <HeaderRow columns={["Order", "Date", "Prints", "Total", "Status"]} />
            <TableBody>
              {mine.map((line) => (
                <TableRow key={line.id} data-testid="my-print-order">
                  <TableCell>
                    <Link to={`/print-orders/${line.id}`} className="font-mono font-medium text-brand-700 underline-offset-2 hover:underline" aria-label={`Print order ${line.reference}`}>
                      {line.reference}
                    </Link>
                  </TableCell>
                  <TableCell>{formatDayUtc(line.createdAt)}</TableCell>
                  <TableCell>{line.prints}</TableCell>
                  <TableCell className="text-slate-900">{formatMoney(line.totalCents, line.currency)}</TableCell>
                  <TableCell>
                    <StatusBadge line={line} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>
      <section aria-labelledby="galleries-heading" className="space-y-3">
        <h2 id="galleries-heading" className="text-lg font-semibold text-slate-900">
          Ordered from your galleries
        </h2>
        {fromGalleries.length === 0 ? (
          <p className="text-sm text-slate-700">No visitor has ordered prints yet. Share a gallery folder as a public gallery and tick “Let visitors order prints”.</p>
        ) : (
          <Table caption="Print orders from your public galleries" isCaptionHidden>
            <HeaderRow columns={["Order", "Date", "Gallery", "For", "Prints", "Total", "Status"]} />
            <TableBody>
              {fromGalleries.map((line) => (
                <TableRow key={line.id} data-testid="gallery-print-order">
                  <TableCell className="font-mono text-slate-900">{line.reference}</TableCell>
                  <TableCell>{formatDayUtc(line.createdAt)}</TableCell>
                  <TableCell>{line.gallery ?? "—"}</TableCell>
                  <TableCell>{line.buyer}</TableCell>
                  <TableCell>{line.prints}</TableCell>
                  <TableCell className="text-slate-900">{formatMoney(line.totalCents, line.currency)}</TableCell>
                  <TableCell>
                    <StatusBadge line={line} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
