import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// STATE_DIR points local D1/R2/DO state somewhere else than .wrangler/state (the e2e suite
// starts from an empty one); unset, dev, preview and wrangler share .wrangler/state.
const stateDir = process.env.STATE_DIR;
// VITE_CACHE_DIR: where the dev server keeps its optimized dependencies (node_modules/.vite unset);
// the e2e suite's fresh `npm start` uses an empty one of its own.
const cacheDir = process.env.VITE_CACHE_DIR;

export default defineConfig({
  ...(cacheDir ? { cacheDir } : {}),
  plugins: [
    cloudflare({ viteEnvironment: { name: "ssr" }, persistState: stateDir ? { path: stateDir } : true }),
    tailwindcss(),
    reactRouter(),
  ],
  environments: {
    ssr: { build: { minify: true } },
  },
  // React Router preloads route modules itself; Vite's preload helper for the few lazy imports
  // (Turnstile, the upgrade modal, the user store) would add ~0.9 KiB to every first load (G5).
  build: { modulePreload: false },
  optimizeDeps: { include: ["partysocket"] },
  resolve: { tsconfigPaths: true },
});
