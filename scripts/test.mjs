// npm test: every layer, then ONE closing line "N passed, N failed, N skipped" adding them up.
//   1. unit + workerd integration (vitest projects)    2. build    3. end to end (Playwright, Chromium)
// Pass --no-e2e to skip the browser layer while iterating.
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { ensureChromium, ensureDevVars, run } from "./lib.mjs";

const skipE2e = process.argv.includes("--no-e2e");
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
/** Seconds per layer, printed on one line before the closing line so a slow layer shows at once. */
const layers = [];
async function timed(name, step) {
  const started = performance.now();
  try {
    return await step();
  } finally {
    layers.push(`${name} ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
}
mkdirSync("test-results", { recursive: true });

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

const node = await run("node", ["scripts/check-node.mjs"]);
if (node.code !== 0) process.exit(node.code);
ensureDevVars();

// 1. vitest: unit (happy-dom) and integration (workerd)
rmSync("test-results/vitest.json", { force: true });
const vitest = await timed("vitest (unit + workerd)", () => run("npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=test-results/vitest.json",
]));
const vitestReport = readJson("test-results/vitest.json");
if (vitestReport) {
  totals.passed += vitestReport.numPassedTests;
  totals.failed += vitestReport.numFailedTests;
  totals.skipped += vitestReport.numPendingTests + vitestReport.numTodoTests;
  if (vitest.code !== 0 && vitestReport.numFailedTests === 0) {
    totals.failed += 1;
    problems.push("vitest exited with an error outside any test");
  }
} else {
  totals.failed += 1;
  problems.push("vitest produced no report");
}

// 2 + 3. build, then drive the built app in Chromium
if (!skipE2e && !(await ensureChromium())) {
  totals.failed += 1;
  problems.push("no Chromium for the end-to-end layer");
} else if (!skipE2e) {
  const build = await timed("build", () => run("npx", ["react-router", "build"]));
  if (build.code !== 0) {
    totals.failed += 1;
    problems.push("the production build failed");
  } else {
    rmSync("test-results/e2e-results.json", { force: true });
    const e2e = await timed("end to end (Playwright)", () => run("npx", ["playwright", "test"]));
    const report = readJson("test-results/e2e-results.json");
    if (report?.stats) {
      totals.passed += report.stats.expected + report.stats.flaky;
      totals.failed += report.stats.unexpected;
      totals.skipped += report.stats.skipped;
      if (report.stats.flaky > 0) problems.push(`${report.stats.flaky} end-to-end test(s) passed only on retry`);
      if (e2e.code !== 0 && report.stats.unexpected === 0) {
        totals.failed += 1;
        problems.push("Playwright exited with an error outside any test");
      }
    } else {
      totals.failed += 1;
      problems.push("Playwright produced no report");
    }
  }
}

for (const problem of problems) console.log(`note: ${problem}`);
console.log(`time per layer: ${layers.join(", ")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
