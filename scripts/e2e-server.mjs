// Starts the built app for the e2e suite on a fresh local state: migrations, then `vite preview`.
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { ensureDevVars, quietWranglerEnv } from "./lib.mjs";

const portIndex = process.argv.indexOf("--port");
const port = portIndex > 0 ? process.argv[portIndex + 1] : "4173";
const stateDir = process.env.STATE_DIR ?? ".wrangler/e2e-state";
const env = { ...process.env, ...quietWranglerEnv, STATE_DIR: stateDir };

ensureDevVars();
rmSync(stateDir, { recursive: true, force: true });
const migrate = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
  env,
  stdio: "inherit",
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const server = spawn("npx", ["vite", "preview", "--port", port, "--strictPort"], { env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
