import { Link, redirect } from "react-router";
import { IntentButton } from "~/components/intent-form";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { FormPageHeader } from "~/features/forms/components/form-page-header";
import { requireActor } from "~/features/auth/auth-guard.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { clearTestSubmissions, listFormSubmissions, readSubmissionFilters, type SubmissionFilterInput } from "~/features/forms/form-submissions.server";
import { AppError } from "~/lib/errors";
import { listTrashedFormSubmissions, restoreFormSubmission } from "~/features/forms/forms-trash.server";
import { answerText } from "~/features/forms/submission-view";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/submissions";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Submissions: ${loaderData.form.title}` : "Submissions");

const FILTER_KEYS = ["q", "from", "to", "version"] as const;

/** /forms/{id}/submissions: a form's submissions, newest first, fifty a page, narrowed by ?q=&from=&to=&version=; ?test=1 the preview's. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const url = new URL(request.url);
  const test = url.searchParams.get("test") === "1";
  const ctx = serviceContextFor(context);
  const asked: SubmissionFilterInput = Object.fromEntries(FILTER_KEYS.map((key) => [key, url.searchParams.get(key)?.slice(0, 200) ?? ""]));
  // A malformed filter is said next to it; the list then shows everything.
  let filterError: string | null = null;
  try {
    readSubmissionFilters(asked);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    filterError = error.message;
  }
  return runLoader(async () => {
    const [page, trashed] = await Promise.all([
      listFormSubmissions(ctx, actor.userId, params.id, { test, cursor: url.searchParams.get("cursor") ?? undefined, filters: filterError ? {} : asked }),
      listTrashedFormSubmissions(ctx, actor.userId, params.id),
    ]);
    return { test, ...page, trashed, asked, filterError };
  });
}

/** The address of the list (or its CSV) with the filters asked for. */
function withFilters(path: string, test: boolean, asked: SubmissionFilterInput, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  if (test) query.set("test", "1");
  for (const key of FILTER_KEYS) if (asked[key]) query.set(key, asked[key]!);
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Clearing the test submissions, or restoring one from the trash. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const actor = requireActor(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    if (form.get("intent") === "restore") {
      await restoreFormSubmission(serviceContextFor(context), actor.userId, params.id, String(form.get("submissionId") ?? ""));
      return redirect(`/forms/${params.id}/submissions`);
    }
    await clearTestSubmissions(serviceContextFor(context), actor.userId, params.id);
    return redirect(`/forms/${params.id}/submissions?test=1`);
  });
}

const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;
const filterInput = "mt-1 block rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm font-normal text-slate-900";

export default function FormSubmissionsPage({ loaderData }: Route.ComponentProps) {
  const { form, test, submissions, nextCursor, trashed, asked, filterError } = loaderData;
  const filtered = FILTER_KEYS.some((key) => asked[key]);
  return (
    <div className="space-y-6">
      <FormPageHeader back={`/forms/${form.id}/edit`} backLabel={form.title} title={test ? "Test submissions" : "Submissions"}>
        <div className="flex flex-wrap gap-3 text-sm">
          {test ? (
            <Link to={`/forms/${form.id}/submissions`} className="text-brand-700 underline">
              Real submissions
            </Link>
          ) : (
            <Link to={`/forms/${form.id}/submissions?test=1`} className="text-brand-700 underline">
              Test submissions from the preview
            </Link>
          )}
        </div>
      </FormPageHeader>
      <form method="get" className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 bg-white p-3" aria-label="Filter the submissions" data-testid="submission-filters">
        {test ? <input type="hidden" name="test" value="1" /> : null}
        <label className="text-sm font-medium text-slate-900">
          Answers containing
          <input name="q" defaultValue={asked.q ?? ""} maxLength={100} className={filterInput} />
        </label>
        <label className="text-sm font-medium text-slate-900">
          From
          <input name="from" type="date" defaultValue={asked.from ?? ""} className={filterInput} />
        </label>
        <label className="text-sm font-medium text-slate-900">
          To
          <input name="to" type="date" defaultValue={asked.to ?? ""} className={filterInput} />
        </label>
        {!test && form.versions > 1 ? (
          <label className="text-sm font-medium text-slate-900">
            Version
            <select name="version" defaultValue={asked.version ?? ""} className={filterInput}>
              <option value="">Any</option>
              {Array.from({ length: form.versions }, (_, index) => form.versions - index).map((version) => (
                <option key={version} value={version}>
                  {version}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button type="submit" className={buttonClassName({ variant: "secondary", size: "sm" })}>
          Filter
        </button>
        {filtered ? (
          <Link to={withFilters(`/forms/${form.id}/submissions`, test, {})} className="text-sm text-brand-700 underline">
            Show all
          </Link>
        ) : null}
        {filterError ? (
          <p role="alert" className="w-full text-sm font-medium text-red-700">
            {filterError}
          </p>
        ) : null}
      </form>
      {submissions.length > 0 ? (
        <a href={withFilters(`/api/forms/${form.id}/submissions.csv`, test, filterError ? {} : asked)} download className={buttonClassName({ variant: "secondary", size: "sm" })}>
          Export {filtered ? "these" : "all"} as CSV
        </a>
      ) : null}
      {test && submissions.length > 0 ? (
        <IntentButton intent="clear-tests" label="Clear test submissions" variant="secondary" />
      ) : null}
      {submissions.length === 0 ? (
        <p className="text-sm text-slate-700">{filtered ? "No submissions match these filters." : test ? "No test submissions. Send some from the preview." : "No submissions yet."}</p>
      ) : (
        <Table caption={`${test ? "Test submissions" : "Submissions"} of ${form.title}, newest first`} isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Received</TableHeaderCell>
              {form.columns.map((field) => (
                <TableHeaderCell key={field.id}>{field.label}</TableHeaderCell>
              ))}
              <TableHeaderCell>Version</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {submissions.map((submission) => (
              <TableRow key={submission.id} data-testid="submission-row">
                <TableCell>
                  <Link to={`/forms/${form.id}/submissions/${submission.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {at(submission.createdAt)}
                  </Link>
                </TableCell>
                {form.columns.map((field) => (
                  <TableCell key={field.id} className="max-w-xs truncate">
                    {answerText(submission.answers.find((answer) => answer.fieldId === field.id)?.value)}
                  </TableCell>
                ))}
                <TableCell>{submission.version === 0 ? "draft" : submission.version}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {!test && trashed.length > 0 ? (
        <details className="text-sm" data-testid="deleted-submissions">
          <summary className="cursor-pointer text-slate-900">Deleted submissions ({trashed.length})</summary>
          <p className="mt-1 text-slate-700">Kept for 30 days, then deleted for good.</p>
          <ul className="mt-2 divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
            {trashed.map((item) => (
              <li key={item.id} className="flex items-center justify-between gap-3 px-3 py-2">
                <span>
                  Received {at(item.createdAt)} <span className="text-slate-600">· {item.daysLeft} days left</span>
                </span>
                <IntentButton intent="restore" fields={{ submissionId: item.id }} label="Restore" ariaLabel={`Restore the submission received ${at(item.createdAt)}`} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {nextCursor ? (
        <Link to={withFilters(`/forms/${form.id}/submissions`, test, filterError ? {} : asked, { cursor: nextCursor })} className={buttonClassName({ variant: "secondary" })}>
          Older submissions
        </Link>
      ) : null}
    </div>
  );
}
