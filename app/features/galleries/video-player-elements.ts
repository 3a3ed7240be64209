/**
 * The bundled video player's elements (media-chrome 4.19.4, element by element: no CDN, no React
 * wrappers that server-render their shadow DOM). Loaded on gallery pages only, as one chunk.
 */
import "media-chrome/media-controller";
import "media-chrome/media-control-bar";
import "media-chrome/media-play-button";
import "media-chrome/media-time-range";
import "media-chrome/media-mute-button";
import "media-chrome/media-fullscreen-button";
