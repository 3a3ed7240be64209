import type { SubmissionView } from "../submission-view";

/** One submission's answers, as its shared and embedded views show them (read-only). */
export function SubmissionAnswers({ submission }: { submission: SubmissionView }) {
  return (
    <dl className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" data-testid="submission-answers">
      {submission.answers.map((answer) => (
        <div key={answer.fieldId} className="grid gap-1 p-3 sm:grid-cols-3">
          <dt className="text-sm font-medium text-slate-700">{answer.label}</dt>
          <dd className="whitespace-pre-wrap break-words text-sm text-slate-900 sm:col-span-2">{Array.isArray(answer.value) ? answer.value.join(", ") : answer.value === "true" && (answer.type === "checkbox" || answer.type === "consent") ? "Yes" : answer.value}</dd>
        </div>
      ))}
    </dl>
  );
}
