// Starts the built app for the e2e suite on a fresh local state: migrations, then the build under
// `wrangler dev` in test mode (the vars below), which mounts the test-only routes under /__test.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureDevVars, quietWranglerEnv } from "./lib.mjs";
import { applyLocalMigrationsOrExit } from "./ops-lib.mjs";

/**
 * Test mode. `wrangler dev` reads its vars from the build's own `server/.dev.vars` (written by the
 * build from `.dev.vars`), not from this process, so they are set there. A production build
 * (`npm run deploy`) never has them: .dev.vars is not uploaded, and the configuration refuses
 * both in production.
 */
const TEST_MODE_VARS = { TEST_HOOKS: "on", PASSWORD_HASH_COST: "fast" };

const portIndex = process.argv.indexOf("--port");
const port = portIndex > 0 ? process.argv[portIndex + 1] : "4173";
const stateDir = process.env.STATE_DIR ?? ".wrangler/e2e-state";
const env = { ...process.env, ...quietWranglerEnv, STATE_DIR: stateDir };

await ensureDevVars();
const buildDir = process.env.BUILD_DIR ?? "build";
const buildVars = join(buildDir, "server", ".dev.vars");
if (!existsSync(buildVars)) {
  console.error(`${buildVars} is missing: build first (npm run build).`);
  process.exit(1);
}
const kept = readFileSync(buildVars, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "" && !Object.keys(TEST_MODE_VARS).some((name) => line.startsWith(`${name}=`)));
writeFileSync(buildVars, [...kept, ...Object.entries(TEST_MODE_VARS).map(([name, value]) => `${name}='${value}'`)].join("\n") + "\n");

rmSync(stateDir, { recursive: true, force: true });
await applyLocalMigrationsOrExit({ persistTo: stateDir });

// The build served by workerd itself (`wrangler dev` on the build's own configurations, the app and
// the redaction engine), not through `vite preview`: its proxy (Node's fetch into Miniflare) failed
// the other worker's request in flight whenever a test aborted an upload on purpose ("fetch
// failed"), the cause of every browser test that needed CI's retry (docs/testing.md).
const server = spawn(
  "npx",
  [
    "wrangler", "dev",
    "-c", join(buildDir, "server", "wrangler.json"),
    "-c", join(buildDir, "redactor", "wrangler.json"),
    "--port", port, "--ip", "localhost",
    "--persist-to", stateDir,
    "--show-interactive-dev-session=false",
    "--log-level", "warn",
  ],
  { env, stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
