// @vitest-environment node
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { init, type WrappedPdfiumModule } from "@embedpdf/pdfium";
import { PDF } from "@libpdf/core";
import { beforeAll, describe, expect, it } from "vitest";
import { redactDocument } from "~workers/redactor/redact-document";
import { EMAIL_MARK, FIELD_MARK, FIXTURE_LINES, redactionFixture } from "~tests/shared/redaction-fixtures";

/** Poppler's tools on a file: what a reader nobody here wrote finds in the redacted PDF. */
function poppler(tool: "pdftotext" | "pdfinfo" | "pdfdetach", bytes: Uint8Array, args: string[] = []): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "redact-")), "doc.pdf");
  writeFileSync(file, bytes);
  return execFileSync(tool, [...args, file, ...(tool === "pdftotext" ? ["-"] : [])], { encoding: "utf8" });
}

let pdfium: WrappedPdfiumModule;
beforeAll(async () => {
  const wasm = readFileSync(createRequire(import.meta.url).resolve("@embedpdf/pdfium/pdfium.wasm"));
  pdfium = await init({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) });
  pdfium.PDFiumExt_Init();
});

describe("the redaction engine (PDFium)", () => {
  it("removes the marked words from the text layer, keeps the unmarked ones on the same page, and leaves other pages alone", async () => {
    const original = await redactionFixture({ pages: 3 });
    const result = await redactDocument(pdfium, { pdf: original, marks: [EMAIL_MARK(2)] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const pages = poppler("pdftotext", result.bytes).split("\f");
    expect(pages[2]).not.toContain(FIXTURE_LINES.email(3));
    expect(pages[2]).toContain(FIXTURE_LINES.keep);
    const before = poppler("pdftotext", original).split("\f");
    expect(pages[0]).toBe(before[0]);
    expect(pages[1]).toBe(before[1]);
    expect(result.removedText.join(" ")).toContain(FIXTURE_LINES.email(3));
    expect(result.counts.marksPerPage).toEqual({ "2": 1 });
    expect(result.rects[0]).toMatchObject({ page: 2 });
    expect(result.rects[0]!.left).toBeGreaterThan(72);
  });

  it("drops the metadata, the document script, the attachment and a form field under a mark", async () => {
    const original = await redactionFixture({ pages: 1, extras: true });
    expect(poppler("pdfinfo", original)).toContain("Project Falcon term sheet");
    const result = await redactDocument(pdfium, { pdf: original, marks: [EMAIL_MARK(0), FIELD_MARK] });
    expect(result.ok, result.ok ? "" : result.reason).toBe(true);
    if (!result.ok) return;
    const info = poppler("pdfinfo", result.bytes);
    expect(info).not.toContain("Project Falcon");
    expect(info).not.toContain("Ada Lovelace");
    expect(info).toMatch(/JavaScript:\s+no/);
    expect(poppler("pdfdetach", result.bytes, ["-list"])).toContain("0 embedded files");
    const raw = Buffer.from(result.bytes).toString("latin1");
    for (const secret of ["XMPSECRET", "SCRIPTSECRET", "ATTACHMENTSECRET", "FIELDSECRET"]) expect(raw).not.toContain(secret);
    expect(result.counts).toMatchObject({ annotationsRemoved: 1, formFieldsRemoved: 1, attachmentsRemoved: 1 });
    // The field's value went with it (pdf-lib wrote it as UTF-16, which no byte search would see).
    const reread = await PDF.load(result.bytes);
    expect(reread.hasForm() ? ((await reread.getForm())?.getFields().length ?? 0) : 0).toBe(0);
    expect(result.counts.documentPartsRemoved).toEqual(expect.arrayContaining(["XMP metadata", "document scripts"]));
  });

  it("refuses a file that is not a PDF and a mark beyond the last page, with a reason", async () => {
    expect(await redactDocument(pdfium, { pdf: new TextEncoder().encode("not a pdf"), marks: [] })).toEqual({ ok: false, reason: "This file could not be read as a PDF, so nothing in it can be redacted." });
    expect(await redactDocument(pdfium, { pdf: await redactionFixture({ pages: 1 }), marks: [EMAIL_MARK(4)] })).toEqual({ ok: false, reason: "A mark is on page 5, but the document has 1 page." });
  });
});

/** A PNG of noise (no two neighbouring pixels alike), as a scanned page or photo would be. */
async function noisePng(width: number, height: number): Promise<Uint8Array> {
  const raw = new Uint8Array((width * 3 + 1) * height);
  let seed = 7;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width * 3; x += 1) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      raw[y * (width * 3 + 1) + 1 + x] = seed >> 23;
    }
  }
  const { deflateSync } = await import("node:zlib");
  const { crc32 } = await import("node:zlib");
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "latin1");
    Buffer.from(data).copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array())]);
}

