import { createCookie, redirect } from "react-router";
import { flashToastSchema, type FlashToast } from "./toast.schema";

/**
 * A toast flashed through a signed cookie so it survives a redirect (Epic Stack pattern).
 * The root loader reads it once and clears it.
 */
export function toastCookieName(isSecure: boolean): string {
  return isSecure ? "__Host-strongroom_toast" : "strongroom_toast";
}

/** A flashed toast is read on the very next page; it never needs to outlive a minute. */
export const TOAST_COOKIE_MAX_AGE_SECONDS = 60;

function toastCookie(secret: string, isSecure: boolean) {
  return createCookie(toastCookieName(isSecure), {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure,
    maxAge: TOAST_COOKIE_MAX_AGE_SECONDS,
    secrets: [secret],
  });
}

export async function serializeFlashToast(toast: FlashToast, secret: string, isSecure: boolean): Promise<string> {
  return toastCookie(secret, isSecure).serialize(flashToastSchema.parse(toast));
}

export async function redirectWithToast(
  url: string,
  toast: FlashToast,
  options: { secret: string; isSecure: boolean; headers?: HeadersInit },
): Promise<Response> {
  const headers = new Headers(options.headers);
  headers.append("Set-Cookie", await serializeFlashToast(toast, options.secret, options.isSecure));
  return redirect(url, { headers });
}

/** Reads the flashed toast (if any) and returns the Set-Cookie header that clears it. */
export async function readFlashToast(
  request: Request,
  secret: string,
  isSecure: boolean,
): Promise<{ toast: FlashToast | null; headers: Headers }> {
  const cookie = toastCookie(secret, isSecure);
  const headers = new Headers();
  const raw: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (raw === null || raw === undefined) return { toast: null, headers };
  headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  const parsed = flashToastSchema.safeParse(raw);
  return { toast: parsed.success ? parsed.data : null, headers };
}
