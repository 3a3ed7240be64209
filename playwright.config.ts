import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { CUTS_UPLOADS } from "./tests/e2e/tags";

/**
 * End-to-end tests drive the built app (`wrangler dev` serves the real Worker in workerd) in a
 * real Chromium. The server is started and stopped here; its local state starts empty.
 *   E2E_PORT   port for the preview server (4173)
 *   BUILD_DIR  which build to serve (build)
 *   STATE_DIR  where its local D1/R2/DO state lives (.wrangler/e2e-state)
 */
const port = Number(process.env.E2E_PORT ?? 4173);
const stateDir = process.env.STATE_DIR ?? ".wrangler/e2e-state";
const outputDir = process.env.E2E_OUTPUT_DIR ?? "test-results/e2e";
// Debian's headless shell first (the package chromium-headless-shell, which .ci/run installs): the
// old headless mode, without the full browser's compositor, costs about a fifth less CPU per page
// than `chromium --headless` on a 2-core machine (the page-level pass: 216 → 172 CPU seconds).
const systemChromium = ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  outputDir,
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  // Generous: a wait, not a speed assertion. Two workers share two cores with workerd and Chromium.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? "test-results/e2e-results.json" }]],
  use: {
    baseURL: `http://localhost:${port}`,
    // Recorded only when CI retries a failed test: tracing every test (retain-on-failure) costs about
    // a fifth of the browser layer's CPU (the page-level pass: 180 → 146 CPU seconds). To look at a
    // local failure: npx playwright test <file> --trace=on.
    trace: "on-first-retry",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? systemChromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "chromium", use: { ...devices["Desktop Chrome"] }, grepInvert: new RegExp(CUTS_UPLOADS) },
    // After all the others and one at a time: a cut upload makes the local runtime drop another
    // request in flight (tests/e2e/tags.ts).
    { name: "cut uploads", use: { ...devices["Desktop Chrome"] }, grep: new RegExp(CUTS_UPLOADS), dependencies: ["chromium"], workers: 1 },
  ],
  // The fresh `npm start` that tests/e2e/dev-first-visit.spec.ts visits is started by global-setup.ts
  // in the background (not here: a web server must be up before the first test runs).
  webServer: [
    {
      command: `node scripts/e2e-server.mjs --port ${port}`,
      url: `http://localhost:${port}/api/health`,
      reuseExistingServer: !process.env.CI,
      timeout: 90_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { STATE_DIR: stateDir },
    },
  ],
});
