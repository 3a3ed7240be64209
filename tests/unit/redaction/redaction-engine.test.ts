// @vitest-environment node
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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
