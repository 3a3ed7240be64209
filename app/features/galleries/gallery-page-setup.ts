import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import { GALLERY_RECOVER_EVENT } from "~/lib/gallery-recovery";
import { loadVideoPlayer } from "./video-player";

/**
 * Gallery pages' mobile tweaks (spec §2 "Gallery pages", §3 "Application start"; ADR 034): on a
 * phone or tablet (a coarse pointer) the viewport is locked to no zoom while the gallery is open,
 * so a pinch or double tap reaches the photo viewer instead of zooming the page, and it is given
 * back on leaving. Browsers' own accessibility setting "force enable zoom" still wins over it. The
 * bundled video player loads with it (`videoPlayerReady` once its elements are defined). On
 * public pages the setup waits 100 ms (spec: "Gallery setup on public pages is delayed 100 ms").
 */
export const PUBLIC_GALLERY_SETUP_DELAY_MS = 100;
export const LOCKED_VIEWPORT = "width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no";

export function lockViewport(doc: Document, isMobile: boolean): () => void {
  const meta = doc.querySelector<HTMLMetaElement>('meta[name="viewport"]');
  if (!meta || !isMobile) return () => {};
  const before = meta.content;
  meta.content = LOCKED_VIEWPORT;
  return () => {
    meta.content = before;
  };
}

export function useGalleryPageSetup({ isPublic }: { isPublic: boolean }): { videoPlayerReady: boolean } {
  const [videoPlayerReady, setVideoPlayerReady] = useState(false);
  useEffect(() => {
    let release = () => {};
    let live = true;
    const setUp = () => {
      release = lockViewport(document, window.matchMedia("(pointer: coarse)").matches);
      void loadVideoPlayer().then((ready) => live && setVideoPlayerReady(ready));
    };
    const timer = window.setTimeout(setUp, isPublic ? PUBLIC_GALLERY_SETUP_DELAY_MS : 0);
    return () => {
      live = false;
      window.clearTimeout(timer);
      release();
    };
  }, [isPublic]);
  return { videoPlayerReady };
}

/**
 * Spec §4 "Gallery recovery" on a gallery page: when the recovery event fires (1 s after a
 * gallery-related error was toasted), `onRecover` runs (close the viewer), the returned
 * generation changes (a key that draws the grid afresh) and the page's data is loaded again.
 */
export function useGalleryRecovery(onRecover: () => void): number {
  const revalidator = useRevalidator();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const recover = () => {
      onRecover();
      setGeneration((value) => value + 1);
      void revalidator.revalidate();
    };
    window.addEventListener(GALLERY_RECOVER_EVENT, recover);
    return () => window.removeEventListener(GALLERY_RECOVER_EVENT, recover);
  }, [revalidator, onRecover]);
  return generation;
}
