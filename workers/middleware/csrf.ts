import { generateCookie, getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { readConfig } from "~/lib/config.server";
import { assertCsrf, csrfCookieName, csrfTokenFor, isValidCsrfSecret, newCsrfSecret } from "~/lib/csrf.server";
import type { AppEnv } from "../types";

/**
 * Issues the CSRF cookie on first contact and checks every unsafe request (ADR 007). A request
 * that arrives without the cookie cannot carry a valid token, so it is refused with 419.
 */
export const csrfMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const { SESSION_SECRET } = readConfig(c.env);
  const isSecure = c.get("isSecure");
  const name = csrfCookieName(isSecure);
  const existing = getCookie(c, name);
  const secret = isValidCsrfSecret(existing) ? existing : newCsrfSecret();
  const token = await csrfTokenFor(SESSION_SECRET, secret);
  c.set("csrfToken", token);
  await assertCsrf(c.req.raw, secret === existing ? token : null);
  await next();
  // Appended to the final response: handlers here return raw Responses (React Router, sockets).
  if (secret !== existing && c.res.status !== 101) {
    const cookie = generateCookie(name, secret, { path: "/", httpOnly: true, secure: isSecure, sameSite: "Lax" });
    c.res.headers.append("Set-Cookie", cookie);
  }
});
