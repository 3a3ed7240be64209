import { createMiddleware } from "hono/factory";
import { createLogger } from "~/lib/log.server";
import type { AppEnv } from "../types";

const REQUEST_ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

/**
 * Request id (reused from an upstream X-Request-Id when well-formed), a logger bound to it, and
 * one structured log line per request. The path is logged without its query string: tokens
 * never reach the logs.
 */
export const requestContextMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const upstream = c.req.header("x-request-id");
  const requestId = upstream && REQUEST_ID_PATTERN.test(upstream) ? upstream : crypto.randomUUID();
  const url = new URL(c.req.url);
  const logger = createLogger({ requestId });
  c.set("requestId", requestId);
  c.set("logger", logger);
  c.set("isSecure", url.protocol === "https:");
  c.set("auth", null);
  c.set("actor", null);
  const started = Date.now();
  await next();
  // A 101 socket upgrade carries immutable headers; every other response gets the id.
  if (c.res.status !== 101) c.res.headers.set("X-Request-Id", requestId);
  logger.info("request", {
    method: c.req.method,
    path: url.pathname,
    status: c.res.status,
    durationMs: Date.now() - started,
  });
});
