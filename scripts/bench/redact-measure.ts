// Redacting a 50-page PDF (issue 39), measured in Node 22 with the app's own code (run by
// `npx tsx`): the engine's three passes (workers/redactor/redact-document.ts, PDFium as
// WebAssembly) and the app's check of the result (check-redaction.server.ts), one mark on every
// page. Prints the median time of three runs and the largest heap and RSS growth as JSON. workerd
// does not report its memory; Node's figures show how far a redaction is from 128 MB.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { init } from "@embedpdf/pdfium";
import { checkRedaction } from "~/features/redaction/check-redaction.server";
import { redactDocument } from "../../workers/redactor/redact-document";
import { measureRuns } from "./measure-runs";
import { makePdf } from "./pdf-fixture.mjs";

const pages = Number(process.argv[2] ?? 50);
const pad = Number(process.argv[3] ?? 0);
const original = new Uint8Array(makePdf({ pages, padBytesPerPage: pad, tree: "balanced", text: "Contact ada.lovelace at example.com about the purchase price" }));
const wasm = readFileSync(createRequire(import.meta.url).resolve("@embedpdf/pdfium/pdfium.wasm"));
const pdfium = await init({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) });
pdfium.PDFiumExt_Init();
const marks = Array.from({ length: pages }, (_, page) => ({ page, x: 0.05, y: 0.05, w: 0.9, h: 0.3 }));

async function once() {
  const result = await redactDocument(pdfium, { pdf: original, marks });
  if (!result.ok) throw new Error(result.reason);
  const check = await checkRedaction(result.bytes, result.rects, result.removedText, result.pageTexts);
  if (!check.passed) throw new Error(`the check failed: ${JSON.stringify(check)}`);
  return result.bytes.byteLength;
}

console.log(JSON.stringify({ pages, pad, inputBytes: original.byteLength, ...(await measureRuns(once)) }));
