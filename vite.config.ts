import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import type { Server } from "node:http";
import { defineConfig, type Plugin } from "vite";

// STATE_DIR points local D1/R2/DO state somewhere else than .wrangler/state (the e2e suite
// starts from an empty one); unset, dev, preview and wrangler share .wrangler/state.
const stateDir = process.env.STATE_DIR;
// VITE_CACHE_DIR: where the dev server keeps its optimized dependencies (node_modules/.vite unset);
// the e2e suite's fresh `npm start` uses an empty one of its own.
const cacheDir = process.env.VITE_CACHE_DIR;

/**
 * Node's HTTP server closes an idle keep-alive connection after 5 s. A client that sends its next
 * request on that connection at the same moment gets ECONNRESET (seen in the e2e suite as a failed
 * test under load). Local servers keep idle connections for 2 minutes instead, longer than any
 * client here keeps them, so the client is always the side that closes.
 */
function longKeepAlive(): Plugin {
  const extend = (server: Server | unknown) => {
    if (!server || typeof server !== "object" || !("keepAliveTimeout" in server)) return;
    const http = server as Server;
    http.keepAliveTimeout = 120_000;
    http.headersTimeout = 125_000;
  };
  return {
    name: "strongroom:long-keep-alive",
    configureServer: (server) => extend(server.httpServer),
    configurePreviewServer: (server) => extend(server.httpServer),
  };
}

export default defineConfig({
  ...(cacheDir ? { cacheDir } : {}),
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      persistState: stateDir ? { path: stateDir } : true,
      // The redaction engine (issue 39, ADR 032), served beside the app under its own name.
      auxiliaryWorkers: [{ configPath: "./workers/redactor/wrangler.toml" }],
    }),
    tailwindcss(),
    reactRouter(),
    longKeepAlive(),
  ],
  environments: {
    // @libpdf/core (the search job) and exifr (the derivatives job) are imported lazily: listed so
    // the dev server bundles them at start instead of discovering them in the first upload's job and
    // reloading the Worker mid-request.
    ssr: { build: { minify: true }, optimizeDeps: { include: ["@libpdf/core", "exifr"] } },
    // The redaction engine's build goes beside the app's (deployed first: `npm run deploy`).
    // Its libraries are bundled and its modules transformed when the dev server starts, not
    // discovered on the first redaction (which would reload the dev server under the requests in
    // flight; npm start redacts the demo's term sheet while a newcomer may be looking around).
    strongroom_redactor: {
      build: { minify: true, outDir: "build/redactor" },
      optimizeDeps: { include: ["@embedpdf/pdfium", "@libpdf/core"] },
      dev: { warmup: ["./workers/redactor/index.ts"] },
    },
  },
  // React Router preloads route modules itself; Vite's preload helper for the few lazy imports
  // (Turnstile, the upgrade modal, the user store) would add ~0.9 KiB to every first load (G5).
  build: { modulePreload: false },
  // Bundled when the dev server starts, not discovered on a gallery page (a late discovery reloads the page).
  optimizeDeps: { include: ["partysocket", "media-chrome/media-controller", "media-chrome/media-control-bar", "media-chrome/media-play-button", "media-chrome/media-time-range", "media-chrome/media-mute-button", "media-chrome/media-fullscreen-button"] },
  resolve: { tsconfigPaths: true },
});
