import { PDFDocument, StandardFonts } from "pdf-lib";
import type { SignField } from "~/features/signatures/signature-fields";

/** A plain PDF of `pages` Letter pages with a line of text on each (what members upload to sign). */
export async function contractPdf(pages = 2, title = "Share purchase agreement"): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < pages; index += 1) {
    const page = document.addPage([612, 792]);
    page.drawText(`${title} - page ${index + 1}`, { x: 72, y: 720, size: 14, font });
    page.drawText("Signed by the parties below.", { x: 72, y: 200, size: 11, font });
  }
  return document.save();
}

let counter = 0;
/** One placed field with sensible defaults. */
export function field(overrides: Partial<SignField> & Pick<SignField, "type" | "roleId">): SignField {
  counter += 1;
  return { id: `f${counter}`, page: 0, x: 0.1, y: 0.8, w: 0.3, h: 0.07, required: true, label: "", options: [], ...overrides };
}

/** A small drawn signature: two strokes in the pad's 600 × 200 box. */
export const DRAWN_SIGNATURE = "svg:M20 150L120 40L200 160L300 50M320 120L560 110";
