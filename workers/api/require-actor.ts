import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { AppError } from "~/lib/errors";
import { clientMetaOf, createServiceContext, type Actor, type ServiceContext } from "~/lib/service-context.server";
import type { AppEnv } from "../types";

/**
 * The fully signed-in member of an API request, or a 401 JSON refusal. A session still owing its
 * second factor is not a member yet (the session middleware leaves `actor` null for it).
 */
export function requireApiActor(c: Context<AppEnv>): Actor {
  const actor = c.get("actor");
  if (actor) return actor;
  if (c.get("auth")) throw new AppError("UNAUTHENTICATED", "Enter your verification code to finish signing in.");
  throw new AppError("UNAUTHENTICATED");
}

/** The service context of an API request, carrying its actor (if any), request id and logger. */
export function apiServiceContext(c: Context<AppEnv>): ServiceContext {
  return createServiceContext(c.env, { requestId: c.get("requestId"), logger: c.get("logger"), actor: c.get("actor"), client: clientMetaOf(c.req.raw) });
}

/** Per-member answers (and refusals) must never be stored by a shared or browser cache. */
export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", "no-store");
});

/** The JSON body of a request, or a 400 that says so (never a 500 on malformed input). */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new AppError("VALIDATION_ERROR", "The request body must be JSON.");
  }
}

/** A CSV attachment (the name is made of letters, digits and dashes only). */
export function csvHeaders(filename: string): HeadersInit {
  return { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "X-Content-Type-Options": "nosniff" };
}
