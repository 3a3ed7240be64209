import { lazy, Suspense, useEffect, useMemo, type ReactNode } from "react";
import {
  data,
  redirect,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import toastStyles from "react-toastify/dist/ReactToastify.css?url";
import type { Route } from "./+types/root";
import appStyles from "./app.css?url";
import { CookieConsentBanner } from "./components/cookie-consent-banner";
import { checkAuth, getAuthState, initializeAuthFromPage, restorePersistedAuth } from "./features/auth/auth-store";
import { isAuthenticatedPage, UserPagePropsContext } from "./features/access/user-page-props";
import { loadMemberAccess, requireFeature, requirePermission } from "./features/access/access.server";
import { criticalRequirement, type CriticalRequirement } from "./features/access/critical-routes";
import { toPublicUser } from "./features/auth/session.server";
import { describeRouteError, ErrorPage } from "./components/error-page";
import { showToast, Toaster } from "./components/ui/toast";
import { readConfig } from "./lib/config.server";
import { parseCookieConsent } from "./lib/cookie-consent";
import { useNonce } from "./lib/nonce";
import { requestContext, serviceContextFor } from "./lib/request-context.server";
import { pageTitle, productName } from "./lib/title";
import { PublicFrame } from "./routes/public-layout";
import { FrameContext } from "./features/workspace/frame-context";
import { readFlashToast } from "./lib/toast.server";
import { AppError } from "./lib/errors";
import { loginRedirectUrl } from "./lib/safe-redirect";
import { daysLeft } from "~/features/billing/trials.constants";

// A member's live notices (their own realtime channel): loaded after the page, members only.
const MemberLiveNotices = lazy(() => import("./features/notifications/components/member-live-notices").then((module) => ({ default: module.MemberLiveNotices })));
const CriticalRouteDenied = lazy(() => import("./features/access/components/critical-route-denied"));
const UpgradeModalHost = lazy(() =>
  import("./features/access/components/upgrade-modal").then((module) => ({ default: module.UpgradeModalHost })),
);

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.ico", sizes: "any" },
  { rel: "stylesheet", href: appStyles },
  { rel: "stylesheet", href: toastStyles },
];

