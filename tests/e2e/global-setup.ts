import { spawn } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";
import type { FullConfig } from "@playwright/test";

/** Where tests/e2e/dev-first-visit.spec.ts finds the fresh `npm start` this setup launches. */
export const DEV_PORT = Number(process.env.E2E_DEV_PORT ?? 5190);

async function isUp(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/**
 * 1. The first request to each page of a fresh e2e server loads its route modules into workerd,
 *    which on a 2-core CI machine can take seconds. Warm the pages up once, before any test times them.
 * 2. The fresh `npm start` of the first-visit check (scripts/e2e-dev-server.mjs: empty state, empty
 *    Vite cache) boots in the background while the other tests run (it takes ~20 s; as a blocking
 *    web server it delayed every test). The check waits for it; teardown stops it.
 */
export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL;
  if (baseURL) {
    for (const path of ["/", "/privacy-policy", "/ui", "/no-such-page"]) {
      await fetch(new URL(path, baseURL)).then((response) => response.text());
    }
  }
  if (await isUp(`http://localhost:${DEV_PORT}/api/health`)) return;
  mkdirSync("test-results", { recursive: true });
  const log = openSync("test-results/e2e-dev-server.log", "w");
  const server = spawn("node", ["scripts/e2e-dev-server.mjs", "--port", String(DEV_PORT)], { stdio: ["ignore", log, log], detached: true });
  server.unref();
  return async () => {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
}
