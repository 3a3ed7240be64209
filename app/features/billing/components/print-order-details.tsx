import { Link } from "react-router";
import { HeaderRow, Table, TableBody, TableCell, TableHeaderCell, TableRow } from "~/components/ui/table";
import { formatDayUtc } from "~/lib/format-utc";
import { formatMoney } from "../billing.constants";
import { PRINT_ADDRESS_RETENTION_DAYS, PRINT_STATUS_LABELS, type PrintOrderView } from "../print-orders.constants";
import { useRevalidateWhile } from "~/lib/use-revalidate-while";
import { PrintStatusBadge } from "./print-status-badge";

/** One print order as its buyer sees it ("Print order created"): status, pictures, prices, address, timeline. */
/** Where the order stands, in a sentence for its buyer. */
function statusSentence(order: PrintOrderView): string {
  switch (order.status) {
    case "created":
      return "Waiting for the payment to be confirmed: this page updates once it is.";
    case "expired":
      return "This order was not paid: its checkout closed. Nothing was charged; order again from the gallery.";
    case "paid":
      return "Paid. It goes to the print lab as soon as the lab takes it (we keep trying); we e-mail you when it ships.";
    case "sent":
      return "Paid, and with the print lab. We e-mail you when it ships.";
    case "shipped":
      return "Your prints are on their way.";
    case "failed":
      return `${order.failure ?? "The print lab could not print it."} Your refund is on its way.`;
    case "refunded":
      return `${order.failure ?? "The print lab could not print it."} You were refunded ${formatMoney(order.totalCents, order.currency)}.`;
  }
}

export function PrintOrderDetails({ order, galleryHref }: { order: PrintOrderView; galleryHref: string | null }) {
  const reference = order.id.slice(0, 8).toUpperCase();
  // News the page waits for: Stripe's confirmation (seconds), the lab taking a paid order (each look tries it again).
  useRevalidateWhile(order.status === "created", 3000);
  useRevalidateWhile(order.status === "paid", 15_000, 20);
  return (
    <div className="max-w-3xl space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">Print order {reference}</h1>
        <PrintStatusBadge status={order.status} label={order.statusLabel} />
      </div>
      <p className="text-sm text-slate-700" data-testid="print-order-status">
        {statusSentence(order)}{" "}
        {order.trackingUrl ? (
          <a href={order.trackingUrl} className="font-medium text-brand-700 underline-offset-2 hover:underline">
            Track the parcel
          </a>
        ) : null}
      </p>
      <Table caption="What is in the order" isCaptionHidden>
        <HeaderRow columns={["Picture", "Size and paper", "Copies", "Price"]} />
        <TableBody>
          {order.items.map((item) => (
            <TableRow key={`${item.fileId}:${item.size}:${item.paper}`}>
              <TableCell className="text-slate-900">{item.name}</TableCell>
              <TableCell>
                {item.sizeLabel} · {item.paperLabel}
              </TableCell>
              <TableCell>{item.quantity}</TableCell>
              <TableCell className="text-slate-900">{formatMoney(item.unitCents * item.quantity, order.currency)}</TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell colSpan={3}>
              {order.address.line1
                ? `Shipping to ${order.name}, ${order.address.line1}, ${order.address.postalCode} ${order.address.city}, ${order.address.country}`
                : `Shipping to ${order.address.country} (the address was removed ${PRINT_ADDRESS_RETENTION_DAYS} days after the order ended)`}
            </TableCell>
            <TableCell className="text-slate-900">{formatMoney(order.shippingCents, order.currency)}</TableCell>
          </TableRow>
          <TableRow>
            <TableHeaderCell scope="row" colSpan={3}>
              Total
            </TableHeaderCell>
            <TableCell className="font-semibold text-slate-900" data-testid="print-order-total">
              {formatMoney(order.totalCents, order.currency)}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
      <section aria-labelledby="timeline" className="space-y-2">
        <h2 id="timeline" className="text-lg font-semibold text-slate-900">
          Timeline
        </h2>
        <ol className="space-y-1 text-sm text-slate-700">
          {order.events.map((event) => (
            <li key={`${event.at}:${event.status}`}>
              {formatDayUtc(event.at)} · {PRINT_STATUS_LABELS[event.status]}
            </li>
          ))}
        </ol>
      </section>
      {galleryHref ? (
        <div className="flex flex-wrap gap-4">
          <Link to={galleryHref} className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
            Back to the gallery
          </Link>
          <Link to="/print-orders" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
            All your print orders
          </Link>
        </div>
      ) : null}
    </div>
  );
}

