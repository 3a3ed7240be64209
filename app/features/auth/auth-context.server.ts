import type { ServiceContext } from "~/lib/service-context.server";
import { readConfig } from "~/lib/config.server";
import type { RequestMeta } from "./session.server";
import { formatUtc } from "~/lib/format-utc";

/** What account use cases need beyond the service context: who is calling from where. */
export type AuthCall = { ctx: ServiceContext; meta: RequestMeta; origin: string };

export function requestMeta(request: Request): RequestMeta {
  return {
    ipAddress: request.headers.get("cf-connecting-ip") ?? request.headers.get("x-real-ip") ?? null,
    userAgent: request.headers.get("user-agent"),
  };
}

/** The origin links in e-mails point to: APP_URL when configured, else the request's own. */
export function publicOrigin(env: Env, request: Request): string {
  const configured = readConfig(env).APP_URL;
  return configured ? new URL(configured).origin : new URL(request.url).origin;
}

/** The IP key for attempt counters; requests without one (local runs) share one bucket. */
export function ipKey(meta: RequestMeta): string {
  return meta.ipAddress ?? "unknown";
}

export function formatWhen(date: Date): string {
  return formatUtc(date);
}
