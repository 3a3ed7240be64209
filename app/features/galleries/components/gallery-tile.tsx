import { useState } from "react";
import { Link } from "react-router";
import type { GalleryItem } from "../folder-gallery.server";
import { GalleryVideo } from "./gallery-video";
import { useMediaRetry } from "./use-media-retry";

/** Failed thumbnails are tried again after 1 s (spec §9), twice, then the tile shows the name alone. */
const MEDIA_RETRIES = 2;

/** A picture's thumbnail that is tried again after 1 s when it fails to load (a thumbnail still being made). */
export function RetryingThumb({ src, alt, onGiveUp, className = "aspect-square w-full bg-slate-100 object-cover" }: { src: string; alt: string; onGiveUp: () => void; className?: string }) {
  const { address, onError } = useMediaRetry(src, MEDIA_RETRIES, onGiveUp);
  return <img src={address} alt={alt} loading="lazy" decoding="async" className={className} onError={onError} />;
}

/** One cell of the folder gallery: the thumbnail and the name; a picture opens the viewer, a video plays in place. */
export function GalleryTile({ item, onView, videoPlayerReady = false }: { item: GalleryItem; onView?: () => void; videoPlayerReady?: boolean }) {
  const [failed, setFailed] = useState(false);
  const picture = item.thumb && !failed ? <RetryingThumb src={item.thumb} alt={item.name} onGiveUp={() => setFailed(true)} /> : <span className="flex aspect-square w-full items-center justify-center bg-slate-100 px-3 text-center text-sm text-slate-700">No preview of this picture</span>;
  return (
    <>
      {item.kind === "video" ? (
        <GalleryVideo src={`/api/files/${item.id}/preview`} name={item.name} playerReady={videoPlayerReady} preload="metadata" className="aspect-square w-full bg-slate-900 object-cover" />
      ) : (
        <button type="button" onClick={onView} aria-label={`View ${item.name}`} className="block w-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600">
          {picture}
        </button>
      )}
      <Link to={`/files/${item.id}`} className="block truncate px-2 py-1 text-xs text-slate-700 hover:underline">
        {item.name}
      </Link>
    </>
  );
}
