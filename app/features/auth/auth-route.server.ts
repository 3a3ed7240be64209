import { redirect, type RouterContextProvider } from "react-router";
import { readConfig } from "~/lib/config.server";
import { requestContext, serviceContextFor } from "~/lib/request-context.server";
import { requireMember } from "./auth-guard.server";
import { redirectWithToast, serializeFlashToast } from "~/lib/toast.server";
import type { FlashToast } from "~/lib/toast.schema";
import { headersWithCookies, sessionCookies, signedOutCookies } from "./auth-cookies.server";

/** Redirects with the cookies of a new or rotated session (and a fresh CSRF secret). */
export async function redirectWithSession(
  context: Readonly<RouterContextProvider>,
  to: string,
  session: { token: string; absoluteExpiresAt: Date },
  toast?: FlashToast,
): Promise<Response> {
  const { env, isSecure } = context.get(requestContext);
  const secret = readConfig(env).SESSION_SECRET;
  const cookies = await sessionCookies({ token: session.token, expiresAt: session.absoluteExpiresAt, isSecure, now: new Date(), appSecret: secret });
  const headers = headersWithCookies(cookies.setCookies);
  if (toast) headers.append("Set-Cookie", await serializeFlashToast(toast, secret, isSecure));
  return redirect(to, { headers });
}

/** Redirects with the session cookie cleared (account deleted, password reset elsewhere). */
export async function redirectSignedOut(context: Readonly<RouterContextProvider>, to: string, toast?: FlashToast): Promise<Response> {
  const { env, isSecure } = context.get(requestContext);
  const secret = readConfig(env).SESSION_SECRET;
  const cookies = await signedOutCookies(secret, isSecure);
  const headers = headersWithCookies(cookies.setCookies);
  if (toast) headers.append("Set-Cookie", await serializeFlashToast(toast, secret, isSecure));
  return redirect(to, { headers });
}

/** Redirects with a flashed toast (the session unchanged): the success path of settings forms. */
export async function redirectWithNotice(context: Readonly<RouterContextProvider>, to: string, toast: FlashToast): Promise<Response> {
  const { env, isSecure } = context.get(requestContext);
  return redirectWithToast(to, toast, { secret: readConfig(env).SESSION_SECRET, isSecure });
}

/** Pages that carry a token in their URL send no Referer anywhere (S17). */
export const noReferrerHeaders = () => ({ "Referrer-Policy": "no-referrer" });

/**
 * A member's page action with several intents: who posts, the form, its `intent` field and the
 * service context (a visitor who is not signed in is sent to sign in, as by requireMember).
 */
export async function readMemberForm(context: Readonly<RouterContextProvider>, request: Request) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return { user, form, intent: String(form.get("intent") ?? ""), ctx: serviceContextFor(context) };
}
