import type { SubmissionView } from "../submission-view";
import { SignatureView } from "./signature-view";

const kib = (size: number) => (size < 1024 * 1024 ? `${Math.max(1, Math.round(size / 1024))} KB` : `${(size / (1024 * 1024)).toFixed(1)} MB`);

/** A file question's answer: each file, linked for its owner once it has arrived. */
function FilesAnswer({ submission, fieldId }: { submission: SubmissionView; fieldId: string }) {
  const files = submission.files.filter((file) => file.fieldId === fieldId);
  return (
    <ul className="space-y-1">
      {files.map((file, index) => (
        <li key={`${file.name}-${index}`}>
          {file.fileId ? (
            <a href={`/files/${file.fileId}`} className="font-medium text-brand-700 underline">
              {file.name}
            </a>
          ) : (
            <span>{file.name}</span>
          )}{" "}
          <span className="text-slate-600">
            ({kib(file.size)}
            {file.arrived ? "" : submission.filesPending ? ", on its way" : ", did not arrive"})
          </span>
        </li>
      ))}
    </ul>
  );
}

/** One submission's answers, as its owner's page and its shared and embedded views show them (read-only). */
export function SubmissionAnswers({ submission }: { submission: SubmissionView }) {
  return (
    <dl className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" data-testid="submission-answers">
      {submission.answers.map((answer) => (
        <div key={answer.fieldId} className="grid gap-1 p-3 sm:grid-cols-3">
          <dt className="text-sm font-medium text-slate-700">{answer.label}</dt>
          <dd className="whitespace-pre-wrap break-words text-sm text-slate-900 sm:col-span-2">
            {answer.type === "signature" && typeof answer.value === "string" ? (
              <SignatureView value={answer.value} />
            ) : answer.type === "file" && submission.files.some((file) => file.fieldId === answer.fieldId) ? (
              <FilesAnswer submission={submission} fieldId={answer.fieldId} />
            ) : Array.isArray(answer.value) ? (
              `${answer.value.join(", ")}${answer.type === "file" && submission.isTest ? " (test mode: checked, not uploaded)" : ""}`
            ) : answer.value === "true" && (answer.type === "checkbox" || answer.type === "consent") ? (
              "Yes"
            ) : (
              answer.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
