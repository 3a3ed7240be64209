import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { RedactionEditor } from "~/features/redaction/components/redaction-editor";
import { getRedactionSetup } from "~/features/redaction/redaction-setup.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/redact";

export const meta: Route.MetaFunction = () => titleMeta("Redact");

/** /files/{id}/redact (spec §2 "file redaction", issue 39): mark, review, apply. Room files too. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getRedactionSetup(serviceContextFor(context), user.id, params.id));
}

export default function RedactPage({ loaderData }: Route.ComponentProps) {
  const { file, reports } = loaderData;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm text-slate-600">
          <Link to={`/files/${file.id}`} className="underline">
            Back to {file.name}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold break-words text-slate-900">Redact “{file.name}”</h1>
        <p className="text-sm text-slate-700">
          Version {file.version}
          {file.kind === "pdf" ? `, ${file.pageCount} page${file.pageCount === 1 ? "" : "s"}. What you mark is removed from the file on the server, not painted over, and the result is checked before it is saved.` : ". What you mark is painted black into the picture's pixels on the server; its metadata (camera, place, time) goes too."}
          {reports.length ? ` Redacted before: ${reports.length} time${reports.length === 1 ? "" : "s"}.` : ""}
        </p>
      </div>
      <RedactionEditor key={`${file.id}:${file.version}`} file={file} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
