import { Hono } from "hono";
import { REFERRAL_COOKIE, REFERRAL_DAYS } from "~/features/billing/referrals.constants";
import { followReferralLink } from "~/features/billing/referrals.server";
import { parseCookieConsent } from "~/lib/cookie-consent";
import { readCookie } from "~/lib/cookies";
import type { AppEnv } from "./types";
import { apiServiceContext } from "./api/require-actor";

/**
 * GET /ref/{code}: a member's referral link (issue 43, docs/billing.md). The visitor goes to
 * sign-up with a first-party cookie naming the code for 90 days — not for the referrer themself,
 * an unknown code, or a visitor who chose essential cookies only (then nothing is attributed).
 */
export const referralLinks = new Hono<AppEnv>().get("/:code", async (c) => {
  const cookies = c.req.header("cookie");
  const actor = c.get("actor");
  const code = c.req.param("code");
  const essentialOnly = parseCookieConsent(cookies) === "essential";
  const { setCookie } = essentialOnly ? { setCookie: false } : await followReferralLink(apiServiceContext(c), code, actor?.userId ?? null, readCookie(cookies, REFERRAL_COOKIE));
  const headers = new Headers({ Location: actor ? "/referrals" : "/register", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  if (setCookie) headers.append("Set-Cookie", [`${REFERRAL_COOKIE}=${code.toLowerCase()}`, "Path=/", `Max-Age=${REFERRAL_DAYS * 86_400}`, "HttpOnly", "SameSite=Lax", ...(c.get("isSecure") ? ["Secure"] : [])].join("; "));
  return new Response(null, { status: 302, headers });
});
