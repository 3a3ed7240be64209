import { createMiddleware } from "hono/factory";
import { readConfig } from "~/lib/config.server";
import type { AppEnv } from "../types";

/**
 * Local runtime only (vite dev/preview, wrangler dev). When a Worker answers without reading the
 * request body (POST /logout, a CSRF refusal…), local workerd drops the pooled connection and the
 * next request sent on it fails with "fetch failed" (a bare 500 page); cancelling the body is not
 * enough, it must be read (cloudflare/workerd#1741). Production never pays for this.
 */
export const drainRequestBodyMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const request = c.req.raw;
  // A 413 refuses a body for its size: reading it anyway is exactly what it must not do (G7).
  if (!request.body || request.bodyUsed || c.res.status === 413 || readConfig(c.env).isProduction) return;
  await request.arrayBuffer().catch(() => undefined);
});
