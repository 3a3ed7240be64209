import { AppError } from "./errors";
import { hmacSign, randomToken, timingSafeEqualString } from "./crypto.server";

/**
 * CSRF (ADR 007): a random secret in an HttpOnly cookie, and a token derived from it with
 * HMAC(SESSION_SECRET) that the page carries in <meta name="csrf-token">. Unsafe requests must
 * send the token as X-CSRF-TOKEN (or a `_csrf` form field for plain form posts) and must not come
 * from another site (Origin / Sec-Fetch-Site). Any mismatch is a 419.
 */
export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const CSRF_HEADER = "x-csrf-token";
export const CSRF_FORM_FIELD = "_csrf";
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Form bodies larger than this are never buffered to look for `_csrf`: send the header instead. */
const MAX_FORM_BYTES_FOR_TOKEN = 1024 * 1024;

export function csrfCookieName(isSecure: boolean): string {
  return isSecure ? "__Host-strongroom_csrf" : "strongroom_csrf";
}

export function isValidCsrfSecret(value: string | undefined): value is string {
  return typeof value === "string" && SECRET_PATTERN.test(value);
}

export function newCsrfSecret(): string {
  return randomToken(32);
}

export function csrfTokenFor(appSecret: string, cookieSecret: string): Promise<string> {
  return hmacSign(appSecret, `csrf:${cookieSecret}`);
}

function isCrossSite(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  // The browser's own word (no script can set Sec-Fetch-Site): a page of ours whose
  // Referrer-Policy is no-referrer (token pages, S17) posts with `Origin: null`; an opaque origin
  // (a sandboxed document) is never "same-origin".
  if (fetchSite === "same-origin") return false;
  const origin = request.headers.get("origin");
  if (origin === "null") return true;
  if (origin && origin !== new URL(request.url).origin) return true;
  return false;
}

async function readFormToken(request: Request): Promise<string | null> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) return null;
  const length = Number(request.headers.get("content-length") ?? "NaN");
  if (!Number.isFinite(length) || length > MAX_FORM_BYTES_FOR_TOKEN) return null;
  try {
    const value = (await request.clone().formData()).get(CSRF_FORM_FIELD);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

/** Throws AppError(CSRF_TOKEN_MISMATCH) unless the unsafe request is same-site and carries the token. */
export async function assertCsrf(request: Request, expectedToken: string | null): Promise<void> {
  if (SAFE_METHODS.has(request.method)) return;
  if (expectedToken === null || isCrossSite(request)) throw new AppError("CSRF_TOKEN_MISMATCH");
  const provided = request.headers.get(CSRF_HEADER) ?? (await readFormToken(request));
  if (!provided || !timingSafeEqualString(provided, expectedToken)) throw new AppError("CSRF_TOKEN_MISMATCH");
}
