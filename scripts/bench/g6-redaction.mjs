// Redaction (issue 39): G6 for the engine Worker (workers/redactor/, PDFium as WebAssembly, ADR
// 032), whose size the app's own Worker could not carry; and the time and memory to redact a
// 50-page PDF, one mark on every page: the engine's three passes and the app's check, each in the
// Worker it runs in, measured in Node 22 with the app's code (scripts/bench/redact-measure.ts).
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

  // A redaction is one request: 5 s for a usual document; the 5 MB one has five times the data.
  for (const [pad, kind, limitMs] of [
    [0, "text pages", 5_000],
    [20_000, "text and drawings, 1 MB", 5_000],
    [100_000, "text and drawings, 5 MB", 10_000],
  ]) {
    const engine = await measure(pad, "engine", []);
    // The check runs with V8's heap capped at 64 MB: if it needed more, it would fail here.
    const check = await measure(pad, "check", ["--max-old-space-size=64"]);
    const ms = engine.medianMs + check.medianMs;
    add("Redact", `redacting a 50-page PDF (${kind}), a mark on every page: the engine, then the app's check; median of 3, Node 22`, `${ms.toFixed(0)} ms`, `≤ ${limitMs.toLocaleString("en")} ms (one request)`, ms <= limitMs);
    // Heap growth, not RSS: RSS counts PDFium's memory again as it is touched.
    const enginePeak = engine.peakHeapBytes + engine.wasmMemoryBytes + engine.inputBytes + engine.outputBytes;
    add("Redact", `engine Worker's memory redacting it (${kind}): heap growth, PDFium's memory, the PDF in and out`, `${(enginePeak / MB).toFixed(1)} MB`, "≤ 64 MB (half the Worker's 128 MB)", enginePeak <= 64 * MB);
    const checkPeak = Math.max(check.peakHeapBytes, check.peakRssBytes) + check.inputBytes;
    add("Redact", `app Worker's memory checking it (${kind}), V8 heap capped at 64 MB: heap or RSS growth and the PDF`, `${(checkPeak / MB).toFixed(1)} MB`, "≤ 64 MB (half the Worker's 128 MB)", checkPeak <= 64 * MB);
  }
}

async function measure(pad, part, nodeFlags) {
  const measured = await run("npx", ["tsx", "--expose-gc", ...nodeFlags, "scripts/bench/redact-measure.ts", "50", String(pad), part], { stdio: "pipe" });
  const line = measured.output.trim().split("\n").at(-1) ?? "";
  if (measured.code !== 0 || !line.startsWith("{")) throw new Error(`g6-redaction: the ${part} measurement failed: ${measured.output.slice(-500)}`);
  return JSON.parse(line);
}
