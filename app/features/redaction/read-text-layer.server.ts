import { PDF, PdfArray, PdfNumber, type PDFPage } from "@libpdf/core";
import { AppError } from "~/lib/errors";
import { BOX_SCALE, type TextLayerPage } from "./text-layer";

type Box = { x: number; y: number; width: number; height: number };

/**
 * A character's box (PDF user space, y up) as fractions of the page as shown, from its top left:
 * within the crop box, turned clockwise by the page's /Rotate, as pdf.js draws it and PDFium maps
 * marks back ([left, top, width, height]).
 */
export function shownBox(crop: Box, rotation: number): (box: Box) => [number, number, number, number] {
  return (box) => {
    const u = (box.x - crop.x) / (crop.width || 1);
    const v = (crop.y + crop.height - (box.y + box.height)) / (crop.height || 1);
    const uw = box.width / (crop.width || 1);
    const vh = box.height / (crop.height || 1);
    if (rotation === 90) return [1 - v - vh, u, vh, uw];
    if (rotation === 180) return [1 - u - uw, 1 - v - vh, uw, vh];
    if (rotation === 270) return [v, 1 - u - uw, vh, uw];
    return [u, v, uw, vh];
  };
}

/**
 * The page's crop box (else its media box) read from its own array [x1 y1 x2 y2]; libpdf's
 * getCropBox() gives the upper corner where a width is expected, so the raw entry is read here.
 */
function visibleBox(page: PDFPage): Box {
  for (const key of ["CropBox", "MediaBox"]) {
    const entry = page.dict.get(key);
    if (entry instanceof PdfArray && entry.length === 4) {
      const [x1, y1, x2, y2] = [0, 1, 2, 3].map((index) => {
        const value = entry.at(index);
        return value instanceof PdfNumber ? value.value : Number.NaN;
      }) as [number, number, number, number];
      if ([x1, y1, x2, y2].every(Number.isFinite)) return { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
    }
  }
  const media = page.getMediaBox();
  return { x: media.x, y: media.y, width: media.width - media.x, height: media.height - media.y };
}

/** The text layer of a PDF, with a box per character, for the marking page's search (issue 39). */
export async function readTextLayer(bytes: Uint8Array, name: string): Promise<TextLayerPage[]> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(bytes);
  } catch {
    throw new AppError("UNPROCESSABLE", `“${name}” could not be read as a PDF.`);
  }
  return pdf.getPages().map((page) => {
    const extracted = page.extractText({ includeChars: true });
    const place = shownBox(visibleBox(page), page.rotation);
    let text = "";
    const boxes: number[] = [];
    const gap = (char: string) => {
      text += char;
      boxes.push(-1, -1, -1, -1);
    };
    extracted.lines.forEach((line, lineIndex) => {
      if (lineIndex > 0) gap("\n");
      line.spans.forEach((span, spanIndex) => {
        if (spanIndex > 0 && !text.endsWith(" ")) gap(" ");
        for (const char of span.chars) {
          // One box per UTF-16 unit of the character, so indexes into `text` find their boxes.
          for (let unit = 0; unit < char.char.length; unit += 1) {
            text += char.char[unit];
            const shown = place(char.bbox);
            boxes.push(...shown.map((value) => Math.round(value * BOX_SCALE)));
          }
        }
      });
    });
    return { text, boxes };
  });
}
