/**
 * A PDF page as a viewer shows it: its crop box (within the media box), turned by its /Rotate
 * (clockwise, as pdf.js and poppler show it). What people place or read on a page (signature
 * fields, a watermark's position) is in this view; `matrix` takes the view's coordinates (origin
 * bottom left, y up, in points) to the page's own, so drawing through it (`q … cm … Q`) lands where
 * they saw it, upright. Shared by the seal (signatures) and the PDF watermark.
 */
export type PageView = { width: number; height: number; matrix: [number, number, number, number, number, number] };

export function pageViewOf(rotation: number, media: { x1: number; y1: number; x2: number; y2: number }, crop: { x1: number; y1: number; x2: number; y2: number }): PageView {
  const x0 = Math.max(Math.min(media.x1, media.x2), Math.min(crop.x1, crop.x2));
  const y0 = Math.max(Math.min(media.y1, media.y2), Math.min(crop.y1, crop.y2));
  const w = Math.min(Math.max(media.x1, media.x2), Math.max(crop.x1, crop.x2)) - x0;
  const h = Math.min(Math.max(media.y1, media.y2), Math.max(crop.y1, crop.y2)) - y0;
  switch (((Math.round(rotation / 90) * 90) % 360 + 360) % 360) {
    case 90:
      return { width: h, height: w, matrix: [0, 1, -1, 0, x0 + w, y0] };
    case 180:
      return { width: w, height: h, matrix: [-1, 0, 0, -1, x0 + w, y0 + h] };
    case 270:
      return { width: h, height: w, matrix: [0, -1, 1, 0, x0, y0 + h] };
    default:
      return { width: w, height: h, matrix: [1, 0, 0, 1, x0, y0] };
  }
}
