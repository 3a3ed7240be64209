import type { WatermarkSettings } from "~/features/datarooms/protection";
import { AppError } from "~/lib/errors";
import { pageViewOf } from "~/lib/pdf-page-view";
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
  const { PDFDocument, StandardFonts, degrees, grayscale, pushGraphicsState, popGraphicsState, concatTransformationMatrix } = await import("pdf-lib");
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
    // Laid out on the page as the viewer shows it (crop box, /Rotate): "bottom" is the bottom a reader sees, upright.
    const media = page.getMediaBox();
    const crop = page.getCropBox();
    const view = pageViewOf(page.getRotation().angle, { x1: media.x, y1: media.y, x2: media.x + media.width, y2: media.y + media.height }, { x1: crop.x, y1: crop.y, x2: crop.x + crop.width, y2: crop.y + crop.height });
    const layout = layoutWatermark(view.width, view.height, textWidth, settings.fontSize, settings.position);
    const rotate = degrees((layout.angle * 180) / Math.PI);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...view.matrix));
    for (const placement of layout.placements) {
      page.drawText(text, { x: placement.x, y: placement.y, size: settings.fontSize, font, color: grayscale(0.35), opacity: settings.opacity, rotate });
    }
    page.pushOperators(popGraphicsState());
  }
  return document.save({ updateFieldAppearances: false });
}
