import type { WatermarkPosition } from "~/features/datarooms/protection";

/**
 * Where a watermark's text goes on a page or an image: pure geometry shared by the PDF stamper
 * and the image stamper. Coordinates are y-up with the origin at the bottom left (PDF's space;
 * the image stamper flips them). Each placement is the start of the text's baseline; the text
 * runs at `angle` (radians, counter-clockwise).
 */

export type Placement = { x: number; y: number };
export type WatermarkLayout = { angle: number; placements: Placement[] };

/** More copies than this on one page cost CPU and add nothing: the spacing grows instead. */
export const MAX_TILES = 150;

/** The height of capitals relative to the font size (Helvetica and the bitmap font alike). */
const CAP_HEIGHT = 0.72;

/** The start of a baseline that puts the text's middle on (cx, cy). */
function centeredAt(cx: number, cy: number, textWidth: number, fontSize: number, angle: number): Placement {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const halfHeight = (fontSize * CAP_HEIGHT) / 2;
  return { x: cx - (textWidth / 2) * cos + halfHeight * sin, y: cy - (textWidth / 2) * sin - halfHeight * cos };
}

export function layoutWatermark(width: number, height: number, textWidth: number, fontSize: number, position: WatermarkPosition): WatermarkLayout {
  if (width <= 0 || height <= 0) return { angle: 0, placements: [] };
  switch (position) {
    case "top":
      return { angle: 0, placements: [centeredAt(width / 2, height - fontSize * 1.5, textWidth, fontSize, 0)] };
    case "bottom":
      return { angle: 0, placements: [centeredAt(width / 2, fontSize * 1.5, textWidth, fontSize, 0)] };
    case "center": {
      const angle = Math.atan2(height, width);
      return { angle, placements: [centeredAt(width / 2, height / 2, textWidth, fontSize, angle)] };
    }
    case "tiled": {
      const angle = Math.PI / 4;
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      // Rows and columns in the text's own frame (u along the text, v across), covering the page.
      const corners = [
        [0, 0],
        [width, 0],
        [0, height],
        [width, height],
      ].map(([x, y]) => ({ u: x! * cos + y! * sin, v: -x! * sin + y! * cos }));
      const uMin = Math.min(...corners.map((c) => c.u));
      const uMax = Math.max(...corners.map((c) => c.u));
      const vMin = Math.min(...corners.map((c) => c.v));
      const vMax = Math.max(...corners.map((c) => c.v));
      let uStep = textWidth + fontSize * 3;
      let vStep = fontSize * 5;
      const count = () => (Math.floor((uMax - uMin) / uStep) + 2) * (Math.floor((vMax - vMin) / vStep) + 2);
      while (count() > MAX_TILES) {
        uStep *= 1.2;
        vStep *= 1.2;
      }
      const placements: Placement[] = [];
      let row = 0;
      for (let v = vMin; v <= vMax + vStep; v += vStep, row++) {
        // Every other row shifts by half a step, so the copies interlock like bricks.
        const shift = row % 2 === 0 ? 0 : uStep / 2;
        for (let u = uMin - uStep + shift; u <= uMax; u += uStep) {
          const x = u * cos - v * sin;
          const y = u * sin + v * cos;
          // Keep copies whose text crosses the page at all.
          const endX = x + textWidth * cos;
          const endY = y + textWidth * sin;
          if (Math.max(x, endX) < -fontSize || Math.min(x, endX) > width + fontSize) continue;
          if (Math.max(y, endY) < -fontSize || Math.min(y, endY) > height + fontSize) continue;
          placements.push({ x, y });
        }
      }
      return { angle, placements };
    }
  }
}