export const meta: Route.MetaFunction = ({ error }) => [
  { title: error ? pageTitle(describeRouteError(error).pageName) : productName },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, csrfToken, isSecure, auth, actor } = context.get(requestContext);
  const config = readConfig(env);
  const { toast, headers } = await readFlashToast(request, config.SESSION_SECRET, isSecure);
  // Spec §3 "Auth data on first page load": tier, permissions and features with the user.
  const access = actor ? await loadMemberAccess(serviceContextFor(context), actor.userId) : null;
  const url = new URL(request.url);
  const critical = criticalRequirement(url.pathname);
  if (critical) {
    if (!access) throw redirect(loginRedirectUrl(`${url.pathname}${url.search}`));
    try {
      if ("feature" in critical) requireFeature(access, critical.feature);
      else requirePermission(access, critical.permission);
    } catch (error) {
      // The error page also opens the denied action (toast, upgrade modal) for what is missing.
      if (error instanceof AppError) throw data({ message: error.message, requires: critical, contactEmail: config.CONTACT_EMAIL }, { status: error.status });
      throw error;
    }
  }
  return data(
    {
      csrfToken,
      toast,
      cookieConsent: parseCookieConsent(request.headers.get("Cookie")),
      isKitEnabled: !config.isProduction,
      contactEmail: config.CONTACT_EMAIL,
      // Spec §3 "Auth data on first page load": the member (with id) or null.
      user: auth?.session.verified ? toPublicUser(auth.user) : null,
      requiresVerification: auth ? !auth.session.verified : false,
      tier: access?.tier ?? null,
      // A free trial running (issue 43): the shell counts its days down.
      trial: access?.trial ? { tier: access.trial.tier, daysLeft: daysLeft(access.trial.endsAt, new Date()) } : null,
      permissions: access?.permissions ?? [],
      features: access?.features ?? {},
    },
    { headers },
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  useEffect(() => {
    // Marks the document as interactive (e2e tests wait for it before clicking).
    document.documentElement.dataset.hydrated = "true";
    // The HTTP client (which reports errors) loads after hydration, off the first load (G5).
    let uninstall: (() => void) | undefined;
    let isCancelled = false;
    void import("./lib/http").then((http) => {
      if (!isCancelled) uninstall = http.installGlobalErrorHandlers();
    });
    return () => {
      isCancelled = true;
      uninstall?.();
    };
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="csrf-token" content={rootData?.csrfToken ?? ""} />
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { toast, cookieConsent, isKitEnabled, user, requiresVerification, tier, permissions, features } = loaderData;
  const pageAccess = useMemo(() => ({ user, tier, permissions, features }), [user, tier, permissions, features]);
  const frame = useMemo(() => ({ user, devTools: isKitEnabled }), [user, isKitEnabled]);
  useEffect(() => {
    if (toast) showToast(toast.message, { type: toast.type });
  }, [toast]);
  useEffect(() => {
    // Spec §4 "Application start" and "Authentication": the page's member wins; otherwise a
    // session remembered in local storage is checked with the server (restored or cleared).
    if (user) return initializeAuthFromPage(user, requiresVerification);
    restorePersistedAuth();
    if (getAuthState().authenticated) void checkAuth();
  }, [user, requiresVerification]);
  // Spec §4 "Application start": the user store, after the auth store, from the same page data.
  // Loaded only for members: anonymous visitors' pages skip it and stay light (G5).
  const isMemberPage = isAuthenticatedPage(pageAccess);
  // A page shown inside a frame on another site (an embedded view, `handle.bare`) carries nothing of ours around it.
  const isBare = useMatches().some((match) => (match.handle as { bare?: boolean } | undefined)?.bare === true);
  useEffect(() => {
    if (!isMemberPage) return;
    let stop: (() => void) | undefined;
    let isCancelled = false;
    void import("./features/access/user-store").then((store) => {
      if (!isCancelled) stop = store.startUserStore(pageAccess, window.location.pathname);
    });
    return () => {
      isCancelled = true;
      stop?.();
    };
  }, [pageAccess, isMemberPage]);
  return (
    <UserPagePropsContext value={pageAccess}>
      {/* Each page's frame is its layout route's: public pages (routes/public-layout.tsx) or the member's workspace (routes/workspace/layout.tsx). */}
      <FrameContext value={frame}>
        <Outlet />
      </FrameContext>
      <Toaster />
      {isMemberPage ? (
        <Suspense fallback={null}>
          <UpgradeModalHost contactEmail={loaderData.contactEmail} />
          {user ? <MemberLiveNotices userId={user.id} /> : null}
        </Suspense>
      ) : null}
      {isBare ? null : <CookieConsentBanner initialConsent={cookieConsent} />}
    </UserPagePropsContext>
  );
}

/** A permission-critical page refused for the plan: what it needs, from the root loader's 403. */
function criticalDenial(error: unknown): { requirement: CriticalRequirement; contactEmail: string } | null {
  if (!isRouteErrorResponse(error) || error.status !== 403 || typeof error.data !== "object" || error.data === null) return null;
  const { requires, contactEmail } = error.data as { requires?: CriticalRequirement; contactEmail?: string };
  return requires && typeof contactEmail === "string" ? { requirement: requires, contactEmail } : null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  if (!isRouteErrorResponse(error) && import.meta.env.DEV) console.error(error);
  const denial = criticalDenial(error);
  return (
    <>
      <FrameContext value={{ user: rootData?.user ?? null, devTools: rootData?.isKitEnabled ?? false }}>
        <PublicFrame>
          <ErrorPage error={error} />
        </PublicFrame>
      </FrameContext>
      <Toaster />
      {denial ? (
        <Suspense fallback={null}>
          <CriticalRouteDenied requirement={denial.requirement} contactEmail={denial.contactEmail} />
        </Suspense>
      ) : null}
    </>
  );
}
