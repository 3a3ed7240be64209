import { printLabCall, printLabPicture } from "./api/print-orders";
import { referralLinks } from "./referrals";
import { stripeWebhook } from "./api/billing";
import { Hono, type Context } from "hono";
import { createRequestHandler } from "react-router";
import { readConfig } from "~/lib/config.server";
import { createRouterContext } from "~/lib/request-context.server";
import { clientMetaOf } from "~/lib/service-context.server";
import { api } from "./api";
import { auth } from "./auth";
import { handleScheduled } from "./cron";
import { handleError } from "./error-handler";
import { folder } from "./folder";
import { share } from "./share";
import { publicGallery } from "./public-gallery";
import { roomBatch } from "./batch";
import { csrfMiddleware } from "./middleware/csrf";
import { d1StatsMiddleware } from "./middleware/d1-stats";
import { drainRequestBodyMiddleware } from "./middleware/drain-request-body";
import { pageFormBodyMiddleware } from "./middleware/page-form-body";
import { requestContextMiddleware } from "./middleware/request-context";
import { securityHeadersMiddleware } from "./middleware/security-headers";
import { sessionMiddleware } from "./middleware/session";
import { handleQueue } from "./queue";
import { broadcasting } from "./broadcasting";
import { handleRealtime } from "./realtime";
import { testHooks } from "./test-hooks";
import type { AppEnv } from "./types";

export { AttemptLimiter } from "../durable-objects/attempt-limiter";
export { DataRoom } from "../durable-objects/data-room";
export { MemberChannel } from "../durable-objects/member-channel";
export { WorkflowRunner } from "~/features/workflows/workflow-runner.server";

// Created once per isolate; no request state lives at module scope.
const handleRouterRequest = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

/** Every page, and every form post to a page, is React Router's. */
function renderApp(c: Context<AppEnv>): Promise<Response> {
  return handleRouterRequest(
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
      client: clientMetaOf(c.req.raw),
    }),
  );
}

/** A page, behind the one gate every page action passes (a readable form body, or a 4xx). */
async function renderPage(c: Context<AppEnv>): Promise<Response> {
  let response: Response | undefined;
  await pageFormBodyMiddleware(c, async () => {
    response = await renderApp(c);
  });
  return response!;
}

export const app = new Hono<AppEnv>()
  .use(requestContextMiddleware)
  .use(d1StatsMiddleware)
  .use(drainRequestBodyMiddleware)
  .use(securityHeadersMiddleware)
  // Stripe's events and the print lab's calls carry no cookie: their signature is the proof (before CSRF and sessions).
  .post("/api/billing/webhook", stripeWebhook)
  .post("/api/print-orders/lab", printLabCall)
  // The lab downloads ordered pictures by their signed addresses (no cookie, no session).
  .get("/api/print-orders/:id/pictures/:fileId", printLabPicture)
  .use(csrfMiddleware)
  .use(sessionMiddleware)
  .route("/api", api)
  .route("/", auth)
  .route("/folder", folder)
  .route("/dataroom", roomBatch)
  .route("/s", share)
  .route("/ref", referralLinks)
  .route("/public-gallery", publicGallery)
  .route("/broadcasting", broadcasting)
  .all("/parties/*", handleRealtime)
  // Test-only routes (TEST_HOOKS=on, the e2e server); anywhere else these paths are ordinary pages (404).
  .use("/__test/*", (c, next) => (readConfig(c.env).testHooks ? next() : renderPage(c)))
  .route("/__test", testHooks)
  // Every other method and path belongs to React Router; a page action gets only a readable form.
  .all("*", renderPage);

app.onError(handleError);

export default {
  fetch: app.fetch,
  // The runtime's three-argument signatures; these handlers finish their work before returning.
  queue: (batch, env, _ctx) => handleQueue(batch, env),
  scheduled: (controller, env, _ctx) => handleScheduled(controller, env),
} satisfies ExportedHandler<Env, unknown>;
