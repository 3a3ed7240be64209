import { lazy, Suspense } from "react";
import { data } from "react-router";
import { getSecretPage } from "~/features/secrets/secrets.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/view";

// The reveal (WebCrypto, and argon2id only for a passphrase) loads outside the page's first-load JavaScript (G5).
const SecretReveal = lazy(() => import("~/features/secrets/components/secret-reveal").then((module) => ({ default: module.SecretReveal })));

const ENDED = {
  missing: { title: "Secret not found", text: "This secret does not exist. Check that you copied the whole link." },
  expired: { title: "Secret expired", text: "This secret has expired and was deleted." },
  viewed: { title: "Secret already viewed", text: "This secret has already been viewed and was deleted. Ask the sender to send a new one if you still need it." },
  burned: { title: "Secret burned", text: "This secret was burned and can no longer be viewed." },
} as const;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const page = loaderData?.page;
  return titleMeta(!page || page.state === "ready" ? "Secret" : ENDED[page.state].title);
};

// The address carries the link's token: never sent on as a referrer, never kept by a cache.
export const headers = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

/**
 * /secret/{token}#{key}: the interstitial anyone with the link opens. It tells whether the secret
 * can still be read and reveals it only when asked (the key after # never reaches the server).
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const page = await runLoader(() => getSecretPage(serviceContextFor(context), params.token));
  const status = page.state === "ready" ? 200 : page.state === "missing" ? 404 : 410;
  return data({ page, token: params.token }, { status });
}

export default function SecretViewPage({ loaderData }: Route.ComponentProps) {
  const { page, token } = loaderData;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      {page.state === "ready" ? (
        <>
          <div className="space-y-1">
            <h1 className="text-2xl font-semibold text-slate-900">Someone shared a secret with you</h1>
            <p className="text-sm text-slate-700">
              It is encrypted: only this link{page.kdf ? " and its passphrase" : ""} can open it, in your browser. It expires on {new Date(page.expiresAt).toUTCString()}.
            </p>
          </div>
          <noscript>
            <p className="text-sm text-slate-900">Opening a secret needs JavaScript: it is decrypted in your browser.</p>
          </noscript>
          <Suspense fallback={<p className="text-sm text-slate-700">Loading…</p>}>
            <SecretReveal token={token} kdf={page.kdf} viewsLeft={page.viewsLeft} files={page.files} isUploading={page.isUploading} />
          </Suspense>
        </>
      ) : (
        <div className="space-y-2" data-testid="secret-ended">
          <h1 className="text-2xl font-semibold text-slate-900">{ENDED[page.state].title}</h1>
          <p className="text-sm text-slate-700">{ENDED[page.state].text}</p>
        </div>
      )}
    </div>
  );
}
