import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from "react";
import { buttonClassName } from "~/components/ui/button";
import { ShareHeader } from "~/features/sharing/components/share-header";
import { http } from "~/lib/http";
import type { PublicGalleryItem, PublicGalleryPage } from "../public-gallery.server";
import { RetryingThumb } from "./gallery-tile";
import { GalleryVideo } from "./gallery-video";
import type { PhotoViewerProps } from "./photo-viewer";

const PhotoViewer = lazy(
  (): Promise<{ default: ComponentType<PhotoViewerProps> }> =>
    import("./photo-viewer").then(
      (module) => ({ default: module.PhotoViewer }),
      () => ({ default: () => null }),
    ),
);

type OpenGallery = Extract<PublicGalleryPage, { state: "open" }>;

const DOWNLOAD_NOTES = {
  off: "Downloading is turned off for this gallery.",
  web: "Downloads are web size (at most 2048 pixels a side).",
  original: "Downloads are the original files.",
} as const;

function FavouriteButton({ item, isOn, onToggle, variant }: { item: PublicGalleryItem; isOn: boolean; onToggle: () => void; variant: "tile" | "viewer" }) {
  const label = isOn ? `Remove ${item.name} from favourites` : `Add ${item.name} to favourites`;
  const look =
    variant === "tile"
      ? `absolute right-2 top-2 z-10 rounded-full px-2 py-1 text-lg leading-none shadow ${isOn ? "bg-rose-600 text-white" : "bg-white/90 text-slate-800"}`
      : "rounded-md px-3 py-2 text-sm font-medium text-white hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white";
  return (
    <button type="button" aria-pressed={isOn} aria-label={label} title={label} onClick={onToggle} className={look}>
      <span aria-hidden="true">{isOn ? "♥" : "♡"}</span>
      {variant === "viewer" ? <span className="ml-1">{isOn ? "Favourite" : "Add to favourites"}</span> : null}
    </button>
  );
}

/**
 * A public gallery once its gates are passed (spec §2 "Public gallery"): the folder's pictures and
 * videos as a grid of thumbnails that load as they come into view, 48 at a time (more as the
 * visitor scrolls); a picture opens the photo viewer; a heart marks it as one of the visitor's
 * favourites, which the person who shared the gallery sees (proofing).
 */
export function PublicGalleryGrid({ page, linkKey, videoPlayerReady }: { page: OpenGallery; linkKey: string; videoPlayerReady: boolean }) {
  const [items, setItems] = useState(page.items);
  const [next, setNext] = useState(page.nextCursor);
  const [favourites, setFavourites] = useState<ReadonlySet<string>>(() => new Set(page.items.filter((item) => item.favourite).map((item) => item.id)));
  const [onlyFavourites, setOnlyFavourites] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);
  const base = `/public-gallery/${encodeURIComponent(linkKey)}`;

  const loadMore = () => {
    if (!next || loadingMore) return;
    setLoadingMore(true);
    http
      .get<{ items: PublicGalleryItem[]; nextCursor: string | null }>(`${base}/items?cursor=${encodeURIComponent(next)}`)
      .then((loaded) => {
        setItems((current) => [...current, ...loaded.items.filter((item) => !current.some((known) => known.id === item.id))]);
        setFavourites((current) => new Set([...current, ...loaded.items.filter((item) => item.favourite).map((item) => item.id)]));
        setNext(loaded.nextCursor);
      })
      .catch(() => undefined)
      .finally(() => setLoadingMore(false));
  };
  // The next 48 load when the end of the grid comes near (the button does the same by hand).
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !next || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && loadMore(), { rootMargin: "600px" });
    observer.observe(element);
    return () => observer.disconnect();
  });

  const toggleFavourite = (item: PublicGalleryItem) => {
    const isOn = !favourites.has(item.id);
    const apply = (value: boolean) =>
      setFavourites((current) => {
        const changed = new Set(current);
        if (value) changed.add(item.id);
        else changed.delete(item.id);
        return changed;
      });
    apply(isOn);
    http.post(`${base}/files/${encodeURIComponent(item.id)}/favourite`, { favourite: isOn }).catch(() => apply(!isOn));
  };

  const shown = onlyFavourites ? items.filter((item) => favourites.has(item.id)) : items;
  const photos = shown.flatMap((item) => (item.screen ? [{ id: item.id, name: item.name, screen: item.screen, download: item.download, facts: item.facts }] : []));
  const itemOf = new Map(items.map((item) => [item.id, item]));

  return (
    <div className="space-y-5" data-testid="public-gallery">
      <ShareHeader title={page.targetName}>
        <p className="text-sm text-slate-700">
          {page.visitorEmail ? `Viewing as ${page.visitorEmail}. ` : ""}
          {DOWNLOAD_NOTES[page.downloads]}
          {page.watermarked ? " Pictures carry a watermark with your address." : ""}
        </p>
      </ShareHeader>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span aria-live="polite" data-testid="favourite-count">
          {favourites.size === 0 ? "Tap the heart on a picture to mark it as a favourite." : `${favourites.size} favourite${favourites.size === 1 ? "" : "s"}`}
        </span>
        <button type="button" aria-pressed={onlyFavourites} onClick={() => setOnlyFavourites((value) => !value)} className={buttonClassName({ variant: "secondary", size: "sm" })}>
          {onlyFavourites ? "Show everything" : "Show only favourites"}
        </button>
        <a href={`${base}/simple`} className="text-brand-700 underline-offset-2 hover:underline">
          Simple view
        </a>
      </div>
      {shown.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">{onlyFavourites ? "No favourites yet." : "This gallery is empty."}</p>
      ) : (
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4" aria-label="Pictures and videos">
          {shown.map((item) => (
            <li key={item.id} className="relative overflow-hidden rounded-lg border border-slate-200 bg-white">
              <FavouriteButton item={item} isOn={favourites.has(item.id)} onToggle={() => toggleFavourite(item)} variant="tile" />
              {item.kind === "video" && item.video ? (
                <GalleryVideo src={item.video} name={item.name} playerReady={videoPlayerReady} className="aspect-square w-full bg-slate-900 object-cover" />
              ) : (
                <button type="button" aria-label={`View ${item.name}`} onClick={() => setViewing(photos.findIndex((photo) => photo.id === item.id))} className="block w-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600">
                  {item.thumb ? (
                    <RetryingThumb src={item.thumb} alt={item.name} onGiveUp={() => undefined} />
                  ) : (
                    <span className="flex aspect-square w-full items-center justify-center bg-slate-100 px-3 text-center text-sm text-slate-700">No preview of this picture</span>
                  )}
                </button>
              )}
              <p className="truncate px-2 py-1 text-xs text-slate-700">{item.name}</p>
            </li>
          ))}
        </ul>
      )}
      {next && !onlyFavourites ? (
        <div ref={sentinel} className="flex justify-center">
          <button type="button" onClick={loadMore} disabled={loadingMore} className={buttonClassName({ variant: "secondary" })}>
            {loadingMore ? "Loading…" : "Show more"}
          </button>
        </div>
      ) : null}
      {viewing !== null && photos[viewing] ? (
        <Suspense fallback={null}>
          <PhotoViewer
            photos={photos}
            index={viewing}
            onIndex={setViewing}
            onClose={() => setViewing(null)}
            renderActions={(photo) => {
              const item = itemOf.get(photo.id);
              return item ? <FavouriteButton item={item} isOn={favourites.has(item.id)} onToggle={() => toggleFavourite(item)} variant="viewer" /> : null;
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
