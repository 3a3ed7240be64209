import { lazy, Suspense } from "react";
import { data, redirect } from "react-router";
import { PreviewError } from "~/features/files/components/preview-error";
import { passSharePageGate, readShareVisitCookie, shareVisitCookie, viewSharePage } from "~/features/sharing/share-viewer.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { requestContext, serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/viewer";

// The gate's form and the document load with the page but outside its first-load JavaScript (G5):
// both are server-rendered and work as plain HTML (forms post whole documents) until they hydrate;
// the preview behind the document (pdf.js) loads only when a document is shown.
const ShareGate = lazy(() => import("~/features/sharing/components/share-gate").then((module) => ({ default: module.ShareGate })));
const ShareDocument = lazy(() => import("~/features/sharing/components/share-document").then((module) => ({ default: module.ShareDocument })));

const PAGE_NAMES = { expired: "Preview Link Expired", refused: "Security Check Failed" } as const;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const page = loaderData?.page;
  if (!page) return titleMeta("Shared document");
  if (page.state === "expired" || page.state === "refused") return titleMeta(PAGE_NAMES[page.state]);
  return titleMeta(page.targetName);
};

// The address carries the link's secret: never sent to other sites as a referrer (same-origin, not
// no-referrer: the gates' form posts need their Origin for the CSRF check), never kept by a cache.
export const headers = () => ({ "Referrer-Policy": "same-origin", "Cache-Control": "no-store" });

function placeOf(request: Request, params: Route.LoaderArgs["params"]) {
  return { fileId: params.fileId, folderId: new URL(request.url).searchParams.get("folder") };
}

/**
 * /s/{token-or-slug} and /s/{key}/files/{fileId}: a share link's page for anyone who has it. The
 * gates in order (password, e-mail, code, agreement), then the document, or the folder's contents
 * for folder and room links. Every navigation loads the whole document (forms and links), so the
 * visit's cookie, scoped to /s/{key}, always travels with it.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { isSecure } = context.get(requestContext);
  const result = await runLoader(() => viewSharePage(serviceContextFor(context), params.key, readShareVisitCookie(request.headers.get("Cookie")), placeOf(request, params)));
  const headers = new Headers();
  if (result.cookie) headers.append("Set-Cookie", shareVisitCookie(params.key, result.cookie, isSecure));
  const status = result.page.state === "expired" ? 410 : result.page.state === "refused" ? 403 : 200;
  return data({ page: result.page, key: params.key }, { status, headers });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { isSecure } = context.get(requestContext);
  const form = await request.formData();
  const input = { gate: form.get("gate"), password: form.get("password"), email: form.get("email"), code: form.get("code"), name: form.get("name"), accept: form.get("accept") === "on" };
  return runFormAction(async () => {
    const result = await passSharePageGate(serviceContextFor(context), params.key, readShareVisitCookie(request.headers.get("Cookie")), input, placeOf(request, params));
    const url = new URL(request.url);
    const headers = new Headers();
    if (result.cookie) headers.append("Set-Cookie", shareVisitCookie(params.key, result.cookie, isSecure));
    return redirect(`${url.pathname}${url.search}`, { headers });
  });
}

export default function ShareViewer({ loaderData }: Route.ComponentProps) {
  const { page, key } = loaderData;
  return (
    <div className="mx-auto max-w-5xl space-y-6" data-testid="share-viewer">
      {page.state === "expired" ? (
        // "Please try refreshing the page": Try Again reloads it (an owner may have renewed the link).
        <PreviewError kind="expired" onRetry={() => window.location.reload()} />
      ) : page.state === "refused" ? (
        <PreviewError kind="security" message={page.message} />
      ) : (
        <Suspense fallback={null}>{page.state === "gate" ? <ShareGate page={page} /> : <ShareDocument page={page} linkKey={key} />}</Suspense>
      )}
    </div>
  );
}

