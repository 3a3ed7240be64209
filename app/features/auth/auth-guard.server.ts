import { redirect, type RouterContextProvider } from "react-router";
import { requestContext, serviceContextFor } from "~/lib/request-context.server";
import { loginRedirectUrl, safeRedirect } from "~/lib/safe-redirect";
import type { Actor } from "~/lib/service-context.server";
import type { Member } from "./account.server";
import { publicOrigin, requestMeta, type AuthCall } from "./auth-context.server";
import { SECOND_FACTOR_PATH } from "./auth.constants";
import { isRecentlyAuthenticated } from "./session.server";

function here(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/**
 * Every protected loader and action calls this first (never only a layout: parent and child
 * loaders run in parallel). An anonymous visitor is sent to /login and brought back afterwards;
 * a session still owing its second factor is sent to the verification page.
 */
export function requireActor(context: Readonly<RouterContextProvider>, request: Request): Actor {
  const { actor, auth } = context.get(requestContext);
  if (actor) return actor;
  if (auth && !auth.session.verified) throw redirect(`${SECOND_FACTOR_PATH}?redirectTo=${encodeURIComponent(here(request))}`);
  throw redirect(loginRedirectUrl(here(request)));
}

/** The signed-in member's account row and session, for account pages. */
export function requireMember(context: Readonly<RouterContextProvider>, request: Request): Member {
  requireActor(context, request);
  const { auth } = context.get(requestContext);
  if (!auth) throw redirect(loginRedirectUrl(here(request)));
  return auth;
}

/**
 * Sensitive pages (2FA, e-mail change, security level, deletion) need a password confirmation
 * in the last 15 minutes; otherwise the member confirms it first and comes back.
 */
export function requireRecentAuth(context: Readonly<RouterContextProvider>, request: Request): Member {
  const member = requireMember(context, request);
  if (!isRecentlyAuthenticated(member.session, new Date())) {
    throw redirect(`/confirm-password?redirectTo=${encodeURIComponent(here(request))}`);
  }
  return member;
}

/** Sign-in and sign-up pages: a signed-in member goes straight on. */
export function redirectIfSignedIn(context: Readonly<RouterContextProvider>, request: Request): void {
  const { actor } = context.get(requestContext);
  if (actor) throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/dashboard"));
}

/** The service context plus caller metadata for account use cases. */
export function authCallFor(context: Readonly<RouterContextProvider>, request: Request): AuthCall {
  const { env } = context.get(requestContext);
  return {
    ctx: serviceContextFor(context),
    meta: requestMeta(request),
    origin: publicOrigin(env, request),
  };
}
