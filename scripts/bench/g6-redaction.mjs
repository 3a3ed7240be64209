// Redaction (issue 39): G6 for the engine Worker (workers/redactor/, PDFium as WebAssembly, ADR
// 032), whose size the app's own Worker could not carry; and the time and memory to redact a
// 50-page PDF, one mark on every page: the engine's three passes and the app's check, measured in
// Node 22 with the app's code (scripts/bench/redact-measure.ts).
import { join } from "node:path";
import { run } from "../lib.mjs";

const KiB = 1024;
const MiB = 1024 * KiB;
const MB = 1024 * 1024;

export async function bench({ add }) {
  const dry = await run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", join(process.cwd(), ".bench", "redactor-dry-run"), "-c", "workers/redactor/wrangler.toml"], { stdio: "pipe" });
  const upload = dry.output.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
  if (!upload) throw new Error(`g6-redaction: wrangler's dry run printed no size: ${dry.output.slice(-300)}`);
  const gzip = Number(upload[2]) * KiB;
  add("G6", "redaction engine Worker upload (PDFium + @libpdf/core), gzip", `${(gzip / MiB).toFixed(2)} MiB`, "≤ 3 MiB (Free)", gzip <= 3 * MiB);

  for (const [pad, kind] of [
    [0, "text pages"],
    [20_000, "text and drawings, 1 MB"],
  ]) {
    const measured = await run("npx", ["tsx", "--expose-gc", "scripts/bench/redact-measure.ts", "50", String(pad)], { stdio: "pipe" });
    const line = measured.output.trim().split("\n").at(-1) ?? "";
    if (measured.code !== 0 || !line.startsWith("{")) throw new Error(`g6-redaction: the measurement failed: ${measured.output.slice(-500)}`);
    const result = JSON.parse(line);
    add("Redact", `redacting a 50-page PDF (${kind}), a mark on every page: engine + the app's check; median of 3, Node 22`, `${result.medianMs.toFixed(0)} ms`, "≤ 5,000 ms (one request)", result.medianMs <= 5_000);
    const peak = Math.max(result.peakHeapBytes, result.peakRssBytes) + result.inputBytes + result.outputBytes;
    add("Redact", `memory while redacting it (${kind}): the larger of heap and RSS growth plus the PDF in and out`, `${(peak / MB).toFixed(1)} MB`, "≤ 64 MB (half the Worker's 128 MB)", peak <= 64 * MB);
  }
}
