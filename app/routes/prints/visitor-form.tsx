import { redirect } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { PrintOrderForm, printOrderFromForm } from "~/features/billing/components/print-order-form";
import { createVisitorPrintOrder, printCatalogue } from "~/features/billing/print-orders.server";
import { viewPublicGallery } from "~/features/galleries/public-gallery.server";
import { readShareVisitCookie } from "~/features/sharing/share-viewer.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/visitor-form";

export const meta: Route.MetaFunction = () => titleMeta("Order prints");
export const headers = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

/**
 * Prints for a public gallery's visitor (its owner allows them): the visit must have passed the
 * link's gates on the gallery's page first (the same cookie); a closed or gated gallery sends them there.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = serviceContextFor(context);
  const url = new URL(request.url);
  const result = await runLoader(() => viewPublicGallery(ctx, params.key, readShareVisitCookie(request.headers.get("Cookie"))));
  if (result.page.state !== "open") throw redirect(`/public-gallery/${encodeURIComponent(params.key)}`);
  if (!result.page.prints) throw new Response("Prints are not offered for this gallery.", { status: 404 });
  return {
    title: result.page.targetName,
    pictures: result.page.items.filter((item) => item.kind === "image").map((item) => ({ id: item.id, name: item.name, thumb: item.thumb })),
    catalogue: printCatalogue(ctx),
    preselected: (url.searchParams.get("files") ?? "").split(",").filter(Boolean),
    cancelled: url.searchParams.get("cancelled") === "1",
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const form = await request.formData();
  return runFormAction(async () => {
    const order = { ...printOrderFromForm(form), email: form.get("email") };
    const { url } = await createVisitorPrintOrder(serviceContextFor(context), params.key, readShareVisitCookie(request.headers.get("Cookie")), order);
    throw redirect(url);
  });
}

export default function VisitorPrintsPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const { title, pictures, catalogue, preselected, cancelled } = loaderData;
  const message = actionData && !actionData.ok ? actionData.message : cancelled ? "The payment was not completed, so nothing was charged. You can try again." : null;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <PrintOrderForm title={`Order prints of ${title}`} pictures={pictures} catalogue={catalogue} preselected={preselected} name="" askEmail backHref={`/public-gallery/${encodeURIComponent(params.key)}`} message={message} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
