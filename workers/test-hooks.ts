import { Hono, type Context } from "hono";
import { publicOrigin, requestMeta, type AuthCall } from "~/features/auth/auth-context.server";
import { sessionCookies } from "~/features/auth/auth-cookies.server";
import { changeTestMember, createTestMember } from "~/features/testing/test-members.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import { createServiceContext } from "~/lib/service-context.server";
import type { AppEnv } from "./types";

/**
 * /__test: routes for the end-to-end suite only (docs/testing.md). They exist when TEST_HOOKS is
 * "on", which only scripts/e2e-server.mjs sets and which the configuration refuses in production;
 * everywhere else workers/app.ts hands these paths to the pages (the ordinary 404). They pass the
 * CSRF check like every route: GET /__test/csrf gives a browser with no page yet its token.
 */
function call(c: Context<AppEnv>): AuthCall {
  return {
    ctx: createServiceContext(c.env, { requestId: c.get("requestId"), logger: c.get("logger") }),
    meta: requestMeta(c.req.raw),
    origin: publicOrigin(c.env, c.req.raw),
  };
}

async function jsonBody(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new AppError("VALIDATION_ERROR", "The request body must be JSON.");
  }
}

export const testHooks = new Hono<AppEnv>()
  .use(async (c, next) => {
    c.header("Cache-Control", "no-store");
    await next();
  })
  /** This browser's CSRF token (the cookie comes with the answer on first contact). */
  .get("/csrf", (c) => c.json({ csrfToken: c.get("csrfToken") }))
  /** A member (tier, add-ons, second factor) and, unless signIn is false, a session in this browser. */
  .post("/members", async (c) => {
    const result = await createTestMember(call(c), await jsonBody(c));
    if (result.session) {
      const cookies = await sessionCookies({
        token: result.session.token,
        expiresAt: result.session.session.absoluteExpiresAt,
        isSecure: c.get("isSecure"),
        now: new Date(),
        appSecret: readConfig(c.env).SESSION_SECRET,
      });
      for (const cookie of cookies.setCookies) c.header("Set-Cookie", cookie, { append: true });
    }
    return c.json({ member: result.member }, 201);
  })
  /** Operator steps mid-test: { tier?, addons? } for a member named by id or e-mail. */
  .patch("/members/:member", async (c) => c.json(await changeTestMember(call(c), c.req.param("member"), await jsonBody(c))));
