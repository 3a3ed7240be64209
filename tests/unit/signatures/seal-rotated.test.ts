// @vitest-environment node
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { degrees, PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { sealPdf } from "~/features/signatures/seal-pdf.server";
import { field } from "~tests/shared/signature-fixtures";
import { testIdentity } from "./seal-helpers";

/** A one-page letter-size document, turned by /Rotate and optionally cropped, as a scanner or a landscape export makes them. */
async function turnedPdf(rotation: 0 | 90 | 180 | 270, crop?: [number, number, number, number]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([612, 792]);
  page.drawText("Agreement", { x: 300, y: 400, size: 10, font });
  page.setRotation(degrees(rotation));
  if (crop) page.setCropBox(...crop);
  return document.save();
}

/** Where poppler finds a word on the first page, as fractions of the page as it is shown (its /Rotate and crop box applied). */
function wordBox(bytes: Uint8Array, word: string, turned: boolean): { x: number; y: number; upright: boolean } {
  const folder = mkdtempSync(path.join(tmpdir(), "turned-"));
  const file = path.join(folder, "sealed.pdf");
  writeFileSync(file, bytes);
  const html = execFileSync("pdftotext", ["-cropbox", "-bbox", "-f", "1", "-l", "1", file, "-"], { encoding: "utf8" });
  const page = /<page width="([\d.]+)" height="([\d.]+)">/.exec(html)!;
  const found = new RegExp(`<word xMin="([\\d.]+)" yMin="([\\d.]+)" xMax="([\\d.]+)" yMax="([\\d.]+)">${word}</word>`).exec(html);
  if (!found) throw new Error(`${word} not found:\n${html}`);
  const [xMin, yMin, xMax, yMax] = found.slice(1, 5).map(Number) as [number, number, number, number];
  // A word laid out left to right is wider than tall; one turned on its side is not.
  // Poppler gives the page's (crop box's) size unturned and the words' places as shown.
  const [width, height] = turned ? [Number(page[2]), Number(page[1])] : [Number(page[1]), Number(page[2])];
  return { x: xMin / width, y: yMin / height, upright: xMax - xMin > yMax - yMin };
}

describe("sealing turned and cropped pages", () => {
  const cases: [string, 0 | 90 | 180 | 270, [number, number, number, number] | undefined][] = [
    ["an upright page", 0, undefined],
    ["a page turned a quarter", 90, undefined],
    ["a page upside down", 180, undefined],
    ["a page turned three quarters", 270, undefined],
    ["a cropped page turned a quarter", 90, [36, 72, 540, 648]],
  ];
  it.each(cases)("draws a field where the signer saw it, upright, on %s", async (_name, rotation, crop) => {
    const identity = await testIdentity();
    const name = field({ type: "name", roleId: "a", page: 0, x: 0.1, y: 0.1, w: 0.4, h: 0.05 });
    const sealed = await sealPdf({
      original: await turnedPdf(rotation, crop),
      envelopeId: "env_turned",
      title: "Turned page",
      sender: { name: "Ada Lovelace", email: "ada@example.com" },
      fields: [name],
      values: { [name.id]: "Lovelace" },
      recipients: [{ name: "Ada Lovelace", email: "ada@example.com", kind: "Signer", verification: "E-mail link", ip: null, userAgent: null, sentAt: new Date(), openedAt: new Date(), signedAt: new Date() }],
      events: [{ at: new Date(), who: "Ada Lovelace", what: "Signed", ip: null }],
      completedAt: new Date(),
      verifyUrl: "http://localhost/signatures/verify",
      identity,
    });
    const box = wordBox(sealed.bytes, "Lovelace", rotation === 90 || rotation === 270);
    expect(box.upright).toBe(true);
    // The field's box starts at 10 % from the left and the top of the page as shown.
    expect(box.x).toBeGreaterThan(0.09);
    expect(box.x).toBeLessThan(0.13);
    expect(box.y).toBeGreaterThan(0.09);
    expect(box.y).toBeLessThan(0.16);
  });
});
