import { lazy, Suspense } from "react";
import { data } from "react-router";
import { openSigningLink, readSigningProof } from "~/features/signatures/signing.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/sign";

// The form (the pad, the viewer, the code step) loads after the page: the first load stays small (G5).
const SigningForm = lazy(() => import("~/features/signatures/components/signing-form").then((module) => ({ default: module.SigningForm })));

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Sign “${loaderData.signing.envelope.title}”` : "Sign a document");

// The address carries the recipient's token: never sent on as a referrer, never kept by a cache.
export const headers = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

const DONE = new Set(["signed", "approved", "completed"]);

/**
 * /sign/{token} (issue 38): the page a recipient opens from their e-mail, without an account. It
 * shows only their own fields; whose turn it is, and whether the link still works, the server
 * decides (signing.server.ts).
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const signing = await runLoader(() => openSigningLink(serviceContextFor(context), params.token, { cookie: readSigningProof(request.headers.get("Cookie")) }));
  return data({ signing, token: params.token }, { status: signing.state === "closed" && !DONE.has(signing.reason) ? 410 : 200 });
}

const TONES = { done: "border-emerald-300 bg-emerald-50 text-emerald-950", closed: "border-amber-300 bg-amber-50 text-amber-950", waiting: "border-sky-300 bg-sky-50 text-sky-950" } as const;

/** The page's own small notice (the kit's Alert would add to the first load, G5). */
function Notice({ tone, title, children }: { tone: keyof typeof TONES; title: string; children: string }) {
  return (
    <div role={tone === "closed" ? "alert" : "status"} className={`rounded-md border px-4 py-3 text-sm ${TONES[tone]}`}>
      <p className="font-semibold">{title}</p>
      <p>{children}</p>
    </div>
  );
}

export default function SignPage({ loaderData }: Route.ComponentProps) {
  const { signing, token } = loaderData;
  const { envelope } = signing;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="space-y-2">
        <p className="text-sm text-slate-600">
          {envelope.senderName} asks {signing.recipient.name} to {signing.recipient.kind === "approver" ? "approve" : "sign"}
        </p>
        <h1 className="text-2xl font-semibold break-words text-slate-900">{envelope.title}</h1>
        {envelope.message ? <p className="max-w-3xl rounded-md bg-slate-50 p-3 text-sm whitespace-pre-line text-slate-800">“{envelope.message}”</p> : null}
      </div>
      {signing.state === "closed" ? (
        <div className="space-y-4">
          <Notice tone={DONE.has(signing.reason) ? "done" : "closed"} title={signing.reason === "completed" ? "Complete" : DONE.has(signing.reason) ? "Done" : "This link no longer works"}>
            {signing.message}
          </Notice>
          {signing.signedDownload ? (
            <a href={`/api/sign/${token}/signed.pdf`} className="inline-flex rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-800" download>
              Download the signed PDF
            </a>
          ) : null}
        </div>
      ) : signing.state === "waiting" ? (
        <Notice tone="waiting" title="Not your turn yet">
          {signing.message}
        </Notice>
      ) : (
        <Suspense fallback={<p className="text-sm text-slate-700">Loading the document and your fields…</p>}>
          <SigningForm token={token} view={signing} needsCode={signing.needsCode} />
        </Suspense>
      )}
    </div>
  );
}
