import { Hono, type Context } from "hono";
import { publicOrigin, requestMeta, type AuthCall } from "~/features/auth/auth-context.server";
import { sessionCookies, signedOutCookies } from "~/features/auth/auth-cookies.server";
import { login, logout, verifySecondFactor } from "~/features/auth/login.server";
import { toPublicUser } from "~/features/auth/session.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import { createServiceContext } from "~/lib/service-context.server";
import type { AppEnv } from "./types";

/**
 * The JSON authentication endpoints of spec §7: POST /login, POST /logout, POST /2fa/verify and
 * GET /auth-check. Plain form posts to /login and /2fa/verify fall through to the React Router
 * pages' actions (same service functions), so the pages work before JavaScript loads.
 */
function authCall(c: Context<AppEnv>): AuthCall {
  return {
    ctx: createServiceContext(c.env, { requestId: c.get("requestId"), logger: c.get("logger"), actor: c.get("actor") }),
    meta: requestMeta(c.req.raw),
    origin: publicOrigin(c.env, c.req.raw),
  };
}

function isJsonRequest(c: Context<AppEnv>): boolean {
  return (c.req.header("content-type") ?? "").startsWith("application/json");
}

async function readJson(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new AppError("VALIDATION_ERROR", "The request body must be JSON.");
  }
}

function setCookies(c: Context<AppEnv>, cookies: string[]): void {
  for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
}

export const auth = new Hono<AppEnv>()
  .post("/login", async (c, next) => {
    if (!isJsonRequest(c)) return next();
    const call = authCall(c);
    const result = await login(call, await readJson(c), { previousSession: c.get("auth")?.session });
    const cookies = await sessionCookies({
      token: result.token,
      expiresAt: result.session.absoluteExpiresAt,
      isSecure: c.get("isSecure"),
      now: call.ctx.now(),
      appSecret: readConfig(c.env).SESSION_SECRET,
    });
    setCookies(c, cookies.setCookies);
    c.header("Cache-Control", "no-store");
    return c.json({
      user: result.user,
      requires_email_2fa: result.requiresEmail2fa,
      requires_google_2fa: result.requiresGoogle2fa,
      csrf_token: cookies.csrfToken,
    });
  })
  .post("/2fa/verify", async (c, next) => {
    if (!isJsonRequest(c)) return next();
    const current = c.get("auth");
    if (!current) throw new AppError("UNAUTHENTICATED", "Your sign-in has expired. Please sign in again.");
    const call = authCall(c);
    const body = (await readJson(c)) as { code?: unknown } | null;
    const result = await verifySecondFactor(call, { session: current.session, user: current.user, code: body?.code });
    const cookies = await sessionCookies({
      token: result.token,
      expiresAt: result.absoluteExpiresAt,
      isSecure: c.get("isSecure"),
      now: call.ctx.now(),
      appSecret: readConfig(c.env).SESSION_SECRET,
    });
    setCookies(c, cookies.setCookies);
    c.header("Cache-Control", "no-store");
    return c.json({ success: true, user: result.user, used_recovery_code: result.usedRecoveryCode, csrf_token: cookies.csrfToken });
  })
  .post("/logout", async (c) => {
    await logout(authCall(c), c.get("auth")?.session ?? null);
    const cookies = await signedOutCookies(readConfig(c.env).SESSION_SECRET, c.get("isSecure"));
    setCookies(c, cookies.setCookies);
    c.header("Cache-Control", "no-store");
    if (isJsonRequest(c) || (c.req.header("accept") ?? "").includes("application/json")) {
      return c.json({ success: true, csrf_token: cookies.csrfToken });
    }
    return c.redirect("/login", 303);
  })
  .get("/auth-check", (c) => {
    const current = c.get("auth");
    c.header("Cache-Control", "no-store");
    return c.json({
      authenticated: current !== null,
      user: current ? toPublicUser(current.user) : null,
      requires_verification: current ? !current.session.verified : false,
    });
  });
