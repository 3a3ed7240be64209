import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { PrintStatusBadge } from "~/features/billing/components/print-status-badge";
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

/** One list of orders: the member's own (each opens its page) or those from their galleries (with the gallery and the buyer). */
function OrdersSection({ id, heading, empty, caption, lines, fromGalleries }: { id: string; heading: string; empty: string; caption: string; lines: PrintOrderLine[]; fromGalleries: boolean }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {heading}
      </h2>
      {lines.length === 0 ? (
        <p className="text-sm text-slate-700">{empty}</p>
      ) : (
        <Table caption={caption} isCaptionHidden>
          <HeaderRow columns={fromGalleries ? ["Order", "Date", "Gallery", "For", "Prints", "Total", "Status"] : ["Order", "Date", "Prints", "Total", "Status"]} />
          <TableBody>
            {lines.map((line) => (
              <TableRow key={line.id} data-testid={fromGalleries ? "gallery-print-order" : "my-print-order"}>
                <TableCell className={fromGalleries ? "font-mono text-slate-900" : undefined}>
                  {fromGalleries ? (
                    line.reference
                  ) : (
                    <Link to={`/print-orders/${line.id}`} className="font-mono font-medium text-brand-700 underline-offset-2 hover:underline" aria-label={`Print order ${line.reference}`}>
                      {line.reference}
                    </Link>
                  )}
                </TableCell>
                <TableCell>{formatDayUtc(line.createdAt)}</TableCell>
                {fromGalleries ? (
                  <>
                    <TableCell>{line.gallery ?? "—"}</TableCell>
                    <TableCell>{line.buyer}</TableCell>
                  </>
                ) : null}
                <TableCell>{line.prints}</TableCell>
                <TableCell className="text-slate-900">{formatMoney(line.totalCents, line.currency)}</TableCell>
                <TableCell>
                  <PrintStatusBadge status={line.status} label={line.statusLabel} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

export default function PrintOrdersPage({ loaderData }: Route.ComponentProps) {
  const { mine, fromGalleries } = loaderData;
  return (
    <div className="max-w-4xl space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Print orders</h1>
        <p className="mt-1 text-sm text-slate-700">Prints you ordered from galleries, and the prints visitors ordered from the public galleries you shared.</p>
      </div>
      <OrdersSection id="mine-heading" heading="Your orders" empty="You have not ordered prints yet. Open a gallery folder and choose “Order prints”." caption="Your print orders" lines={mine} fromGalleries={false} />
      <OrdersSection
        id="galleries-heading"
        heading="Ordered from your galleries"
        empty="No visitor has ordered prints yet. Share a gallery folder as a public gallery and tick “Let visitors order prints”."
        caption="Print orders from your public galleries"
        lines={fromGalleries}
        fromGalleries
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
