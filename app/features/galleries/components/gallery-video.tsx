import type { DetailedHTMLProps, HTMLAttributes } from "react";
import { useMediaRetry } from "./use-media-retry";

type CustomElement = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & { class?: string };
declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "media-controller": CustomElement;
      "media-control-bar": CustomElement;
      "media-play-button": CustomElement;
      "media-time-range": CustomElement;
      "media-mute-button": CustomElement;
      "media-fullscreen-button": CustomElement;
    }
  }
}

/**
 * A gallery's video: in the bundled accessible player (media-chrome: play, seek, mute, full screen,
 * each a labelled button or slider, keyboard included; its time display is left out: its label
 * does not contain the time it shows, WCAG 2.5.3) once its elements are loaded;
 * until then, or if they could not load, with the browser's own controls. `preload`: "metadata"
 * shows the first frame where opening is not counted (members); a public gallery's videos fetch
 * nothing before the visitor presses play ("none": opening a video counts as a view).
 */
export function GalleryVideo({ src, name, playerReady, className, preload = "none" }: { src: string; name: string; playerReady: boolean; className: string; preload?: "none" | "metadata" }) {
  // Spec §2, §9: a video that fails to load is tried again after 1 s (once; then the player shows the error).
  const { address, attempt, onError } = useMediaRetry(src, 1);
  if (!playerReady) return <video key={attempt} src={address} controls preload={attempt ? "metadata" : preload} playsInline aria-label={name} className={className} onError={onError} />;
  return (
    <media-controller class={`block ${className}`} aria-label={`Video player: ${name}`} data-testid="video-player">
      <video key={attempt} slot="media" src={address} preload={attempt ? "metadata" : preload} playsInline aria-label={name} className="h-full w-full object-cover" onError={onError} />
      <media-control-bar class="w-full">
        <media-play-button />
        <media-time-range />
        <media-mute-button />
        <media-fullscreen-button />
      </media-control-bar>
    </media-controller>
  );
}
