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

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.byteLength);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.byteLength, crc32(out.subarray(4, 8 + data.byteLength)));
  return out;
}

/**
 * A picture of a signature as a signer would upload it: a PNG (grey with alpha) with a dark
 * stroke on a transparent background. Built here (CompressionStream's zlib), in Node and workerd.
 */
export async function signaturePng(width = 120, height = 40): Promise<Uint8Array<ArrayBuffer>> {
  const raw = new Uint8Array((width * 2 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 2 + 1);
    for (let x = 0; x < width; x += 1) {
      const ink = Math.abs(y - (height * (1 + Math.sin((x / width) * Math.PI * 3))) / 2) < 2;
      raw[row + 1 + x * 2] = 25;
      raw[row + 2 + x * 2] = ink ? 255 : 0;
    }
  }
  const compressed = new Uint8Array(await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 4, 0, 0, 0], 8);
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", compressed), chunk("IEND", new Uint8Array())];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
