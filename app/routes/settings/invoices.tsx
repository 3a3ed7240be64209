import { HeaderRow, Table, TableBody, TableCell, TableRow } from "~/components/ui/table";
import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import { requireMember } from "~/features/auth/auth-guard.server";
import { formatMoney } from "~/features/billing/billing.constants";
import { listInvoices } from "~/features/billing/subscription.server";
import { runLoader } from "~/lib/action-result.server";
import { formatDayUtc } from "~/lib/format-utc";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = () => titleMeta("Invoices");

/** Settings: invoices (spec §2): the member's invoices as Stripe lists them, newest first, each with its PDF. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => ({ invoices: await listInvoices(serviceContextFor(context), user.id) }));
}

const STATUS: Record<string, string> = { paid: "Paid", open: "Due", draft: "Draft", void: "Void", uncollectible: "Not collected" };

export default function InvoicesPage({ loaderData }: Route.ComponentProps) {
  const { invoices } = loaderData;
  return (
    <div className="max-w-3xl space-y-6">
      <SettingsHeader title="Invoices" description="Every invoice of your subscription, from Stripe. Download the PDF for your records." />
      <p className="text-sm text-slate-700">
        Prints are paid on their own: see{" "}
        <Link to="/print-orders" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          your print orders
        </Link>
        .
      </p>
      {invoices.length === 0 ? (
        <p className="text-sm text-slate-700">
          No invoices yet. They appear here once you{" "}
          <Link to="/settings/subscription" className="font-medium text-brand-700 underline-offset-2 hover:underline">
            choose a plan
          </Link>
          .
        </p>
      ) : (
        <Table caption="Invoices" isCaptionHidden>
          <HeaderRow columns={["Number", "Date", "Amount", "Status", "PDF"]} />
          <TableBody>
            {invoices.map((invoice) => (
              <TableRow key={invoice.id} data-testid="invoice-row">
                <TableCell className="font-medium text-slate-900">{invoice.number ?? "—"}</TableCell>
                <TableCell>{formatDayUtc(invoice.createdAt)}</TableCell>
                <TableCell className="text-slate-900">{formatMoney(invoice.amount, invoice.currency)}</TableCell>
                <TableCell>{STATUS[invoice.status ?? ""] ?? invoice.status ?? "—"}</TableCell>
                <TableCell>
                  {invoice.pdfUrl ? (
                    <a href={invoice.pdfUrl} className="font-medium text-brand-700 underline-offset-2 hover:underline" aria-label={`Download invoice ${invoice.number ?? ""} (PDF)`}>
                      PDF
                    </a>
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
