import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { formatDayUtc } from "~/lib/format-utc";
import { formatMoney } from "../billing.constants";
import { PRINT_STATUS_LABELS, type PrintOrderView } from "../print-orders.constants";

/** One print order as its buyer sees it ("Print order created"): status, pictures, prices, address, timeline. */
export function PrintOrderDetails({ order, galleryHref }: { order: PrintOrderView; galleryHref: string | null }) {
  const reference = order.id.slice(0, 8).toUpperCase();
  return (
    <div className="max-w-3xl space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">Print order {reference}</h1>
        <Badge variant={order.status === "failed" || order.status === "refunded" ? "warning" : "success"}>{order.statusLabel}</Badge>
      </div>
      <p className="text-sm text-slate-700" data-testid="print-order-status">
        {order.status === "created"
          ? "Waiting for the payment to be confirmed: this page updates once it is."
          : order.status === "shipped"
            ? "Your prints are on their way."
            : order.status === "refunded"
              ? `${order.failure ?? "The print lab could not print it."} You were refunded ${formatMoney(order.totalCents, order.currency)}.`
              : "Paid, and with the print lab. We e-mail you when it ships."}{" "}
        {order.trackingUrl ? (
          <a href={order.trackingUrl} className="font-medium text-brand-700 underline-offset-2 hover:underline">
            Track the parcel
          </a>
        ) : null}
      </p>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">What is in the order</caption>
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">Picture</th>
            <th scope="col" className="py-2 pr-4 font-medium">Size and paper</th>
            <th scope="col" className="py-2 pr-4 font-medium">Copies</th>
            <th scope="col" className="py-2 text-right font-medium">Price</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {order.items.map((item) => (
            <tr key={`${item.fileId}:${item.size}:${item.paper}`}>
              <td className="py-2 pr-4 text-slate-900">{item.name}</td>
              <td className="py-2 pr-4 text-slate-700">
                {item.size} cm · {item.paper}
              </td>
              <td className="py-2 pr-4 text-slate-700">{item.quantity}</td>
              <td className="py-2 text-right text-slate-900">{formatMoney(item.unitCents * item.quantity, order.currency)}</td>
            </tr>
          ))}
          <tr>
            <td className="py-2 pr-4 text-slate-700" colSpan={3}>
              Shipping to {order.name}, {order.address.line1}, {order.address.postalCode} {order.address.city}, {order.address.country}
            </td>
            <td className="py-2 text-right text-slate-900">{formatMoney(order.shippingCents, order.currency)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={3} className="py-2 text-left font-semibold text-slate-900">
              Total
            </th>
            <td className="py-2 text-right font-semibold text-slate-900" data-testid="print-order-total">
              {formatMoney(order.totalCents, order.currency)}
            </td>
          </tr>
        </tbody>
      </table>
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
        <Link to={galleryHref} className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
          Back to the gallery
        </Link>
      ) : null}
    </div>
  );
}

