import type { WatermarkSettings } from "~/features/datarooms/protection";
import { AppError } from "~/lib/errors";
import { layoutWatermark } from "./layout";

/**
 * Burns a watermark into every page of a PDF with pdf-lib (ADR 020): the text goes into each
 * page's content stream (Helvetica, grey, at the room's opacity, size and position), so it is
 * part of the document the viewer renders, prints or saves, not an overlay a browser could hide.
 * pdf-lib loads the whole file: larger PDFs than WATERMARK_PDF_MAX_BYTES are refused (a
 * Worker has 128 MB). Loaded lazily, so only the requests that stamp pay for it (G6).
 */

export const WATERMARK_PDF_MAX_BYTES = 30 * 1024 * 1024;

export async function stampPdf(bytes: Uint8Array, text: string, settings: WatermarkSettings): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, degrees, grayscale } = await import("pdf-lib");
  let document;
  try {
    document = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    const name = error instanceof Error ? error.constructor.name : "";
    if (name === "EncryptedPDFError") {
      throw new AppError("UNPROCESSABLE", "This PDF is protected with a password, so it cannot carry the room's watermark and cannot be shown here.");
    }
    throw new AppError("UNPROCESSABLE", "This file could not be read as a PDF, so it cannot carry the room's watermark and cannot be shown here.");
  }
  const font = await document.embedFont(StandardFonts.Helvetica);
  const textWidth = font.widthOfTextAtSize(text, settings.fontSize);
  for (const page of document.getPages()) {
    const { x: left, y: bottom, width, height } = page.getCropBox();
    const layout = layoutWatermark(width, height, textWidth, settings.fontSize, settings.position);
    const rotate = degrees((layout.angle * 180) / Math.PI);
    for (const placement of layout.placements) {
      page.drawText(text, {
        x: left + placement.x,
        y: bottom + placement.y,
        size: settings.fontSize,
        font,
        color: grayscale(0.35),
        opacity: settings.opacity,
        rotate,
      });
    }
  }
  return document.save({ updateFieldAppearances: false });
}
