import type { AuthEventType } from "~/db/schema";
import type { ServiceContext } from "~/lib/service-context.server";
import { insertAuthEvent, listAuthEvents } from "./auth.queries.server";
import type { RequestMeta } from "./session.server";

/** Records one account event for the member's activity dashboard. Never includes a secret. */
export async function recordAuthEvent(
  ctx: ServiceContext,
  input: { userId: string; type: AuthEventType; meta: RequestMeta; detail?: string },
): Promise<void> {
  await insertAuthEvent(ctx.db, {
    userId: input.userId,
    type: input.type,
    ipAddress: input.meta.ipAddress,
    userAgent: input.meta.userAgent?.slice(0, 400) ?? null,
    detail: input.detail ?? null,
    createdAt: ctx.now(),
  });
}

export const ACTIVITY_PAGE_SIZE = 100;

export async function listOwnActivity(ctx: ServiceContext, userId: string) {
  return listAuthEvents(ctx.db, userId, ACTIVITY_PAGE_SIZE);
}

/** A short device description from a user agent ("Chrome on Linux"), for sessions and alerts. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "an unknown device";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /OPR\//.test(userAgent)
      ? "Opera"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Chrome\/|Chromium\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : /curl|node|undici|wget|python/i.test(userAgent)
              ? "a script"
              : "a browser";
  const os = /Windows/.test(userAgent)
    ? "Windows"
    : /Android/.test(userAgent)
      ? "Android"
      : /iPhone|iPad|iOS/.test(userAgent)
        ? "iOS"
        : /Mac OS X|Macintosh/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  return os ? `${browser} on ${os}` : browser;
}
