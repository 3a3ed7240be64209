import { ShareHeader } from "~/features/sharing/components/share-header";
import type { PublicGalleryPage } from "../public-gallery.server";
import { RetryingThumb } from "./gallery-tile";
import { GalleryVideo } from "./gallery-video";

type OpenGallery = Extract<PublicGalleryPage, { state: "open" }>;

/**
 * The simple public gallery (spec §2): the same pictures and videos as one plain page, one under
 * another at screen size with their names (and what their EXIF says where the owner shows it) and
 * downloads, without the viewer, favourites or scripts it needs; "Next page" after 48.
 */
export function SimpleGallery({ page, linkKey, videoPlayerReady }: { page: OpenGallery; linkKey: string; videoPlayerReady: boolean }) {
  const base = `/public-gallery/${encodeURIComponent(linkKey)}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6" data-testid="simple-gallery">
      <ShareHeader title={page.targetName}>
        <p className="text-sm text-slate-700">
          <a href={base} className="text-brand-700 underline-offset-2 hover:underline">
            Open the full gallery
          </a>
        </p>
      </ShareHeader>
      {page.items.length === 0 ? <p className="text-slate-700">This gallery is empty.</p> : null}
      <ol className="space-y-8" aria-label="Pictures and videos">
        {page.items.map((item) => (
          <li key={item.id} className="space-y-2">
            {item.kind === "video" && item.video ? (
              <GalleryVideo src={item.video} name={item.name} playerReady={videoPlayerReady} className="aspect-video w-full rounded-lg bg-slate-900" />
            ) : item.screen ? (
              <RetryingThumb src={item.screen} alt={item.name} onGiveUp={() => undefined} className="h-auto w-full rounded-lg bg-slate-100" />
            ) : null}
            <p className="flex flex-wrap items-baseline gap-x-3 text-sm text-slate-800">
              <span className="font-medium">{item.name}</span>
              {item.facts ? <span className="text-slate-600">{[item.facts.takenAt ? `Taken ${item.facts.takenAt}` : null, item.facts.camera, item.facts.place].filter(Boolean).join(" · ")}</span> : null}
              {item.download ? (
                <a href={item.download} download className="text-brand-700 underline-offset-2 hover:underline">
                  Download
                </a>
              ) : null}
            </p>
          </li>
        ))}
      </ol>
      {page.nextCursor ? (
        <a href={`${base}/simple?cursor=${encodeURIComponent(page.nextCursor)}`} className="inline-block text-brand-700 underline-offset-2 hover:underline">
          Next page
        </a>
      ) : null}
    </div>
  );
}
