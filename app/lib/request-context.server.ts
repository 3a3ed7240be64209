import { createContext, RouterContextProvider } from "react-router";
import type { Logger } from "./log.server";
import { createServiceContext, type Actor, type ClientMeta, type ServiceContext } from "./service-context.server";

/**
 * The live session behind a request. Cross-cutting code knows no domain: the accounts feature
 * fills this in (`declare module` in app/features/auth/session.server.ts), as Hono's
 * ContextVariableMap is filled in by middleware.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface to be merged, by design
export interface RequestAuth {}

/**
 * What the Worker entry hands to React Router for one request: bindings, the execution context,
 * and the per-request values the Hono middleware already computed (request id, CSP nonce, CSRF
 * token). Read it in loaders/actions with `context.get(requestContext)`.
 */
export type RequestContext = {
  env: Env;
  /** Work that may finish after the response is sent. */
  executionCtx: { waitUntil(promise: Promise<unknown>): void };
  requestId: string;
  cspNonce: string;
  csrfToken: string;
  isSecure: boolean;
  logger: Logger;
  /** Any live session, verified or still owing its second factor. */
  auth: RequestAuth | null;
  /** The fully signed-in member, or null for an anonymous visitor. */
  actor: Actor | null;
  client: ClientMeta;
};

export const requestContext = createContext<RequestContext>();

export function createRouterContext(value: RequestContext): RouterContextProvider {
  const provider = new RouterContextProvider();
  provider.set(requestContext, value);
  return provider;
}

const serviceContexts = new WeakMap<Readonly<RouterContextProvider>, ServiceContext>();

/**
 * The request's one service context, shared by the root loader and the page's loaders and
 * actions (they receive the same provider), so per-request memos such as the member's access
 * are loaded once per request, not once per loader.
 */
export function serviceContextFor(context: Readonly<RouterContextProvider>): ServiceContext {
  let ctx = serviceContexts.get(context);
  if (!ctx) {
    const { env, requestId, logger, actor, client } = context.get(requestContext);
    ctx = createServiceContext(env, { requestId, logger, actor, client });
    serviceContexts.set(context, ctx);
  }
  return ctx;
}
