import type { Config } from "@react-router/dev/config";

/**
 * BUILD_DIR lets builds live apart (e.g. two e2e runs side by side). It must be a plain folder
 * name inside the project: Vite empties the build directory, so an empty or relative value
 * such as "" or "." would wipe the project itself.
 */
function buildDirectory(): string {
  const requested = process.env.BUILD_DIR;
  if (!requested) return "build";
  if (!/^[A-Za-z0-9_-]+$/.test(requested)) {
    throw new Error(`BUILD_DIR must be a plain folder name such as "build-e2e", not "${requested}".`);
  }
  return requested;
}

export default {
  ssr: true,
  buildDirectory: buildDirectory(),
  future: {
    // Dev server: Vite's dependency scan starts from the client entry and every route module, so
    // all client dependencies are optimized before the first page is served. Without it a page
    // visited first (e.g. /ui) makes Vite re-optimize mid-load, and that page runs two copies of
    // React ("Invalid hook call") until a reload. No effect on the production build.
    unstable_optimizeDeps: true,
  },
} satisfies Config;
