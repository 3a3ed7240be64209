import { generateCookie } from "hono/cookie";
import { csrfCookieName, csrfTokenFor, newCsrfSecret } from "~/lib/csrf.server";
import { serializeBlankSessionCookie, serializeSessionCookie } from "./session.server";

/**
 * The Set-Cookie values that go with a new or rotated session: the session cookie (S4) and a
 * fresh CSRF secret, so the CSRF token is per session (S5). `csrfToken` is the token the page
 * must use from now on (JSON callers put it in the meta tag).
 */
export async function sessionCookies(input: {
  token: string;
  expiresAt: Date;
  isSecure: boolean;
  now: Date;
  appSecret: string;
}): Promise<{ setCookies: string[]; csrfToken: string }> {
  const csrf = await freshCsrfCookie(input.appSecret, input.isSecure);
  return {
    setCookies: [serializeSessionCookie(input.token, input.expiresAt, input.isSecure, input.now), csrf.setCookie],
    csrfToken: csrf.csrfToken,
  };
}

/** After sign-out: the session cookie is cleared and the CSRF secret replaced. */
export async function signedOutCookies(appSecret: string, isSecure: boolean): Promise<{ setCookies: string[]; csrfToken: string }> {
  const csrf = await freshCsrfCookie(appSecret, isSecure);
  return { setCookies: [serializeBlankSessionCookie(isSecure), csrf.setCookie], csrfToken: csrf.csrfToken };
}

async function freshCsrfCookie(appSecret: string, isSecure: boolean): Promise<{ setCookie: string; csrfToken: string }> {
  const secret = newCsrfSecret();
  return {
    setCookie: generateCookie(csrfCookieName(isSecure), secret, { path: "/", httpOnly: true, secure: isSecure, sameSite: "Lax" }),
    csrfToken: await csrfTokenFor(appSecret, secret),
  };
}

export function headersWithCookies(setCookies: string[], init?: HeadersInit): Headers {
  const headers = new Headers(init);
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
}
