// npm run bench: performance budgets of ../shared/QUALITY.md as counts and ratios, one table.
// Sizes are deterministic, so one measurement each. Filled so far: G5 (first-load JS per route,
// gzip; scripts a repeat visit asks for again), G6 (Worker size raw and gzip from `wrangler deploy --dry-run`), G1/G2/G4 (folder pages),
// G7 (a 1 GiB upload), G8 (a 200-page PDF preview), G10 and G3 (data rooms: scripts/bench/g10-rooms.mjs),
// G11 (search over 100,000 indexed files: scripts/bench/g11-search.mjs).
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ensureDevVars, quietWranglerEnv, run } from "./lib.mjs";
import { applyLocalMigrations } from "./ops-lib.mjs";

const KiB = 1024;
const MiB = 1024 * KiB;
const port = Number(process.env.BENCH_PORT ?? 4399);
const rows = [];
const add = (item, measure, value, budget, ok) => rows.push({ item, measure, value, budget, status: ok ? "ok" : "OVER" });
const fmt = (bytes) => (bytes >= MiB ? `${(bytes / MiB).toFixed(2)} MiB` : `${(bytes / KiB).toFixed(1)} KiB`);

await ensureDevVars();

// Build the default `build/` (this also points .wrangler/deploy/config.json at it).
const build = await run("npx", ["react-router", "build"], { stdio: "pipe", unset: ["BUILD_DIR"] });
if (build.code !== 0) {
  console.error(build.output);
  process.exit(1);
}

// ---- G6: Worker size, as wrangler would upload it -------------------------------------------
const dry = await run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", ".bench/dry-run"], { stdio: "pipe" });
const upload = dry.output.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
if (!upload) {
  console.error(dry.output);
  process.exit(1);
}
const rawBytes = Number(upload[1]) * KiB;
const gzipBytes = Number(upload[2]) * KiB;
add("G6", "Worker upload, raw", fmt(rawBytes), "≤ 10 MiB (Paid)", rawBytes <= 10 * MiB);
add("G6", "Worker upload, gzip", fmt(gzipBytes), "≤ 3 MiB (Free)", gzipBytes <= 3 * MiB);

// ---- G5: first-load JS per route ------------------------------------------------------------
const routes = [
  { path: "/", kind: "public", budget: 120 * KiB },
  { path: "/privacy-policy", kind: "public", budget: 120 * KiB },
  { path: "/no-such-page", kind: "public, 404", budget: 120 * KiB },
  { path: "/showcase", kind: "public", budget: 120 * KiB },
  // Sign-in pages are app pages in QUALITY G5 (its public list: share viewer, secret, receive
  // page, public form); they are measured so growth shows.
  { path: "/login", kind: "app, sign-in", budget: 300 * KiB },
  { path: "/register", kind: "app, sign-up", budget: 300 * KiB },
  { path: "/ui", kind: "app", budget: 300 * KiB },
];

const stateDir = ".bench/state";
rmSync(stateDir, { recursive: true, force: true });
await applyLocalMigrations({ persistTo: stateDir });
const env = { ...process.env, ...quietWranglerEnv, STATE_DIR: stateDir };
delete env.BUILD_DIR;
const server = spawn("npx", ["vite", "preview", "--port", String(port), "--strictPort"], { env, stdio: "ignore", detached: true });
const stopServer = () => {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    /* already gone */
  }
};
process.on("exit", stopServer);

async function waitForServer() {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      const response = await fetch(`http://localhost:${port}/api/health`);
      if (response.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("vite preview did not start");
}

/** Every script the document loads up front: module preloads, script tags, inline imports. */
function scriptUrls(html) {
  const urls = new Set();
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/import\s*\(?\s*"(\/assets\/[^"]+\.js)"/g)) urls.add(match[1]);
  return [...urls].filter((url) => url.startsWith("/assets/"));
}

/** The gzip size of the JavaScript a page's HTML loads up front, and how many files. */
function firstLoadJs(html) {
  const files = scriptUrls(html);
  let gzip = 0;
  for (const url of files) gzip += gzipSync(readFileSync(join("build/client", url))).length;
  return { gzip, files: files.length };
}
/** A G5 row for a page's HTML. */
function addFirstLoad(path, kind, budget, html) {
  const { gzip, files } = firstLoadJs(html);
  add("G5", `first-load JS ${path} (${kind}; ${files} files), gzip`, fmt(gzip), `≤ ${fmt(budget)}`, gzip <= budget);
}

try {
  await waitForServer();
  const publicScripts = [];
  for (const route of routes) {
    const html = await (await fetch(`http://localhost:${port}${route.path}`)).text();
    addFirstLoad(route.path, route.kind, route.budget, html);
    if (route.kind.startsWith("public")) publicScripts.push(new Set(scriptUrls(html)));
  }
  // G13: the public shell is what every public page loads before its own code (the scripts all of them share).
  const shell = [...publicScripts[0]].filter((url) => publicScripts.every((set) => set.has(url)));
  const shellGzip = shell.reduce((sum, url) => sum + gzipSync(readFileSync(join("build/client", url))).length, 0);
  add("G13", `public shell: JS every public page loads (${shell.length} files), gzip`, fmt(shellGzip), `≤ ${fmt(105 * KiB)}`, shellGzip <= 105 * KiB);
  // G5 on a repeat visit: hashed scripts carry a year's immutable caching (public/_headers), so a
  // browser that has them asks for none again (the platform's default makes it revalidate each one).
  const signIn = scriptUrls(await (await fetch(`http://localhost:${port}/login`)).text());
  let revalidated = 0;
  for (const url of signIn) {
    const cacheControl = (await fetch(`http://localhost:${port}${url}`, { method: "HEAD" })).headers.get("cache-control") ?? "";
    const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0);
    if (!(cacheControl.includes("immutable") && maxAge >= 31_536_000)) revalidated++;
  }
  add("G5", `repeat visit /login: scripts asked for again (of ${signIn.length})`, String(revalidated), "0", revalidated === 0);
  // The file manager's budgets, each in its own module (scripts/bench/*.mjs).
  const baseUrl = `http://localhost:${port}`;
  // BENCH_ONLY=g10-rooms (comma-separated) runs only those modules, for a quick look at one budget.
  const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
  for (const name of ["g1-folders", "g5-secret", "g5-forms", "g5-signatures", "g5-gallery", "g6-redaction", "g7-upload", "g8-pdf", "g8-watermark", "g8-share", "g9-batch", "g10-rooms", "g11-search"].filter((name) => !only || only.includes(name))) {
    const module = await import(`./bench/${name}.mjs`);
    await module.bench({ baseUrl, stateDir, add, addFirstLoad });
  }
} finally {
  stopServer();
}

// ---- the table ------------------------------------------------------------------------------
const headers = ["Item", "Measure", "Value", "Budget", "Status"];
const table = [headers, ...rows.map((r) => [r.item, r.measure, r.value, r.budget, r.status])];
const widths = headers.map((_, i) => Math.max(...table.map((row) => row[i].length)));
const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
console.log(line(headers));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const row of table.slice(1)) console.log(line(row));
process.exit(rows.every((r) => r.status === "ok") ? 0 : 1);
