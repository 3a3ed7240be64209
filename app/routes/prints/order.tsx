import { redirect } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { PrintOrderForm, printOrderFromForm } from "~/features/billing/components/print-order-form";
import { createPrintOrder, printCatalogue } from "~/features/billing/print-orders.server";
import { getFolderGallery } from "~/features/galleries/folder-gallery.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/order";

export const meta: Route.MetaFunction = () => titleMeta("Order prints");

/** Prints of a gallery's pictures (issue 43): choose pictures and copies, a size and a paper, where to ship; then pay at checkout. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const preselected = (new URL(request.url).searchParams.get("files") ?? "").split(",").filter(Boolean);
  return runLoader(async () => {
    const gallery = await getFolderGallery(ctx, user.id, params.uid, undefined);
    return { folder: gallery.folder, pictures: gallery.items.filter((item) => item.kind === "image"), catalogue: printCatalogue(ctx), preselected, name: user.name };
  });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    const { url } = await createPrintOrder(serviceContextFor(context), user.id, { folderId: params.uid, ...printOrderFromForm(form) });
    throw redirect(url);
  });
}

export default function OrderPrintsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { folder, pictures, catalogue, preselected, name } = loaderData;
  const failure = actionData && !actionData.ok ? actionData.message : null;
  return <PrintOrderForm title={`Order prints of ${folder.label}`} pictures={pictures} catalogue={catalogue} preselected={preselected} name={name} askEmail={false} backHref={`/folders/${folder.uid}/gallery`} message={failure} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
