import type { FullConfig } from "@playwright/test";

/**
 * The first request to each page of a fresh `vite preview` loads its route modules into workerd,
 * which on a 2-core CI machine can take seconds. Warm the pages up once, before any test times them.
 */
export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) return;
  for (const path of ["/", "/privacy-policy", "/ui", "/no-such-page"]) {
    await fetch(new URL(path, baseURL)).then((response) => response.text());
  }
}
