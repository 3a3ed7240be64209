import { readCookie } from "./cookies";

/** Spec §2/§9 "Cookie consent". Browser-safe: the banner writes the cookie itself. */
export const COOKIE_CONSENT_NAME = "dataroom_cookie_consent";
export const COOKIE_CONSENT_MAX_AGE_DAYS = 365;
export const cookieConsentValues = ["full", "essential"] as const;
export type CookieConsent = (typeof cookieConsentValues)[number];
export const DEFAULT_PRIVACY_POLICY_URL = "/privacy-policy";

export function parseCookieConsent(cookieHeader: string | null | undefined, name = COOKIE_CONSENT_NAME): CookieConsent | null {
  const raw = readCookie(cookieHeader, name);
  if (raw === null) return null;
  const value = decodeURIComponent(raw);
  return (cookieConsentValues as readonly string[]).includes(value) ? (value as CookieConsent) : null;
}

export function serializeCookieConsent(
  value: CookieConsent,
  options: { isSecure: boolean; name?: string; maxAgeDays?: number },
): string {
  const maxAge = (options.maxAgeDays ?? COOKIE_CONSENT_MAX_AGE_DAYS) * 24 * 60 * 60;
  const parts = [`${options.name ?? COOKIE_CONSENT_NAME}=${value}`, "Path=/", `Max-Age=${maxAge}`, "SameSite=Lax"];
  if (options.isSecure) parts.push("Secure");
  return parts.join("; ");
}
