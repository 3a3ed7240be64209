import { execFileSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
import { createSelfSignedIdentity } from "./scripts/signing-identity.mjs";

const root = import.meta.dirname;
const alias = {
  "~": path.join(root, "app"),
  "~workers": path.join(root, "workers"),
  "~durable-objects": path.join(root, "durable-objects"),
  "~tests": path.join(root, "tests"),
};

/**
 * The redaction engine (issue 39, ADR 032) is a second Worker the app reaches through its service
 * binding REDACTOR. Miniflare runs an auxiliary Worker from bundled JavaScript, so it is bundled
 * here by wrangler (about 3 s), the way `wrangler deploy` would.
 */
function bundleRedactor() {
  const outdir = path.join(root, ".wrangler", "redactor-test");
  rmSync(outdir, { recursive: true, force: true });
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir, "-c", "workers/redactor/wrangler.toml"], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true" },
  });
  const wasm = readdirSync(outdir).filter((name) => name.endsWith(".wasm"));
  return {
    modulesRoot: outdir,
    modules: [
      { type: "ESModule" as const, path: path.join(outdir, "index.js") },
      ...wasm.map((name) => ({ type: "CompiledWasm" as const, path: path.join(outdir, name) })),
    ],
  };
}

/** Unit files of browser-side modules that need a DOM (window, localStorage, document) besides the components: they run in happy-dom. */
const DOM_UNIT_FILES = ["tests/unit/access/user-store.test.ts", "tests/unit/auth/auth-store.test.ts", "tests/unit/galleries/gallery-page-setup.test.ts", "tests/unit/lib/http.test.ts"];

export default defineConfig({
  test: {
    // Structured request logs are noise when a test passes, and evidence when it fails.
    silent: "passed-only",
    projects: [
      {
        // Units of pure logic, in Node: no DOM to build for each file (a happy-dom environment per
        // file cost 1–3 s of CPU each, 40 % of the unit layer's time).
        resolve: { alias },
        test: {
          name: "unit",
          environment: "node",
          // One module graph for every file (35 → 12 CPU s). The unit projects run as a group of
          // their own before the workerd project: in one group with it, a whole run never ended.
          isolate: false,
          sequence: { groupOrder: 0 },
          include: ["tests/unit/**/*.test.ts", "app/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...DOM_UNIT_FILES],
        },
      },
      {
        // Components (*.test.tsx) and the browser-side modules that need a DOM, in happy-dom.
        resolve: { alias },
        test: {
          name: "unit-dom",
          environment: "happy-dom",
          // One happy-dom per worker, a VM context per file (40 → 13 CPU s).
          pool: "vmThreads",
          sequence: { groupOrder: 0 },
          include: ["tests/unit/**/*.test.tsx", "app/**/*.test.tsx", ...DOM_UNIT_FILES],
          setupFiles: ["tests/setup/unit.ts"],
        },
      },
      {
        // Integration inside workerd, through the real Worker entry and real bindings (local D1/R2/DO/Queues).
        resolve: {
          alias: {
            ...alias,
            // The React Router build does not exist in this build; SSR pages are covered by e2e.
            "virtual:react-router/server-build": path.join(root, "tests/setup/server-build-stub.ts"),
          },
        },
        plugins: [
          cloudflareTest(async () => ({
            main: "./workers/app.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              workers: [
                {
                  name: "strongroom-redactor",
                  ...bundleRedactor(),
                  compatibilityDate: "2026-08-01",
                },
              ],
              // Nothing leaves the machine in tests: an outbound request the code under test did not
              // get a fake fetcher for (a queued webhook delivery, say) is answered here.
              outboundService: () => new Response("answered by the test suite's outbound stub", { status: 200 }),
              bindings: {
                SESSION_SECRET: "test-session-secret-0123456789abcdefghijklmnop",
                // Members are made by the thousand here: the test cost, never production's (config refuses it there).
                PASSWORD_HASH_COST: "fast",
                TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
                // The seal's identity for this run (issue 38): self-signed, made fresh, never stored.
                ...(await createSelfSignedIdentity({ commonName: "Strongroom test seal" }).then(({ key, cert }) => ({ SIGNING_KEY: key, SIGNING_CERT: cert }))),
              },
            },
          })),
        ],
        test: {
          name: "workers",
          include: ["tests/integration/**/*.test.ts"],
          sequence: { groupOrder: 1 },
          // One workerd for every file instead of one per file (64 s → 23 s on 2 cores): the files
          // then run one after another and share one D1/R2, so a test scopes what it checks to its
          // own rows and puts back what it changes globally (tiers). Checked in shuffled orders.
          isolate: false,
          // Waits, not speed limits (speed is `npm run bench`): vitest's 5 s/10 s defaults failed a
          // setup hook once when the 2-core machine was also running the browser suite, and 20 s
          // failed the 9 MB sealed upload of secret-requests (6 s alone) on a machine running about
          // twice as slow as usual beside the browser layer (issue 41's last stop).
          testTimeout: 40_000,
          hookTimeout: 60_000,
          setupFiles: ["tests/setup/workers.ts"],
        },
      },
    ],
  },
});
