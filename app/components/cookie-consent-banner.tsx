import { useState } from "react";
import {
  COOKIE_CONSENT_MAX_AGE_DAYS,
  COOKIE_CONSENT_NAME,
  DEFAULT_PRIVACY_POLICY_URL,
  serializeCookieConsent,
  type CookieConsent,
} from "~/lib/cookie-consent";

type CookieConsentBannerProps = {
  /** The consent already given (read from the request on the server), or null to ask. */
  initialConsent: CookieConsent | null;
  showEssentialOnly?: boolean;
  privacyPolicyUrl?: string;
  cookieName?: string;
  maxAgeDays?: number;
  onConsent?: (value: CookieConsent) => void;
};

/** Spec §2 "Cookie consent banner", at the bottom of every page until the visitor chooses. */
export function CookieConsentBanner({
  initialConsent,
  showEssentialOnly = true,
  privacyPolicyUrl = DEFAULT_PRIVACY_POLICY_URL,
  cookieName = COOKIE_CONSENT_NAME,
  maxAgeDays = COOKIE_CONSENT_MAX_AGE_DAYS,
  onConsent,
}: CookieConsentBannerProps) {
  const [consent, setConsent] = useState<CookieConsent | null>(initialConsent);
  if (consent) return null;

  const choose = (value: CookieConsent) => {
    document.cookie = serializeCookieConsent(value, {
      isSecure: window.location.protocol === "https:",
      name: cookieName,
      maxAgeDays,
    });
    setConsent(value);
    onConsent?.(value);
  };

  return (
    <section
      role="region"
      aria-label="Cookie consent"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 px-4 py-4 shadow-lg backdrop-blur"
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-700">
          We use essential cookies to keep you signed in and your data safe, and optional ones to improve Strongroom.
          Read our{" "}
          <a className="font-medium text-brand-700 underline" href={privacyPolicyUrl}>
            Privacy Policy
          </a>
          .
        </p>
        <div className="flex shrink-0 gap-2">
          {showEssentialOnly ? (
            <button
              type="button"
              onClick={() => choose("essential")}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Essential Cookies Only
            </button>
          ) : null}
          <button
            type="button"
            onClick={() => choose("full")}
            className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700"
          >
            I Accept
          </button>
        </div>
      </div>
    </section>
  );
}
