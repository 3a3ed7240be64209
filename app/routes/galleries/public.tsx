import { lazy, Suspense, type ComponentType } from "react";
import { data, redirect } from "react-router";
import { useGalleryPageSetup, useGalleryRecovery } from "~/features/galleries/gallery-page-setup";
import { passPublicGalleryGate, viewPublicGallery, type PublicGalleryPage } from "~/features/galleries/public-gallery.server";
import { readShareVisitCookie, shareVisitCookie } from "~/features/sharing/share-viewer.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { requestContext, serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/public";

// The gate's form, the gallery and the expired page load beside the page's first-load JavaScript
// (G5); all render on the server. A gallery component that cannot load renders nothing (spec §8).
type GalleryView = ComponentType<{ page: Extract<PublicGalleryPage, { state: "open" }>; linkKey: string; videoPlayerReady: boolean }>;
const nothing = (): { default: GalleryView } => ({ default: () => null });
const PreviewError = lazy(() => import("~/features/files/components/preview-error").then((module) => ({ default: module.PreviewError })));
const ShareGate = lazy(() => import("~/features/sharing/components/share-gate").then((module) => ({ default: module.ShareGate })));
const PublicGalleryGrid = lazy((): Promise<{ default: GalleryView }> => import("~/features/galleries/components/public-gallery-grid").then((module) => ({ default: module.PublicGalleryGrid }), nothing));
const SimpleGallery = lazy((): Promise<{ default: GalleryView }> => import("~/features/galleries/components/simple-gallery").then((module) => ({ default: module.SimpleGallery }), nothing));

const noop = () => undefined;
const PAGE_NAMES = { expired: "Preview Link Expired", refused: "Security Check Failed" } as const;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const page = loaderData?.page;
  if (!page) return titleMeta("Public gallery");
  if (page.state === "expired" || page.state === "refused") return titleMeta(PAGE_NAMES[page.state]);
  return titleMeta(loaderData.simple ? `${page.targetName} (simple gallery)` : page.targetName);
};

// The address carries the gallery's secret: never sent to other sites, never kept by a cache.
export const headers = () => ({ "Referrer-Policy": "same-origin", "Cache-Control": "no-store" });

/** The simple page's address (a gallery whose own address is "simple" is not one). */
const isSimple = (request: Request, key: string) => new URL(request.url).pathname === `/public-gallery/${key}/simple`;

/**
 * /public-gallery/{token-or-slug} and …/simple: a public gallery for anyone who has its address
 * (spec §2 "Public gallery, simple public gallery"). The share link's gates first, then the
 * gallery (the full one with the viewer and favourites, or the plain page).
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { isSecure } = context.get(requestContext);
  const cursor = new URL(request.url).searchParams.get("cursor");
  const result = await runLoader(() => viewPublicGallery(serviceContextFor(context), params.key, readShareVisitCookie(request.headers.get("Cookie")), cursor));
  const headers = new Headers();
  if (result.cookie) headers.append("Set-Cookie", shareVisitCookie(params.key, result.cookie, isSecure, "/public-gallery"));
  const status = result.page.state === "expired" ? 410 : result.page.state === "refused" ? 403 : 200;
  return data({ page: result.page, key: params.key, simple: isSimple(request, params.key) }, { status, headers });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { isSecure } = context.get(requestContext);
  const form = await request.formData();
  const input = { gate: form.get("gate"), password: form.get("password"), email: form.get("email"), code: form.get("code"), name: form.get("name"), accept: form.get("accept") === "on" };
  return runFormAction(async () => {
    const result = await passPublicGalleryGate(serviceContextFor(context), params.key, readShareVisitCookie(request.headers.get("Cookie")), input);
    const url = new URL(request.url);
    const headers = new Headers();
    if (result.cookie) headers.append("Set-Cookie", shareVisitCookie(params.key, result.cookie, isSecure, "/public-gallery"));
    return redirect(url.pathname, { headers });
  });
}

export default function PublicGallery({ loaderData }: Route.ComponentProps) {
  const { page, key, simple } = loaderData;
  const { videoPlayerReady } = useGalleryPageSetup({ isPublic: true });
  // Spec §4 "Gallery recovery": the grid is drawn afresh (its viewer closed) from the page's data loaded again.
  const generation = useGalleryRecovery(noop);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <Suspense fallback={null}>
        {page.state === "expired" ? (
          <PreviewError kind="expired" onRetry={() => window.location.reload()} />
        ) : page.state === "refused" ? (
          <PreviewError kind="security" message={page.message} />
        ) : page.state === "gate" ? (
          <ShareGate page={page} />
        ) : (
          <>
            {page.prints ? (
              <div className="flex justify-end px-4">
                <a href={`/public-gallery/${encodeURIComponent(key)}/prints`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50">
                  Order prints
                </a>
              </div>
            ) : null}
            {simple ? (
              <SimpleGallery page={page} linkKey={key} videoPlayerReady={videoPlayerReady} />
            ) : (
              <PublicGalleryGrid key={generation} page={page} linkKey={key} videoPlayerReady={videoPlayerReady} />
            )}
          </>
        )}
      </Suspense>
    </div>
  );
}
