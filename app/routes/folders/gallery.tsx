import { printsOffered } from "~/features/billing/print-orders.server";
import { lazy, Suspense, useCallback, useState, type ComponentType } from "react";
import type { PhotoViewerProps } from "~/features/galleries/components/photo-viewer";
import { Link } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { GalleryTile } from "~/features/galleries/components/gallery-tile";
import { useGalleryPageSetup, useGalleryRecovery } from "~/features/galleries/gallery-page-setup";
import { getFolderGallery } from "~/features/galleries/folder-gallery.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/gallery";

/**
 * The viewer loads when a photo is first opened; if its code cannot be loaded, it renders nothing
 * and the page stays as it is (spec §8: failed gallery component loads resolve to nothing).
 */
const PhotoViewer = lazy(
  (): Promise<{ default: ComponentType<PhotoViewerProps> }> =>
    import("~/features/galleries/components/photo-viewer").then(
      (module) => ({ default: module.PhotoViewer }),
      () => ({ default: () => null }),
    ),
);

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `${loaderData.gallery.folder.label} gallery` : "Folder gallery") }];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const ctx = serviceContextFor(context);
  return runLoader(async () => ({ gallery: await getFolderGallery(ctx, member.user.id, params.uid, cursor), prints: printsOffered(ctx) }));
}

/**
 * Spec §2 "Folder gallery": the folder's pictures (their thumbnails, issue 40) and videos as a
 * grid; a picture opens the photo viewer, its name the file page. Tick some to download them as one zip.
 */
export default function FolderGallery({ loaderData }: Route.ComponentProps) {
  const { folder, items, nextCursor, canPublish } = loaderData.gallery;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string, isOn: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (isOn) next.add(id);
      else next.delete(id);
      return next;
    });
  const chosen = items.filter((item) => selected.has(item.id));
  const photos = items.flatMap((item) => (item.screen ? [{ id: item.id, name: item.name, screen: item.screen, download: `/api/files/${item.id}/download` }] : []));
  const [viewing, setViewing] = useState<number | null>(null);
  const { videoPlayerReady } = useGalleryPageSetup({ isPublic: false });
  // Spec §4 "Gallery recovery": after a gallery-related error, the grid is drawn again from fresh data.
  const closeViewer = useCallback(() => setViewing(null), []);
  const generation = useGalleryRecovery(closeViewer);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">{folder.label} gallery</h1>
        <div className="flex flex-wrap gap-2">
          {canPublish ? (
            <Link to={`/share-links/new?type=folder&id=${folder.uid}&presentation=gallery`} className={buttonClassName({ size: "sm" })}>
              Publish a public gallery
            </Link>
          ) : null}
          {loaderData.prints && items.some((item) => item.kind === "image") ? (
            <Link to={`/folders/${folder.uid}/prints${chosen.length > 0 ? `?files=${chosen.map((item) => item.id).join(",")}` : ""}`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              Order prints
            </Link>
          ) : null}
          <Link to={`/folders/${folder.uid}`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Back to the folder
          </Link>
        </div>
      </div>
      {items.length > 0 ? (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700" role="group" aria-label="Selection">
          <span aria-live="polite">{chosen.length === 0 ? "Tick pictures to download them together." : `${chosen.length} selected`}</span>
          {chosen.length > 0 ? (
            <>
              <a href={`/api/zip/folders/${folder.uid}?files=${chosen.map((item) => item.id).join(",")}`} download className={buttonClassName({ size: "sm" })}>
                Download {chosen.length === 1 ? "it" : `these ${chosen.length}`} as a zip
              </a>
              <button type="button" className={buttonClassName({ variant: "secondary", size: "sm" })} onClick={() => setSelected(new Set())}>
                Clear the selection
              </button>
            </>
          ) : (
            <button type="button" className={buttonClassName({ variant: "secondary", size: "sm" })} onClick={() => setSelected(new Set(items.map((item) => item.id)))}>
              Select all {items.length}
            </button>
          )}
        </div>
      ) : null}
      {items.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">
          No images or videos in this folder yet.
        </div>
      ) : (
        <ul key={generation} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="Images and videos">
          {items.map((item) => (
            <li key={item.id} className={`relative overflow-hidden rounded-lg border bg-white ${selected.has(item.id) ? "border-brand-600 ring-2 ring-brand-600" : "border-slate-200"}`}>
              <input
                type="checkbox"
                aria-label={`Select ${item.name}`}
                checked={selected.has(item.id)}
                onChange={(event) => toggle(item.id, event.target.checked)}
                className="absolute left-2 top-2 z-10 h-5 w-5 rounded border-slate-400 accent-brand-600"
              />
              <GalleryTile item={item} videoPlayerReady={videoPlayerReady} onView={() => setViewing(photos.findIndex((photo) => photo.id === item.id))} />
            </li>
          ))}
        </ul>
      )}
      {viewing !== null && photos[viewing] ? (
        <Suspense fallback={null}>
          <PhotoViewer photos={photos} index={viewing} onIndex={setViewing} onClose={() => setViewing(null)} />
        </Suspense>
      ) : null}
      {nextCursor ? (
        <div className="flex justify-center">
          <Link to={`?cursor=${nextCursor}`} className={buttonClassName({ variant: "secondary" })}>
            Next page
          </Link>
        </div>
      ) : null}
    </div>
  );
}
