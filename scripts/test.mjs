// npm test: every layer, then ONE closing line "N passed, N failed, N skipped" adding them up.
//   1. unit + workerd integration (vitest projects), beside
//   2. build, then 3. end to end (Playwright, Chromium)
// vitest runs its files one after another (one workerd: docs/testing.md), so on a 2-core machine
// it leaves a core idle; the build and the browser layer use it. vitest's output goes to
// test-results/vitest.log and is printed when it ends (its failures again at the very end).
// Pass --no-e2e to skip the browser layer while iterating; --one-at-a-time runs the layers in turn.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { ensureChromium, ensureDevVars, failedPages, run } from "./lib.mjs";

const skipE2e = process.argv.includes("--no-e2e");
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
/** Seconds per layer, printed on one line before the closing line so a slow layer shows at once. */
const layers = [];
const suiteStarted = performance.now();
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
await ensureDevVars();

const oneAtATime = process.argv.includes("--one-at-a-time");
/** vitest beside the build and the browser layer, its output to a file (docs/testing.md). */
const beside = !oneAtATime && !skipE2e;

// 1. vitest: unit (happy-dom) and integration (workerd)
rmSync("test-results/vitest.json", { force: true });
const vitestArgs = ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest.json"];
const vitestRun = timed("vitest (unit + workerd)", async () => {
  if (!beside) return run("npx", vitestArgs);
  const result = await run("npx", vitestArgs, { stdio: ["ignore", "pipe", "pipe"], env: { FORCE_COLOR: "0", NO_COLOR: "1" } });
  writeFileSync("test-results/vitest.log", result.output);
  console.log(`\n---- vitest (ran beside the build and the browser layer; full output in test-results/vitest.log) ----\n${result.output.split("\n").slice(-12).join("\n")}`);
  return result;
});
if (oneAtATime) await vitestRun;
const browserLayer = runBrowserLayer();
const vitest = await vitestRun;
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

if (beside && vitest.code !== 0) problems.push("vitest failed: its output is in test-results/vitest.log (the failures are printed below)");
await browserLayer;
if (beside && vitest.code !== 0) {
  const failures = vitest.output.split("\n").filter((line) => /FAIL|✗|×|AssertionError|Error:/.test(line));
  console.log(`\n---- vitest failures ----\n${failures.slice(0, 60).join("\n")}`);
}

// 2 + 3. build, then drive the built app in Chromium
async function runBrowserLayer() {
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
        const pages = failedPages(report);
        if (pages) console.log(pages);
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
}

for (const problem of problems) console.log(`note: ${problem}`);
console.log(`time per layer: ${layers.join(", ")}; ${((performance.now() - suiteStarted) / 1000).toFixed(0)} s in all${beside ? " (vitest beside the build and the browser layer)" : ""}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
