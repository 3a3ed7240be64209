// Redacting a 50-page PDF (issue 39), measured in Node 22 with the app's own code (run by
// `npx tsx`), one mark on every page. The engine (workers/redactor/redact-document.ts, PDFium as
// WebAssembly) and the app's check of its result (check-redaction.server.ts) run in different
// Workers, each with its own 128 MB, so each is measured in a process of its own:
//   redact-measure.ts <pages> <padBytesPerPage> engine   redacts, keeps the result in .bench/
//   redact-measure.ts <pages> <padBytesPerPage> check    checks that result
// Prints the median time of three runs and the largest heap and RSS growth (for the engine also
// PDFium's WebAssembly memory) as JSON. workerd does not report its memory: the bench runs the
// check with V8's heap capped (--max-old-space-size), so a check that needs more fails outright.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { measureRuns } from "./measure-runs";
import { makePdf } from "./pdf-fixture.mjs";

const pages = Number(process.argv[2] ?? 50);
const pad = Number(process.argv[3] ?? 0);
const part = process.argv[4] === "check" ? "check" : "engine";
const kept = join(process.cwd(), ".bench", `redacted-${pages}-${pad}`);

if (part === "engine") {
  // Loaded here too only so tsx has compiled it before the check runs with its heap capped.
  await import("~/features/redaction/check-redaction.server");
  const { init } = await import("@embedpdf/pdfium");
  const { redactDocument } = await import("../../workers/redactor/redact-document");
  const original = new Uint8Array(makePdf({ pages, padBytesPerPage: pad, tree: "balanced", text: "Contact ada.lovelace at example.com about the purchase price" }));
  const wasm = readFileSync(createRequire(import.meta.url).resolve("@embedpdf/pdfium/pdfium.wasm"));
  const pdfium = await init({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) });
  pdfium.PDFiumExt_Init();
  const marks = Array.from({ length: pages }, (_, page) => ({ page, x: 0.05, y: 0.05, w: 0.9, h: 0.3 }));
  let last: Awaited<ReturnType<typeof redactDocument>> | null = null;
  const measured = await measureRuns(async () => {
    last = await redactDocument(pdfium, { pdf: original, marks });
    if (!last.ok) throw new Error(last.reason);
    return last.bytes.byteLength;
  });
  const result = last as Awaited<ReturnType<typeof redactDocument>> | null;
  if (!result?.ok) throw new Error("the engine gave no result");
  mkdirSync(kept, { recursive: true });
  writeFileSync(join(kept, "redacted.pdf"), result.bytes);
  writeFileSync(join(kept, "result.json"), JSON.stringify({ rects: result.rects, removedText: result.removedText, pageTexts: result.pageTexts }));
  // PDFium's WebAssembly memory grows and never shrinks: its size after the runs is its peak.
  const wasmMemoryBytes = (pdfium.pdfium as unknown as { HEAPU8: Uint8Array }).HEAPU8.byteLength;
  console.log(JSON.stringify({ pages, pad, inputBytes: original.byteLength, ...measured, wasmMemoryBytes }));
} else {
  const { checkRedaction } = await import("~/features/redaction/check-redaction.server");
  const bytes = new Uint8Array(readFileSync(join(kept, "redacted.pdf")));
  const { rects, removedText, pageTexts } = JSON.parse(readFileSync(join(kept, "result.json"), "utf8"));
  const measured = await measureRuns(async () => {
    const check = await checkRedaction(bytes, rects, removedText, pageTexts);
    if (!check.passed) throw new Error(`the check failed: ${JSON.stringify(check)}`);
    return bytes.byteLength;
  });
  console.log(JSON.stringify({ pages, pad, inputBytes: bytes.byteLength, ...measured }));
}
