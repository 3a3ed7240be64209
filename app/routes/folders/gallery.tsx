import { Link } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { GalleryTile } from "~/features/galleries/components/gallery-tile";
import { getFolderGallery } from "~/features/galleries/folder-gallery.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/gallery";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `${loaderData.gallery.folder.label} gallery` : "Folder gallery") }];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  return runLoader(async () => ({ gallery: await getFolderGallery(serviceContextFor(context), member.user.id, params.uid, cursor) }));
}

/** Spec §2 "Folder gallery": the folder's pictures (their thumbnails, issue 40) and videos as a grid; each opens the file page. */
export default function FolderGallery({ loaderData }: Route.ComponentProps) {
  const { folder, items, nextCursor } = loaderData.gallery;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">{folder.label} gallery</h1>
        <Link to={`/folders/${folder.uid}`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
          Back to the folder
        </Link>
      </div>
      {items.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">
          No images or videos in this folder yet.
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="Images and videos">
          {items.map((item) => (
            <li key={item.id} className="overflow-hidden rounded-lg border border-slate-200 bg-white">
              <GalleryTile item={item} />
            </li>
          ))}
        </ul>
      )}
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
