// The e2e suite's "fresh npm start": exactly `npm start` (scripts/start.mjs: migrations, the demo
// member, the dev server, the demo's sample content) on an empty local state and an empty Vite
// dependency cache of its own, so tests/e2e/dev-first-visit.spec.ts sees what a newcomer sees.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";

const portIndex = process.argv.indexOf("--port");
const port = portIndex > 0 ? process.argv[portIndex + 1] : "5190";
const stateDir = process.env.STATE_DIR ?? ".wrangler/e2e-dev-state";
const cacheDir = process.env.VITE_CACHE_DIR ?? "node_modules/.vite-e2e-dev";
rmSync(stateDir, { recursive: true, force: true });
rmSync(cacheDir, { recursive: true, force: true });

const server = spawn("node", ["scripts/start.mjs"], {
  stdio: "inherit",
  env: { ...process.env, PORT: port, STATE_DIR: stateDir, VITE_CACHE_DIR: cacheDir },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
