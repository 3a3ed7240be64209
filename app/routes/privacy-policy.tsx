import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionCookieName } from "~/features/auth/session.server";
import { csrfCookieName } from "~/lib/csrf.server";
import { COOKIE_CONSENT_MAX_AGE_DAYS, COOKIE_CONSENT_NAME } from "~/lib/cookie-consent";
import { titleMeta } from "~/lib/title";
import { TOAST_COOKIE_MAX_AGE_SECONDS, toastCookieName } from "~/lib/toast.server";
import type { Route } from "./+types/privacy-policy";

export const meta: Route.MetaFunction = () => titleMeta("Privacy Policy");

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The cookies we set, named from the same server code that sets them, so the policy cannot drift
 * from what the app does. Sent as loader data: the text stays out of the public page's JS (G5).
 */
export function loader() {
  const both = (name: (isSecure: boolean) => string) => `${name(false)} (${name(true)} on https)`;
  return {
    cookies: [
      {
        name: both(sessionCookieName),
        purpose: "Keeps you signed in. Set only when you sign in; signing out deletes it on our side and in your browser.",
        kind: "Essential",
        lifetime: `${SESSION_IDLE_MS / DAY_MS} days without a visit, ${SESSION_ABSOLUTE_MS / DAY_MS} days at most (or the shorter time you choose)`,
      },
      {
        name: both(csrfCookieName),
        purpose: "Protects your forms and requests from being sent by other websites in your name.",
        kind: "Essential",
        lifetime: "Until you close the browser",
      },
      {
        name: both(toastCookieName),
        purpose: "Carries a one-off confirmation message across a page change, then is deleted.",
        kind: "Essential",
        lifetime: `${TOAST_COOKIE_MAX_AGE_SECONDS} seconds at most`,
      },
      {
        name: COOKIE_CONSENT_NAME,
        purpose: "Remembers your cookie choice (all cookies, or essential cookies only) so we don't ask again.",
        kind: "Essential",
        lifetime: `${COOKIE_CONSENT_MAX_AGE_DAYS} days`,
      },
    ],
  };
}

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  const { cookies } = loaderData;
  return (
    <article className="max-w-3xl space-y-6 text-slate-800">
      <h1 className="text-3xl font-semibold text-slate-900">Privacy Policy</h1>
      <p>
        Strongroom stores documents on behalf of the people and organisations who use it. This page explains what we
        collect, why, how long we keep it, and the choices you have.
      </p>
      <section className="space-y-2">
        <h2 className="text-xl font-semibold text-slate-900">What we collect</h2>
        <ul className="list-disc space-y-1 pl-6">
          <li>Account details you give us: your name, e-mail address and settings.</li>
          <li>The files, forms, signatures and messages you or your collaborators put into Strongroom.</li>
          <li>
            Security records: sign-ins, shared-link opens, downloads and permission changes, kept in an audit log so
            owners can see who accessed what.
          </li>
          <li>Technical data needed to run the service: IP address, browser type, and request identifiers in our logs.</li>
        </ul>
      </section>
      <section className="space-y-2">
        <h2 className="text-xl font-semibold text-slate-900">How we use it</h2>
        <p>
          Only to provide the service, keep it secure and tell you about your account. We do not sell your data and we
          do not use your documents to train models or for advertising.
        </p>
      </section>
      <section className="space-y-2">
        <h2 className="text-xl font-semibold text-slate-900">Cookies</h2>
        <p>
          We set only the cookies below. Choosing “Essential Cookies Only” in the banner keeps it that way should we ever
          add optional ones.
        </p>
        <div className="relative overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-2 pr-4">
                  Cookie
                </th>
                <th scope="col" className="py-2 pr-4">
                  Purpose
                </th>
                <th scope="col" className="py-2 pr-4">
                  Kind
                </th>
                <th scope="col" className="py-2">
                  Lifetime
                </th>
              </tr>
            </thead>
            <tbody>
              {cookies.map((cookie) => (
                <tr key={cookie.name} className="border-b border-slate-200 align-top">
                  <td className="py-2 pr-4 font-mono text-xs">{cookie.name}</td>
                  <td className="py-2 pr-4">{cookie.purpose}</td>
                  <td className="py-2 pr-4">{cookie.kind}</td>
                  <td className="py-2">{cookie.lifetime}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="space-y-2">
        <h2 className="text-xl font-semibold text-slate-900">How long we keep it</h2>
        <p>
          Deleted items stay in the trash for 30 days so they can be restored, then are removed for good. Records of
          finished background jobs are kept for 30 days. You can export or delete your personal data from your profile
          at any time.
        </p>
      </section>
      <section className="space-y-2">
        <h2 className="text-xl font-semibold text-slate-900">Your rights</h2>
        <p>
          You may ask for a copy of your data, its correction or its deletion. Owners of a data room decide who can see
          what is inside it; contact them about documents they hold.
        </p>
      </section>
    </article>
  );
}
