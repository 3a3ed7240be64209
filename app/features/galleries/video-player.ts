/**
 * The gallery pages' video player (spec §2 "Gallery pages", §8): loaded once, on gallery pages
 * only. If its code cannot be loaded, it only warns that video features may be limited: videos
 * keep the browser's own controls.
 */
export const VIDEO_PLAYER_WARNING = "The video player could not be loaded: video features may be limited.";

let loading: Promise<boolean> | null = null;

/** Loads the player's elements (once; tried again on the next gallery page after a failure). True when they are ready. */
export function loadVideoPlayer(load: () => Promise<unknown> = () => import("./video-player-elements")): Promise<boolean> {
  loading ??= load().then(
    () => true,
    (error: unknown) => {
      console.warn(VIDEO_PLAYER_WARNING, error);
      loading = null;
      return false;
    },
  );
  return loading;
}
