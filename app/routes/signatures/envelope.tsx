import { Link, useActionData } from "react-router";
import { IntentButton, IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { STATUS_VARIANTS } from "~/features/signatures/components/status-variants";
import { buttonClassName } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { getEnvelope, resendToRecipient, sendEnvelope, voidEnvelope } from "~/features/signatures/envelopes.server";
import { ENVELOPE_STATUS_LABELS, RECIPIENT_STATUS_LABELS } from "~/features/signatures/signatures.constants";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/envelope";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData?.envelope.title ?? "Document");

/** /signatures/{id} (spec §2 "Signatures: show"): one envelope, its people, history and files. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => ({ envelope: await getEnvelope(serviceContextFor(context), user.id, params.id) }));
}

/** Send a draft, send a link again, or void. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ctx = serviceContextFor(context);
  return runFormAction(
    async () => {
      if (intent === "send") await sendEnvelope(ctx, user.id, params.id);
      else if (intent === "resend") await resendToRecipient(ctx, user.id, params.id, String(form.get("recipientId") ?? ""));
      else if (intent === "void") await voidEnvelope(ctx, user.id, params.id, { reason: String(form.get("reason") ?? "") });
      return { ok: true as const, intent };
    },
    { intent },
  );
}

const at = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "–");
const DONE_MESSAGES: Record<string, string> = { send: "Sent: the links are on their way.", resend: "Sent again.", void: "Voided: the links no longer work." };

export default function EnvelopePage({ loaderData }: Route.ComponentProps) {
  const { envelope } = loaderData;
  const result = useActionData<typeof action>();
  const open = envelope.status === "sent";
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-1">
          <p className="text-sm text-slate-600">
            <Link to={envelope.dataroomId ? `/dataroom/${envelope.dataroomId}/signatures` : "/signatures"} className="underline">
              {envelope.dataroomId ? "The room's signatures" : "Signatures"}
            </Link>
          </p>
          <h1 className="text-2xl font-semibold break-words text-slate-900">{envelope.title}</h1>
          <p className="text-sm text-slate-700">
            <Badge variant={STATUS_VARIANTS[envelope.status]}>{ENVELOPE_STATUS_LABELS[envelope.status]}</Badge> · {envelope.documentName}, {envelope.pageCount} page{envelope.pageCount === 1 ? "" : "s"} · {envelope.signingOrder === "sequential" ? "signed in order" : "everyone at once"}
            {envelope.expiresAt ? ` · expires ${at(envelope.expiresAt)}` : ""}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {envelope.status === "completed" ? (
            <>
              <a href={`/api/signatures/${envelope.id}/document?which=sealed&download=1`} className={buttonClassName({})}>
                Download the signed PDF
              </a>
              <Link to="/signatures/verify" className={buttonClassName({ variant: "secondary" })}>
                Check it on the verify page
              </Link>
            </>
          ) : null}
          <a href={`/api/signatures/${envelope.id}/document?download=1`} className={buttonClassName({ variant: "secondary" })}>
            Download the original
          </a>
        </div>
      </div>
      {result && !result.ok ? <Alert variant="error">{result.message}</Alert> : null}
      {result?.ok ? <Alert variant="success">{DONE_MESSAGES[result.intent] ?? "Done."}</Alert> : null}
      {envelope.status === "completed" && envelope.sealedSha256 ? (
        <p className="text-sm break-all text-slate-700">
          Sealed with the platform's certificate; SHA-256 {envelope.sealedSha256}. {envelope.sealedFileId ? "A copy is saved next to the original as “… (signed).pdf”." : ""}
        </p>
      ) : null}
      {envelope.voidReason ? <p className="text-sm text-slate-700">Voided: “{envelope.voidReason}”</p> : null}

      <section className="space-y-2" aria-labelledby="people-heading">
        <h2 id="people-heading" className="text-lg font-semibold text-slate-900">
          Recipients
        </h2>
        <ol className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {envelope.people.map((person) => (
            <li key={person.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
              <div className="space-y-0.5">
                <p className="font-medium text-slate-900">
                  {envelope.signingOrder === "sequential" ? `${person.position + 1}. ` : ""}
                  {person.name} <span className="font-normal text-slate-600">&lt;{person.email}&gt;</span>
                </p>
                <p className="text-slate-700">
                  {person.kindLabel}
                  {person.requireCode ? " · e-mail code" : ""} · <Badge variant={STATUS_VARIANTS[person.status]}>{RECIPIENT_STATUS_LABELS[person.status]}</Badge>
                  {person.signedAt ? ` ${at(person.signedAt)}` : person.openedAt ? ` · opened ${at(person.openedAt)}` : person.sentAt ? ` · sent ${at(person.sentAt)}` : ""}
                  {person.remindersSent ? ` · ${person.remindersSent} reminder${person.remindersSent === 1 ? "" : "s"}` : ""}
                </p>
                {person.declineReason ? <p className="text-red-800">Declined: “{person.declineReason}”</p> : null}
              </div>
              {open && (person.status === "sent" || person.status === "opened") ? <IntentButton intent="resend" fields={{ recipientId: person.id }} label="Send again" ariaLabel={`Send the link to ${person.name} again`} variant="secondary" /> : null}
            </li>
          ))}
        </ol>
      </section>

      {envelope.status === "draft" ? (
        <div className="flex flex-wrap gap-3">
          <IntentButton intent="send" label="Send for signature" variant="primary" size="md" />
          <Link to={`/signatures/${envelope.id}/edit`} className={buttonClassName({ variant: "secondary" })}>
            Edit the draft
          </Link>
        </div>
      ) : null}
      {envelope.status === "draft" || envelope.status === "sent" ? (
        <details className="rounded-md border border-slate-200 p-4">
          <summary className="cursor-pointer text-sm font-medium text-red-800">Void this document</summary>
          <IntentForm intent="void" className="mt-3 space-y-2">
            <label className="block text-sm font-medium text-slate-900">
              Reason (the recipients read it)
              <input name="reason" maxLength={1000} className="mt-1 block w-full max-w-xl rounded-md border border-slate-400 px-3 py-2 text-sm" />
            </label>
            <button type="submit" className={buttonClassName({ variant: "danger", size: "sm" })}>
              Void
            </button>
          </IntentForm>
        </details>
      ) : null}

      <section className="space-y-2" aria-labelledby="history-heading">
        <h2 id="history-heading" className="text-lg font-semibold text-slate-900">
          History
        </h2>
        <ol className="space-y-1 text-sm">
          {envelope.events.map((event, index) => (
            <li key={index} className="text-slate-800">
              <span className="text-slate-600">{at(event.at)}</span> · <span className="font-medium">{event.type}</span> · {event.actor}
              {event.detail ? ` · ${event.detail}` : ""}
              {event.ip ? ` · IP ${event.ip}` : ""}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
