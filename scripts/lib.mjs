// Small helpers shared by the npm scripts (they run on the project's own Node 22).
import { spawn } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, readFileSync } from "node:fs";
import { createSelfSignedIdentity, devVarsLines } from "./signing-identity.mjs";

export const quietWranglerEnv = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

/**
 * Runs a command, streaming its output (or capturing it with stdio: "pipe"); resolves with its
 * exit code and output, never rejects. `unset` removes variables from the child's environment.
 */
export function run(command, args, options = {}) {
  const env = { ...process.env, ...quietWranglerEnv, ...options.env };
  for (const name of options.unset ?? []) delete env[name];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: options.stdio ?? "inherit", env });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("error", () => resolve({ code: 1, output }));
    child.on("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Local secrets for development and tests: created from the committed example when missing. */
export async function ensureDevVars() {
  if (!existsSync(".dev.vars")) {
    copyFileSync(".dev.vars.example", ".dev.vars");
    console.log("Created .dev.vars from .dev.vars.example (local secrets for development and tests only).");
  }
  // The seal's signing identity (issue 38): a self-signed one per machine, made once.
  if (!/^SIGNING_KEY=/m.test(readFileSync(".dev.vars", "utf8"))) {
    const identity = await createSelfSignedIdentity();
    appendFileSync(".dev.vars", `\n# The local seal's key and self-signed certificate (made by npm start; never committed).\n${devVarsLines(identity)}\n`);
    console.log("Added a self-signed signing identity (SIGNING_KEY, SIGNING_CERT) to .dev.vars.");
  }
}

const chromiumPaths = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/**
 * The e2e layer needs a Chromium. On Debian as root (a fresh CI machine) it is installed from
 * Debian's packages; elsewhere the command to run is printed.
 */
export async function ensureChromium() {
  if (process.env.CHROMIUM_PATH || chromiumPaths.some((path) => existsSync(path))) return true;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log("Chromium is missing: installing Debian's chromium package (about 20 s)…");
    const update = await run("apt-get", ["update"]);
    const install = update.code === 0 ? await run("apt-get", ["install", "-y", "chromium"]) : update;
    if (install.code === 0) return true;
  }
  console.error("No Chromium found. Install one (Debian: `apt-get install -y chromium`) or set CHROMIUM_PATH.");
  return false;
}

/**
 * What the page showed when a browser test failed (a retry that passed included): Playwright's
 * error context, the page's accessibility tree at that moment, so a failure in CI says what was on
 * the screen without a trace (recording traces for every test costs about a fifth of the layer).
 */
export function failedPages(report) {
  const failed = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        for (const result of test.results ?? []) {
          if (result.status === "passed" || result.status === "skipped") continue;
          const context = (result.attachments ?? []).find((attachment) => attachment.name === "error-context" && attachment.path);
          if (context) failed.push({ title: [...titles, spec.title].join(" › "), attempt: result.retry + 1, path: context.path });
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  const out = [];
  for (const { title, attempt, path } of failed) {
    let text;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    // The page's own part only: from its main landmark (the workspace's navigation is the same on
    // every page), else from the snapshot's start. The error itself is in the reporter's output above.
    const all = text.split("\n");
    const main = all.findIndex((line) => /^\s*- main\b/.test(line));
    const snapshot = all.findIndex((line) => line.startsWith("```yaml"));
    const lines = main >= 0 ? all.slice(main) : snapshot >= 0 ? all.slice(snapshot) : all;
    out.push(`\n---- the page when "${title}" failed (attempt ${attempt}) ----\n${lines.slice(0, 120).join("\n")}${lines.length > 120 ? `\n… (${lines.length - 120} more lines in ${path})` : ""}`);
  }
  return out.join("\n");
}
