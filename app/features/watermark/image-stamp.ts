import type { WatermarkSettings } from "~/features/datarooms/protection";
import { GLYPH_ADVANCE, GLYPH_ROWS, glyphPixel } from "./bitmap-font";
import { layoutWatermark } from "./layout";

/**
 * Draws watermark text into RGBA pixels (ADR 020): the 5×7 bitmap font scaled to the watermark's
 * size, at the room's opacity, along the same layout as on PDF pages (tiled at 45°, once across,
 * top or bottom). Pure: the codecs (decode, encode) live in image-codecs.server.ts.
 */

export type Pixels = { data: Uint8ClampedArray | Uint8Array; width: number; height: number };

/** The mark's grey, the same as on PDF pages (PDF grayscale 0.35). */
const INK = 89;
/** The A4 long side in points: a watermark's size on an image is as large, relative to it, as on an A4 page. */
const A4_LONG_SIDE = 842;

/** Font pixels of one glyph pixel: 10 per font size, so capitals are 70% of it as in Helvetica. */
export function glyphScale(settings: Pick<WatermarkSettings, "fontSize">, width: number, height: number): number {
  const fontPx = Math.max(8, (settings.fontSize * Math.max(width, height)) / A4_LONG_SIDE);
  return fontPx / 10;
}

/** Stamps `text` into `pixels` in place. */
export function stampPixels(pixels: Pixels, text: string, settings: WatermarkSettings): void {
  const { data, width, height } = pixels;
  const scale = glyphScale(settings, width, height);
  const fontPx = scale * 10;
  const textWidth = (text.length * GLYPH_ADVANCE - 1) * scale;
  const textHeight = GLYPH_ROWS * scale;
  const layout = layoutWatermark(width, height, textWidth, fontPx, settings.position);
  const cos = Math.cos(layout.angle);
  const sin = Math.sin(layout.angle);
  const alpha = settings.opacity;
  const keep = 1 - alpha;

  for (const origin of layout.placements) {
    // The text's rectangle (u along the text, v up from the baseline) in image pixels (y down).
    const corners = [
      [0, 0],
      [textWidth, 0],
      [0, textHeight],
      [textWidth, textHeight],
    ].map(([u, v]) => ({ x: origin.x + u! * cos - v! * sin, y: height - (origin.y + u! * sin + v! * cos) }));
    const xMin = Math.max(0, Math.floor(Math.min(...corners.map((c) => c.x))));
    const xMax = Math.min(width - 1, Math.ceil(Math.max(...corners.map((c) => c.x))));
    const yMin = Math.max(0, Math.floor(Math.min(...corners.map((c) => c.y))));
    const yMax = Math.min(height - 1, Math.ceil(Math.max(...corners.map((c) => c.y))));
    for (let py = yMin; py <= yMax; py++) {
      const dy = height - (py + 0.5) - origin.y;
      for (let px = xMin; px <= xMax; px++) {
        const dx = px + 0.5 - origin.x;
        // Back into the text's frame.
        const u = dx * cos + dy * sin;
        const v = -dx * sin + dy * cos;
        if (u < 0 || v < 0 || u >= textWidth || v >= textHeight) continue;
        const cell = Math.floor(u / (GLYPH_ADVANCE * scale));
        const column = Math.floor((u - cell * GLYPH_ADVANCE * scale) / scale);
        const row = GLYPH_ROWS - 1 - Math.floor(v / scale);
        if (!glyphPixel(text[cell] ?? " ", column, row)) continue;
        const i = (py * width + px) * 4;
        data[i] = data[i]! * keep + INK * alpha;
        data[i + 1] = data[i + 1]! * keep + INK * alpha;
        data[i + 2] = data[i + 2]! * keep + INK * alpha;
        // A transparent pixel becomes as visible as the mark.
        data[i + 3] = Math.max(data[i + 3]!, Math.round(alpha * 255));
      }
    }
  }
}
