import { Form, redirect } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { buttonClassName } from "~/components/ui/button";
import { FormPageHeader } from "~/features/forms/components/form-page-header";
import { requireActor } from "~/features/auth/auth-guard.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { deleteFormSubmission, getFormSubmission } from "~/features/forms/form-submissions.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/submission";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Submission to ${loaderData.form.title}` : "Submission");

/** /forms/{id}/submissions/{submissionId}: one submission's answers, as the version it answered asked them. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  return runLoader(() => getFormSubmission(serviceContextFor(context), actor.userId, params.id, params.submissionId));
}

/** Delete: to the trash. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const actor = requireActor(context, request);
  return runFormAction(async () => {
    await deleteFormSubmission(serviceContextFor(context), actor.userId, params.id, params.submissionId);
    return redirect(`/forms/${params.id}/submissions`);
  });
}

export default function FormSubmissionPage({ loaderData }: Route.ComponentProps) {
  const { form, submission } = loaderData;
  return (
    <div className="max-w-3xl space-y-6">
      <FormPageHeader back={`/forms/${form.id}/submissions${submission.isTest ? "?test=1" : ""}`} backLabel={`Submissions to ${form.title}`} title={`Submission of ${dateTimeFormat.format(new Date(submission.createdAt))} UTC`}>
        <p className="text-sm text-slate-600">
          {submission.isTest ? "A test submission from the preview. " : ""}
          {submission.version === 0 ? "Answered the draft." : `Answered version ${submission.version}.`}
        </p>
      </FormPageHeader>
      <dl className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" data-testid="submission-answers">
        {submission.answers.map((answer) => (
          <div key={answer.fieldId} className="grid gap-1 p-3 sm:grid-cols-3">
            <dt className="text-sm font-medium text-slate-700">{answer.label}</dt>
            <dd className="whitespace-pre-wrap text-sm text-slate-900 sm:col-span-2">{Array.isArray(answer.value) ? answer.value.join(", ") : answer.value === "true" && (answer.type === "checkbox" || answer.type === "consent") ? "Yes" : answer.value}</dd>
          </div>
        ))}
      </dl>
      <Form method="post">
        <CsrfInput />
        <button type="submit" className={buttonClassName({ variant: "danger" })}>
          Delete submission
        </button>
      </Form>
    </div>
  );
}
