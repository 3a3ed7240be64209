import { Link, redirect } from "react-router";
import { IntentButton, IntentForm } from "~/components/intent-form";
import { buttonClassName } from "~/components/ui/button";
import { FormPageHeader } from "~/features/forms/components/form-page-header";
import { SubmissionAnswers } from "~/features/forms/components/shared-submission";
import { requireActor } from "~/features/auth/auth-guard.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { createSubmissionShare, listSubmissionShares, revokeSubmissionShare } from "~/features/forms/form-shares.server";
import { SHARE_DAYS } from "~/features/forms/forms.constants";
import { deleteFormSubmission, getFormSubmission } from "~/features/forms/form-submissions.server";
import { saveFilledPdf } from "~/features/forms/form-pdf-mapping.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/submission";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Submission to ${loaderData.form.title}` : "Submission");

/** /forms/{id}/submissions/{submissionId}: one submission's answers, as the version it answered asked them, and its links. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const [found, shared] = await Promise.all([getFormSubmission(ctx, actor.userId, params.id, params.submissionId), listSubmissionShares(ctx, actor.userId, params.id, params.submissionId)]);
    return { ...found, ...shared };
  });
}

/** Share (a new link, shown this once), revoke a link, or delete the submission (to the trash). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const actor = requireActor(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ctx = serviceContextFor(context);
  return runFormAction(
    async () => {
      if (intent === "save-filled") {
        const { file, isNew } = await saveFilledPdf(ctx, actor.userId, params.id, params.submissionId);
        return { ok: true as const, intent, saved: { ...file, isNew } };
      }
      if (intent === "share") {
        const created = await createSubmissionShare(ctx, actor.userId, params.id, params.submissionId, { days: Number(form.get("days")), note: String(form.get("note") ?? "") });
        const { origin } = new URL(request.url);
        return { ok: true as const, intent, url: `${origin}${created.path}`, embedUrl: `${origin}${created.embedPath}` };
      }
      if (intent === "revoke") {
        await revokeSubmissionShare(ctx, actor.userId, params.id, params.submissionId, String(form.get("shareId") ?? ""));
        return { ok: true as const, intent };
      }
      await deleteFormSubmission(ctx, actor.userId, params.id, params.submissionId);
      return redirect(`/forms/${params.id}/submissions`);
    },
    { intent },
  );
}

const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;
const STATUS = { active: "Works", expired: "Expired", revoked: "Revoked" } as const;

export default function FormSubmissionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { form, submission, shares, openings } = loaderData;
  const created = actionData && "url" in actionData ? actionData : null;
  const saved = actionData && "saved" in actionData ? actionData.saved : null;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null;
  return (
    <div className="max-w-3xl space-y-6">
      <FormPageHeader back={`/forms/${form.id}/submissions${submission.isTest ? "?test=1" : ""}`} backLabel={`Submissions to ${form.title}`} title={`Submission of ${at(submission.createdAt)}`}>
        <p className="text-sm text-slate-600">
          {submission.isTest ? "A test submission from the preview. " : ""}
          {submission.version === 0 ? "Answered the draft." : `Answered version ${submission.version}.`}
        </p>
      </FormPageHeader>
      <SubmissionAnswers submission={submission} />
      {form.fillsPdf ? (
        <div className="flex flex-wrap items-center gap-3">
          <a href={`/api/forms/${form.id}/submissions/${submission.id}/filled.pdf`} download className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Fill the PDF with these answers
          </a>
          <IntentForm intent="save-filled">
            <button type="submit" className={buttonClassName({ variant: "secondary", size: "sm" })}>
              Save the filled PDF next to the original
            </button>
          </IntentForm>
          {saved ? (
            <p className="text-sm text-slate-700" role="status" data-testid="filled-saved">
              {saved.isNew ? "Saved as " : "Saved before as "}
              <Link to={`/folders/${saved.folderId}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                {saved.name}
              </Link>
              .
            </p>
          ) : null}
        </div>
      ) : null}

      <section aria-labelledby="share-heading" className="space-y-3 rounded-md border border-slate-200 bg-white p-4">
        <h2 id="share-heading" className="text-lg font-semibold text-slate-900">
          Share this submission
        </h2>
        <p className="text-sm text-slate-700">A link for someone without an account (your accountant, a colleague outside): it shows these answers only, ends when you say, and every opening is recorded here.</p>
        <IntentForm intent="share" className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="share-days" className="block text-sm font-medium text-slate-900">
              Works for
            </label>
            <select id="share-days" name="days" defaultValue="7" className="mt-1 rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm">
              {SHARE_DAYS.map((days) => (
                <option key={days} value={days}>
                  {days === 1 ? "1 day" : `${days} days`}
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-48 flex-1">
            <label htmlFor="share-note" className="block text-sm font-medium text-slate-900">
              For whom (only you see it)
            </label>
            <input id="share-note" name="note" maxLength={200} className="mt-1 block w-full rounded-md border border-slate-400 px-2 py-1.5 text-sm" />
          </div>
          <button type="submit" className={buttonClassName({ variant: "secondary" })}>
            Make a link
          </button>
        </IntentForm>
        {failure ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {failure}
          </p>
        ) : null}
        {created ? (
          <div className="space-y-2 rounded-md border border-emerald-300 bg-emerald-50 p-3" role="status">
            <p className="text-sm text-emerald-900">Copy the link now: it is shown only this once.</p>
            <label htmlFor="share-url" className="block text-sm font-medium text-slate-900">
              Link
            </label>
            <input id="share-url" readOnly value={created.url} className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs" data-testid="share-url" onFocus={(event) => event.currentTarget.select()} />
            <label htmlFor="share-embed" className="block text-sm font-medium text-slate-900">
              To show it on your site (the sites listed in the form's settings)
            </label>
            <input id="share-embed" readOnly value={`<iframe src="${created.embedUrl}" title="Submission" width="100%" height="480"></iframe>`} className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
          </div>
        ) : null}
        {shares.length > 0 ? (
          <ul className="divide-y divide-slate-200" aria-label="Links to this submission" data-testid="share-list">
            {shares.map((share) => (
              <li key={share.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span>
                  <span className="font-medium text-slate-900">{share.note || "A link"}</span> · {STATUS[share.status]} · until {at(share.expiresAt)} · opened {share.opens} {share.opens === 1 ? "time" : "times"}
                  {share.lastOpenedAt ? `, last ${at(share.lastOpenedAt)}` : ""}
                </span>
                {share.status === "active" ? (
                  <IntentButton intent="revoke" fields={{ shareId: share.id }} label="Revoke" ariaLabel={`Revoke the link ${share.note || "made " + at(share.createdAt)}`} />
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {openings.length > 0 ? (
          <details className="text-sm">
            <summary className="cursor-pointer text-slate-900">Openings ({openings.length})</summary>
            <ul className="mt-2 space-y-1 text-slate-700" data-testid="share-openings">
              {openings.map((opening, index) => (
                <li key={`${opening.shareId}:${opening.openedAt}:${index}`}>
                  {at(opening.openedAt)} · {opening.ip ?? "address not kept"} · {opening.embedded ? "embedded" : "link"} · {opening.userAgent ?? "unknown browser"}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>

      <IntentButton intent="delete" label="Delete submission" variant="danger" size="md" />
    </div>
  );
}
