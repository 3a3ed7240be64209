import { PDF } from "@libpdf/core";
import { AppError } from "~/lib/errors";
import { BOX_SCALE, type TextLayerPage } from "./text-layer";

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
    const width = extracted.width || 1;
    const height = extracted.height || 1;
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
            const { x, y, width: w, height: h } = char.bbox;
            boxes.push(Math.round((x / width) * BOX_SCALE), Math.round(((height - y - h) / height) * BOX_SCALE), Math.round((w / width) * BOX_SCALE), Math.round((h / height) * BOX_SCALE));
          }
        }
      });
    });
    return { text, boxes };
  });
}
