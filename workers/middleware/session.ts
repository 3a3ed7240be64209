import { createMiddleware } from "hono/factory";
import { authenticateSessionToken, readSessionToken, serializeBlankSessionCookie } from "~/features/auth/session.server";
import { createServiceContext } from "~/lib/service-context.server";
import type { AppEnv } from "../types";

/**
 * Reads the session cookie and validates it against D1 (one query; a write only when the idle
 * expiry slides or last-seen is due). `auth` holds any live session, verified or not; `actor`
 * is set only for a fully verified one, so services and guards never see a half-signed-in
 * member. A dead cookie is cleared on the way out of a page navigation only: a fetch that was
 * already in flight with the old token when the session rotated (second factor, password
 * confirmation) must not wipe the new cookie that arrived meanwhile.
 */
export const sessionMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const token = readSessionToken(c.req.header("cookie") ?? null, c.get("isSecure"));
  const auth = token
    ? await authenticateSessionToken(createServiceContext(c.env, { requestId: c.get("requestId"), logger: c.get("logger") }), token)
    : null;
  c.set("auth", auth);
  c.set(
    "actor",
    auth?.session.verified
      ? {
          userId: auth.user.id,
          sessionId: auth.session.id,
          email: auth.user.email,
          secondFactor: { enrolled: auth.user.totpEnabledAt !== null || auth.user.email2faEnabledAt !== null, passed: auth.session.secondFactorPassed },
        }
      : null,
  );
  await next();
  const isNavigation = c.req.method === "GET" && c.req.header("sec-fetch-mode") === "navigate";
  if (token && !auth && isNavigation && c.res.status !== 101) {
    c.res.headers.append("Set-Cookie", serializeBlankSessionCookie(c.get("isSecure")));
  }
});
