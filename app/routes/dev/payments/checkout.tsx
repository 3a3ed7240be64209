import { redirect } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { LOCAL_CARDS } from "~/features/billing/local-stripe/local-catalogue";
import { payLocalCheckout, readLocalCheckout } from "~/features/billing/local-stripe/local-checkout.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/checkout";

export const meta: Route.MetaFunction = () => titleMeta("Local checkout");
export const headers = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

/**
 * The local payments driver's checkout page (development and tests; 404 with Stripe): what
 * Stripe's hosted Checkout does — show the order, take a test card, then send the app its signed
 * events and the browser to the success page. Stripe's declined test card is refused here too.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  return runLoader(async () => ({ checkout: await readLocalCheckout(serviceContextFor(context), params.id) }));
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const form = await request.formData();
  return runFormAction(async () => {
    const { redirect: to } = await payLocalCheckout(serviceContextFor(context), params.id, String(form.get("card") ?? ""));
    throw redirect(to);
  });
}

export default function LocalCheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { checkout } = loaderData;
  const failure = actionData && "ok" in actionData && !actionData.ok ? actionData : null;
  return (
    <div className="mx-auto max-w-md space-y-5 py-6">
      <Alert variant="info">Local payments driver: no money moves. Stripe's test cards work: {LOCAL_CARDS.paid} pays, {LOCAL_CARDS.declined} is declined.</Alert>
      <h1 className="text-2xl font-semibold text-slate-900">{checkout.interval ? "Subscribe to Strongroom" : "Pay Strongroom"}</h1>
      <table className="w-full text-sm">
        <caption className="sr-only">Your order</caption>
        <tbody className="divide-y divide-slate-100">
          {checkout.lines.map((line) => (
            <tr key={line.label}>
              <th scope="row" className="py-2 text-left font-normal text-slate-800">
                {line.label.replace(/_(month|year)$/, "").replace(/_/g, " ")} × {line.quantity}
              </th>
              <td className="py-2 text-right text-slate-900">{line.amount}</td>
            </tr>
          ))}
          <tr>
            <th scope="row" className="py-2 text-left font-semibold text-slate-900">
              {checkout.interval ? `Total per ${checkout.interval}` : "Total"}
            </th>
            <td className="py-2 text-right font-semibold text-slate-900" data-testid="checkout-total">
              {checkout.total}
            </td>
          </tr>
        </tbody>
      </table>
      {checkout.status !== "open" ? (
        <p className="text-sm text-slate-700">This checkout is complete.</p>
      ) : (
        <IntentForm intent="pay" className="space-y-3">
          {failure ? <Alert variant="error">{failure.message}</Alert> : null}
          <p className="text-sm text-slate-700">Email: {checkout.email}</p>
          <label className="block text-sm font-medium text-slate-900">
            Card number
            <input name="card" defaultValue={LOCAL_CARDS.paid} inputMode="numeric" autoComplete="cc-number" className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2" />
          </label>
          <Button type="submit" className="w-full">
            Pay {checkout.total}
          </Button>
          <a href={checkout.cancelUrl} className="block text-center text-sm font-medium text-slate-700 underline-offset-2 hover:underline">
            Back to Strongroom
          </a>
        </IntentForm>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
