import { lazy, Suspense } from "react";
import { data } from "react-router";
import { getRequestPage } from "~/features/secrets/secret-requests.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/answer";

// The form (WebCrypto) loads outside the page's first-load JavaScript (G5).
const AnswerForm = lazy(() => import("~/features/secrets/components/answer-form").then((module) => ({ default: module.AnswerForm })));

const ENDED = {
  missing: { title: "Request not found", text: "This request does not exist. Check that you copied the whole link." },
  closed: { title: "Request closed", text: "This request was closed: it takes no more answers." },
  full: { title: "Request answered", text: "This request already has all the answers it asked for." },
  expired: { title: "Request expired", text: "This request has expired." },
} as const;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const page = loaderData?.page;
  return titleMeta(!page || page.state === "open" ? "Send a secret" : ENDED[page.state].title);
};

export const headers = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

/** /secret-request/{token}: anyone with the link sends the requester a secret, encrypted in their browser. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const page = await runLoader(() => getRequestPage(serviceContextFor(context), params.token));
  return data({ page, token: params.token }, { status: page.state === "open" ? 200 : page.state === "missing" ? 404 : 410 });
}

export default function AnswerPage({ loaderData }: Route.ComponentProps) {
  const { page, token } = loaderData;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      {page.state === "open" ? (
        <>
          <div className="space-y-2">
            <h1 className="text-2xl font-semibold text-slate-900">{page.requester ? `${page.requester} asks you for a secret` : "Someone asks you for a secret"}</h1>
            <p className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-3 text-sm text-slate-900" data-testid="request-message">
              {page.message}
            </p>
            <p className="text-sm text-slate-700">What you send is encrypted in this browser so that only they can open it. We cannot read it.</p>
          </div>
          <noscript>
            <p className="text-sm text-slate-900">Sending a secret needs JavaScript: it is encrypted in your browser.</p>
          </noscript>
          <Suspense fallback={<p className="text-sm text-slate-700">Loading…</p>}>
            <AnswerForm token={token} publicKey={page.publicKey} requester={page.requester} maxFileMb={page.maxFileMb} />
          </Suspense>
        </>
      ) : (
        <div className="space-y-2" data-testid="request-ended">
          <h1 className="text-2xl font-semibold text-slate-900">{ENDED[page.state].title}</h1>
          <p className="text-sm text-slate-700">{ENDED[page.state].text}</p>
        </div>
      )}
    </div>
  );
}
