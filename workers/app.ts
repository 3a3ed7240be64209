import { Hono } from "hono";
import { createRequestHandler } from "react-router";
import { createRouterContext } from "~/lib/request-context.server";
import { api } from "./api";
import { auth } from "./auth";
import { handleScheduled } from "./cron";
import { handleError } from "./error-handler";
import { folder } from "./folder";
import { csrfMiddleware } from "./middleware/csrf";
import { d1StatsMiddleware } from "./middleware/d1-stats";
import { drainRequestBodyMiddleware } from "./middleware/drain-request-body";
import { requestContextMiddleware } from "./middleware/request-context";
import { securityHeadersMiddleware } from "./middleware/security-headers";
import { sessionMiddleware } from "./middleware/session";
import { handleQueue } from "./queue";
import { handleRealtime } from "./realtime";
import type { AppEnv } from "./types";

export { AttemptLimiter } from "../durable-objects/attempt-limiter";
export { DataRoom } from "../durable-objects/data-room";

// Created once per isolate; no request state lives at module scope.
const handleRouterRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

export const app = new Hono<AppEnv>()
  .use(requestContextMiddleware)
  .use(d1StatsMiddleware)
  .use(drainRequestBodyMiddleware)
  .use(securityHeadersMiddleware)
  .use(csrfMiddleware)
  .use(sessionMiddleware)
  .route("/api", api)
  .route("/", auth)
  .route("/folder", folder)
  .all("/parties/*", handleRealtime)
  // Every other method and path belongs to React Router (forms post here too).
  .all("*", (c) =>
    handleRouterRequest(
      c.req.raw,
      createRouterContext({
        env: c.env,
        executionCtx: c.executionCtx,
        requestId: c.get("requestId"),
        cspNonce: c.get("secureHeadersNonce") ?? "",
        csrfToken: c.get("csrfToken"),
        isSecure: c.get("isSecure"),
        logger: c.get("logger"),
        auth: c.get("auth"),
        actor: c.get("actor"),
      }),
    ),
  );

app.onError(handleError);

export default {
  fetch: app.fetch,
  // The runtime's three-argument signatures; these handlers finish their work before returning.
  queue: (batch, env, _ctx) => handleQueue(batch, env),
  scheduled: (controller, env, _ctx) => handleScheduled(controller, env),
} satisfies ExportedHandler<Env, unknown>;
