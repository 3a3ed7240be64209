import { useEffect, useState } from "react";
import { useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { readMemberForm, redirectWithNotice } from "~/features/auth/auth-route.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { RequestAnswers } from "~/features/secrets/components/request-answers";
import { REQUEST_STATUS } from "~/features/secrets/secrets.constants";
import { closeSecretRequest, deleteSecretRequest, getSecretRequest } from "~/features/secrets/secret-requests.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/request";
import { copyText } from "~/components/copy-text";
import { UpLink } from "~/components/up-link";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData?.request.label ? `Request ${loaderData.request.label}` : "Request for a secret");

/** /secrets/requests/{id}: the request's link, its answers (opened here with the passphrase), Close and Delete. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getSecretRequest(serviceContextFor(context), user.id, params.id));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user, intent, ctx } = await readMemberForm(context, request);
  return runFormAction(
    async () => {
      if (intent === "close") {
        await closeSecretRequest(ctx, user.id, params.id);
        return redirectWithNotice(context, `/secrets/requests/${params.id}`, { type: "success", message: "Request closed: it takes no more answers." });
      }
      if (intent === "delete") {
        await deleteSecretRequest(ctx, user.id, params.id);
        return redirectWithNotice(context, "/secrets", { type: "success", message: "Request deleted with its answers." });
      }
      throw new AppError("VALIDATION_ERROR", "Unknown action. Reload the page and try again.");
    },
    { intent },
  );
}

const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

export default function SecretRequestPage({ loaderData, actionData }: Route.ComponentProps) {
  const { request, path, keys, answers } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const busy = useNavigation().state === "submitting";
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const link = `${origin}${path}`;
  const copy = () => copyText(link, "Link");
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <UpLink to="/secrets">Secrets</UpLink>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="break-words text-2xl font-semibold text-slate-900">{request.label || "Request for a secret"}</h1>
          <Badge variant={REQUEST_STATUS[request.status].variant}>{REQUEST_STATUS[request.status].label}</Badge>
        </div>
        <p className="max-w-3xl text-sm text-slate-700">
          “{request.message}” · {request.responseCount} of {request.maxResponses} answer{request.maxResponses === 1 ? "" : "s"} · open until {at(request.expiresAt)}
        </p>
      </header>

      {failure ? <Alert variant="error">{failure.message}</Alert> : null}

      {request.status === "open" ? (
        <section aria-labelledby="link-heading" className="max-w-3xl space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="link-heading" className="text-lg font-semibold text-slate-900">
            Link to send
          </h2>
          <input readOnly value={link} aria-label="Request link" className="block w-full rounded-md border border-slate-500 bg-slate-50 px-3 py-2 font-mono text-sm" data-testid="request-link" />
          <Button variant="secondary" onClick={copy}>
            Copy link
          </Button>
        </section>
      ) : null}

      <section aria-labelledby="answers-heading" className="max-w-3xl space-y-3">
        <h2 id="answers-heading" className="text-lg font-semibold text-slate-900">
          Answers
        </h2>
        <RequestAnswers requestId={request.id} keys={keys} answers={answers} at={at} />
      </section>

      <div className="flex flex-wrap gap-3">
        {request.status === "open" ? (
          <IntentForm intent="close">
            <Button type="submit" variant="secondary" isLoading={busy}>
              Close request
            </Button>
          </IntentForm>
        ) : null}
        <IntentForm intent="delete">
          <Button type="submit" variant="danger" isLoading={busy}>
            Delete request and answers
          </Button>
        </IntentForm>
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
