import type { DerivedObject } from "~/features/files/derived-objects";

/**
 * Galleries (issue 40): which files are pictures a gallery shows, and the sizes made of them.
 * Cloudflare Images reads these formats (and turns them upright by their EXIF orientation).
 */
export const GALLERY_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"] as const;
export const isGalleryImage = (contentType: string) => (GALLERY_IMAGE_TYPES as readonly string[]).includes(contentType);

/**
 * Each derivative fits inside a square of this many pixels (never enlarged), as JPEG: every
 * browser shows it and the watermark engine can stamp it (ADR 033). The thumbnail fills a grid
 * cell on a phone's screen at 2× density; the screen size fills a laptop's screen in the viewer.
 */
export const DERIVATIVE_SIZES: Record<DerivedObject, { box: number; quality: number }> = {
  thumb: { box: 480, quality: 75 },
  screen: { box: 2048, quality: 82 },
};

/** Pictures up to this size are read for derivatives (Cloudflare Images takes up to 70 MB). */
export const DERIVATIVE_SOURCE_MAX_BYTES = 50 * 1024 * 1024;

/** Spec §9: a picture or video that fails to load is tried again after this long. */
export const MEDIA_RETRY_MS = 1000;
