// @vitest-environment node
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { degrees, PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { DEFAULT_WATERMARK, renderWatermarkText, type WatermarkSettings } from "~/features/datarooms/protection";
import { glyphPixel } from "~/features/watermark/bitmap-font";
import { stampPixels } from "~/features/watermark/image-stamp";
import { layoutWatermark, MAX_TILES } from "~/features/watermark/layout";
import { stampPdf } from "~/features/watermark/pdf-stamp.server";

async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: bytes, useWorkerFetch: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= document.numPages; i++) {
    const content = await (await document.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join("\n"));
  }
  return pages;
}

describe("watermark text", () => {
  it("fills the variables and keeps only what the fonts can draw", () => {
    const text = renderWatermarkText("{{email}} · {{date}} {{time}} · {{ip}} · {{room}}", {
      email: "zoë@example.com",
      date: "2026-11-25",
      time: "09:30",
      ip: "2001:db8::7",
      room: "Due diligence — Falcon",
    });
    expect(text).toBe("zoe@example.com ? 2026-11-25 09:30 ? 2001:db8::7 ? Due diligence ? Falcon");
  });

  it("draws the letters of the bitmap font where they belong", () => {
    const rows = Array.from({ length: 7 }, (_, row) => Array.from({ length: 5 }, (_, column) => (glyphPixel("T", column, row) ? "#" : ".")).join(""));
    expect(rows).toEqual(["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."]);
    expect(glyphPixel("é", 0, 1)).toBe(glyphPixel("?", 0, 1));
  });

  it("tiles a page with interlocking copies, never more than the cap, and puts one copy in the middle when asked", () => {
    const tiled = layoutWatermark(595, 842, 300, 18, "tiled");
    expect(tiled.placements.length).toBeGreaterThan(10);
    expect(layoutWatermark(595, 842, 10, 8, "tiled").placements.length).toBeLessThanOrEqual(MAX_TILES);
    const centre = layoutWatermark(595, 842, 300, 18, "center");
    expect(centre.placements).toHaveLength(1);
    expect(centre.angle).toBeCloseTo(Math.atan2(842, 595));
  });
});

describe("stamping", () => {
  it("puts the viewer's text into every page of a PDF, where a text extractor finds it, and leaves the page's own text", async () => {
    const original = await PDFDocument.create();
    const font = await original.embedFont(StandardFonts.Helvetica);
    for (let i = 1; i <= 3; i++) original.addPage([595, 842]).drawText(`Confidential page ${i}`, { x: 50, y: 780, size: 18, font });
    const bytes = await original.save();
    const settings: WatermarkSettings = { ...DEFAULT_WATERMARK, position: "bottom" };
    const stamped = await stampPdf(bytes, "mira@example.com - 2026-11-25 09:30 UTC - 198.51.100.23", settings);
    expect(stamped).not.toEqual(bytes);
    const pages = await pdfText(stamped);
    expect(pages).toHaveLength(3);
    pages.forEach((page, i) => {
      expect(page).toContain(`Confidential page ${i + 1}`);
      expect(page).toContain("mira@example.com - 2026-11-25 09:30 UTC - 198.51.100.23");
    });
    expect((await pdfText(bytes)).join("")).not.toContain("mira@example.com");
  });

  it("puts a bottom watermark at the bottom a reader sees, upright, on a page turned a quarter (a landscape scan)", async () => {
    const original = await PDFDocument.create();
    original.addPage([612, 792]).setRotation(degrees(90));
    const stamped = await stampPdf(await original.save(), "WATERMARKED", { ...DEFAULT_WATERMARK, position: "bottom" });
    const folder = mkdtempSync(path.join(tmpdir(), "stamp-"));
    writeFileSync(path.join(folder, "turned.pdf"), stamped);
    const html = execFileSync("pdftotext", ["-cropbox", "-bbox", path.join(folder, "turned.pdf"), "-"], { encoding: "utf8" });
    const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">WATERMARKED<\/word>/.exec(html)!;
    const [xMin, yMin, xMax, yMax] = word.slice(1, 5).map(Number) as [number, number, number, number];
    // Shown 792 wide and 612 high: the text runs left to right, centred, near the bottom edge.
    expect(xMax - xMin).toBeGreaterThan(yMax - yMin);
    expect((xMin + xMax) / 2 / 792).toBeCloseTo(0.5, 1);
    expect(yMax / 612).toBeGreaterThan(0.9);
  });

  it("refuses a file that is not a PDF with a reason", async () => {
    await expect(stampPdf(new TextEncoder().encode("not a pdf"), "x", DEFAULT_WATERMARK)).rejects.toThrow("This file could not be read as a PDF");
  });

  it("darkens only the pixels of the text in an image, at the chosen opacity", () => {
    const pixels = { data: new Uint8ClampedArray(400 * 100 * 4).fill(255), width: 400, height: 100 };
    stampPixels(pixels, "ABC", { ...DEFAULT_WATERMARK, position: "top", opacity: 0.5 });
    const reds = [...pixels.data].filter((_, i) => i % 4 === 0);
    const marked = reds.filter((value) => value < 255);
    expect(marked.length).toBeGreaterThan(20);
    expect(new Set(marked)).toEqual(new Set([172])); // 255 · 0.5 + 89 · 0.5
    expect(reds.length - marked.length).toBeGreaterThan(reds.length * 0.9);
  });
});