/** The images poppler's pdfimages pulls out of a file, as raw RGB (PPM). */
function extractImages(bytes: Uint8Array): { width: number; height: number; rgb: Buffer }[] {
  const folder = mkdtempSync(path.join(tmpdir(), "images-"));
  const file = path.join(folder, "doc.pdf");
  writeFileSync(file, bytes);
  execFileSync("pdfimages", [file, path.join(folder, "img")]);
  return readdirSync(folder)
    .filter((name) => name.endsWith(".ppm"))
    .sort()
    .map((name) => {
      const data = readFileSync(path.join(folder, name));
      const header = /^P6\s+(\d+)\s+(\d+)\s+\d+\s/.exec(data.subarray(0, 40).toString("latin1"))!;
      return { width: Number(header[1]), height: Number(header[2]), rgb: data.subarray(header[0].length) };
    });
}

describe("pictures inside a PDF", () => {
  it("clears the pixels of an embedded picture under a mark (uniform there) and leaves the rest of it as it was", async () => {
    const { PDFDocument } = await import("pdf-lib");
    const document = await PDFDocument.create();
    const page = document.addPage([612, 792]);
    const image = await document.embedPng(await noisePng(200, 100));
    page.drawImage(image, { x: 100, y: 400, width: 200, height: 100 });
    const original = new Uint8Array(await document.save());
    // The left half of the picture (page x 100–200, y 400–500).
    const mark = { page: 0, x: 100 / 612, y: (792 - 500) / 792, w: 100 / 612, h: 100 / 792 };
    const result = await redactDocument(pdfium, { pdf: original, marks: [mark] });
    expect(result.ok, result.ok ? "" : result.reason).toBe(true);
    if (!result.ok) return;
    const [picture] = extractImages(result.bytes);
    expect(picture).toBeDefined();
    const { width, height, rgb } = picture!;
    const pixel = (x: number, y: number) => rgb.readUIntBE((y * width + x) * 3, 3);
    const covered = new Set<number>();
    const open = new Set<number>();
    for (let y = 2; y < height - 2; y += 1) {
      for (let x = 2; x < width / 2 - 2; x += 1) covered.add(pixel(x, y));
      for (let x = width / 2 + 2; x < width - 2; x += 1) open.add(pixel(x, y));
    }
    expect(covered.size).toBe(1);
    expect(open.size).toBeGreaterThan(1000);
  });
});

describe("flattening marked pages (the fallback when a redaction cannot be proven)", () => {
  it("turns each marked page into one picture with the marks black in it: no text left there, other pages untouched", async () => {
    const original = await redactionFixture({ pages: 3 });
    const result = await redactDocument(pdfium, { pdf: original, marks: [EMAIL_MARK(1)], flatten: true });
    expect(result.ok, result.ok ? "" : result.reason).toBe(true);
    if (!result.ok) return;
    expect(result.counts.flattenedPages).toEqual([1]);
    const pages = poppler("pdftotext", result.bytes).split("\f");
    expect(pages[1]!.trim()).toBe("");
    expect(pages[0]).toContain(FIXTURE_LINES.email(1));
    expect(pages[2]).toContain(FIXTURE_LINES.email(3));
    const [picture] = extractImages(result.bytes);
    // 8.5 × 11 inches at 150 dpi; the mark's area is black in it.
    expect(picture).toMatchObject({ width: 1275, height: 1650 });
    const { width, rgb } = picture!;
    const at = (fx: number, fy: number) => rgb.readUIntBE((Math.round(fy * 1650) * width + Math.round(fx * width)) * 3, 3);
    expect(at(EMAIL_MARK(1).x + EMAIL_MARK(1).w / 2, EMAIL_MARK(1).y + EMAIL_MARK(1).h / 2)).toBe(0);
    expect(at(0.9, 0.9)).toBe(0xffffff);
  });
});
