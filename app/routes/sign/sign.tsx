import { data } from "react-router";
import { Alert } from "~/components/ui/alert";
import { SigningForm } from "~/features/signatures/components/signing-form";
import { openSigningLink, readSigningProof } from "~/features/signatures/signing.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/sign";

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
          <Alert variant={DONE.has(signing.reason) ? "success" : "warning"} title={signing.reason === "completed" ? "Complete" : DONE.has(signing.reason) ? "Done" : "This link no longer works"}>
            {signing.message}
          </Alert>
          {signing.signedDownload ? (
            <a href={`/api/sign/${token}/signed.pdf`} className="inline-flex rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-800" download>
              Download the signed PDF
            </a>
          ) : null}
        </div>
      ) : signing.state === "waiting" ? (
        <Alert variant="info" title="Not your turn yet">
          {signing.message}
        </Alert>
      ) : (
        <SigningForm token={token} view={signing} needsCode={signing.needsCode} />
      )}
    </div>
  );
}
