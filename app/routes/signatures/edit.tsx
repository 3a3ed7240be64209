import { Link, redirect } from "react-router";
import { requireMember } from "~/features/auth/auth-guard.server";
import { EnvelopeEditor, type DraftEnvelope } from "~/features/signatures/components/envelope-editor";
import { getEnvelope } from "~/features/signatures/envelopes.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = () => titleMeta("Edit draft");

const DAY_MS = 86_400_000;

/**
 * /signatures/{id}/edit (issue 38): a saved draft's recipients, order, message, expiry, reminders
 * and fields, changed and saved again (by revision) or sent. A document already sent is changed
 * only by voiding it, so its address leads back to the document's page.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const envelope = await runLoader(() => getEnvelope(ctx, user.id, params.id));
  if (envelope.status !== "draft") throw redirect(`/signatures/${envelope.id}`);
  const draft: DraftEnvelope = {
    id: envelope.id,
    revision: envelope.revision,
    title: envelope.title,
    message: envelope.message,
    signingOrder: envelope.signingOrder,
    recipients: envelope.people.map((person) => ({ roleId: person.roleId, name: person.name, email: person.email, kind: person.kind, requireCode: person.requireCode })),
    fields: envelope.fields,
    expiresInDays: envelope.expiresAt ? Math.max(1, Math.ceil((Date.parse(envelope.expiresAt) - ctx.now().getTime()) / DAY_MS)) : null,
    reminderFirstDays: envelope.reminderFirstDays,
    reminderEveryDays: envelope.reminderEveryDays,
  };
  return { draft, file: { id: envelope.id, name: envelope.documentName, pageCount: envelope.pageCount, documentUrl: `/api/signatures/${envelope.id}/document` }, dataroomId: envelope.dataroomId };
}

export default function EditDraftPage({ loaderData }: Route.ComponentProps) {
  const { draft, file, dataroomId } = loaderData;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm text-slate-600">
          <Link to={`/signatures/${draft.id}`} className="underline">
            Back to the document
          </Link>
        </p>
        <h1 className="text-2xl font-semibold text-slate-900">Edit draft</h1>
        <p className="text-sm text-slate-700">
          Document: <strong>{file.name}</strong> ({file.pageCount} page{file.pageCount === 1 ? "" : "s"}). Nobody has received it yet: change anything, save it again or send it.
        </p>
      </div>
      <EnvelopeEditor key={`${draft.id}:${draft.revision}`} file={file} draft={draft} dataroomId={dataroomId} initialTitle={draft.title} />
    </div>
  );
}
