import { localInvoicePdf } from "~/features/billing/local-stripe/local-checkout.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import type { Route } from "./+types/invoice-pdf";

/** A local invoice's PDF (the local payments driver's `invoice_pdf`; 404 with Stripe). */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { bytes, filename } = await runLoader(() => localInvoicePdf(serviceContextFor(context), params.id));
  return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "Content-Type": "application/pdf", "Content-Disposition": `inline; filename="${filename}"`, "Cache-Control": "no-store" } });
}
