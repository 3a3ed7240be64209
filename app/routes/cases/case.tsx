import { sendCaseRequest } from "~/features/cases/case-requests.server";
import { CaseFieldInput } from "~/features/cases/components/case-field-input";
import { Form, Link, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { CASE_COMMENT_MAX, CASE_STATUS_LABELS } from "~/features/cases/cases.schema";
import { addCaseComment, addCaseTask, addParticipant, completeCaseTask, getCase, setCaseStatus, startCaseWorkflow, updateCase } from "~/features/cases/cases.server";
import { RUN_EVENT_LABELS } from "~/features/workflows/workflow-labels";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/case";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `${loaderData.case.reference} ${loaderData.case.title}` : "Case");

const STATUS_VARIANTS: Record<string, BadgeVariant> = { open: "info", waiting: "warning", closed: "neutral" };
/** What each timeline entry says: the case's own, and those of the workflow runs filed into it. */
const EVENT_LABELS: Record<string, string> = {
  "case.opened": "Case opened",
  "case.status": "Status changed",
  "case.participant": "Person added",
  "case.task": "Task added",
  "case.task-done": "Task done",
  "case.milestone": "Milestone set",
  "case.milestone-reached": "Milestone reached",
  "case.filed": "Filed into the case",
  "case.received": "Files received",
  "case.answered": "Form answered",
  "case.requested": "Form sent",
  "case.updated": "Details changed",
  "case.comment": "Comment",
  // A workflow run's entries, said as a case reads them.
  ...RUN_EVENT_LABELS,
  "run.started": "Workflow started",
  "run.completed": "Workflow completed",
  "run.rejected": "Workflow ended: rejected",
  "run.cancelled": "Workflow cancelled",
  "run.failed": "Workflow failed",
};
const at = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const dateOnly = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/** /cases/{id} (Business; its owner, assignee and the members taking part): fields, people, case file, tasks and milestones, the timeline. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getCase(serviceContextFor(context), user.id, params.id));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ctx = serviceContextFor(context);
  const here = `/cases/${params.id}`;
  const text = (name: string) => String(form.get(name) ?? "").trim();
  return runFormAction(
    async () => {
      if (intent === "status") {
        const status = await setCaseStatus(ctx, user.id, params.id, { status: text("status") });
        return redirectWithNotice(context, here, { type: "success", message: `The case is ${CASE_STATUS_LABELS[status].toLowerCase()}.` });
      }
      if (intent === "participant") {
        const { added, isMember } = await addParticipant(ctx, user.id, params.id, { email: text("email"), name: text("name") });
        const message = !added ? "That person already takes part." : isMember ? "Added: they can open the case now." : "Added as someone without an account: they act through a form or receive page bound to the case.";
        return redirectWithNotice(context, here, { type: "success", message });
      }
      if (intent === "task") {
        await addCaseTask(ctx, user.id, params.id, { kind: text("kind") || "task", title: text("title"), assignee: text("assignee") || null, dueDate: text("dueDate") || null });
        return redirectWithNotice(context, here, { type: "success", message: "Added." });
      }
      if (intent === "done") {
        await completeCaseTask(ctx, user.id, params.id, form.get("taskId"));
        return redirectWithNotice(context, here, { type: "success", message: "Marked done." });
      }
      if (intent === "comment") {
        await addCaseComment(ctx, user.id, params.id, { text: text("text") });
        return redirectWithNotice(context, here, { type: "success", message: "Comment added." });
      }
      if (intent === "update") {
        const values: Record<string, string> = {};
        for (const [key, value] of form.entries()) if (key.startsWith("value.")) values[key.slice("value.".length)] = String(value);
        const { changes } = await updateCase(ctx, user.id, params.id, { title: text("title"), values, assignee: text("assignee") || null, dueDate: text("dueDate") || null });
        return redirectWithNotice(context, here, { type: "success", message: changes.length === 0 ? "Nothing changed." : "Saved. The timeline shows what changed." });
      }
      if (intent === "request") {
        // One list holds both: "form:{id}" or "receive:{id}".
        const [kind, id = ""] = text("send").split(":");
        await sendCaseRequest(ctx, user.id, params.id, { ...(kind === "receive" ? { receivePageId: id } : { formId: id }), email: text("email"), name: text("name"), message: text("message") });
        return redirectWithNotice(context, here, { type: "success", message: kind === "receive" ? "Sent. The files they send come into this case." : "Sent. Their answer and files come into this case." });
      }
      if (intent === "run") {
        const { runId } = await startCaseWorkflow(ctx, user.id, params.id, { fileId: form.get("fileId") });
        return redirectWithNotice(context, `/workflow-runs/${runId}`, { type: "success", message: "The workflow started on the document." });
      }
      throw new AppError("VALIDATION_ERROR", "Unknown action. Reload the page and try again.");
    },
    { intent },
  );
}

export default function CasePage({ loaderData, actionData }: Route.ComponentProps) {
  const { case: item, canManage, participants, tasks, files, defaultWorkflow, timeline, requests, formChoices, pageChoices } = loaderData;
  const busy = useNavigation().state === "submitting";
  // A room of the case's own is the case file as a whole; in a shared room, its folder at the top.
  const caseFileLink = !item.room ? `/folders/${item.folderId}` : item.room.isCaseFile ? `/dataroom/${item.room.id}` : `/dataroom/${item.room.id}/folders/${item.folderId}`;
  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <header className="space-y-2">
        <Link to="/cases" className="text-sm text-brand-700 underline-offset-2 hover:underline">
          ← Cases
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold text-slate-900">
            {item.reference} {item.title}
          </h1>
          <Badge variant={STATUS_VARIANTS[item.status] ?? "neutral"} data-testid="case-status">
            {item.statusLabel}
          </Badge>
        </div>
        <p className="text-sm text-slate-700">
          {item.type.name}. Owner: {item.owner?.name ?? "a former member"}. Assignee: {item.assignee?.name ?? "nobody yet"}.{item.due ? ` Due ${dateOnly.format(new Date(item.due))}.` : ""}
        </p>
      </header>
      {actionData && "message" in actionData ? <Alert variant="error">{actionData.message}</Alert> : null}

      {item.fields.length > 0 ? (
        <section aria-labelledby="fields-heading" className="space-y-2">
          <h2 id="fields-heading" className="text-lg font-semibold text-slate-900">
            Details
          </h2>
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-md border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2">
            {item.fields.map((field) => (
              <div key={field.key}>
                <dt className="font-medium text-slate-900">{field.label}</dt>
                <dd className="text-slate-700">{field.value === null ? "Not given" : String(field.value)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      {canManage ? (
        <details className="rounded-md border border-slate-200 bg-white p-4">
          <summary className="cursor-pointer text-sm font-medium text-brand-700">Edit the case's details</summary>
          <IntentForm intent="update" className="mt-3 space-y-3">
            <Input label="Title" name="title" required maxLength={200} defaultValue={item.title} />
            {item.fields.map((field) => (
              <CaseFieldInput key={field.key} field={field} value={field.value} />
            ))}
            <Input label="Assignee (e-mail)" name="assignee" type="email" defaultValue={item.assignee?.email ?? ""} />
            <Input label="Due date" name="dueDate" type="date" defaultValue={item.due ? item.due.slice(0, 10) : ""} />
            <Button type="submit" variant="secondary" disabled={busy}>
              Save the details
            </Button>
          </IntentForm>
        </details>
      ) : null}

      {canManage ? (
        <IntentForm intent="status" className="flex flex-wrap items-end gap-2">
          <label className="text-sm text-slate-900">
            Status
            <select name="status" defaultValue={item.status} className={nativeSelectClassName}>
              {Object.entries(CASE_STATUS_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="secondary" disabled={busy}>
            Change status
          </Button>
        </IntentForm>
      ) : null}

      <section aria-labelledby="file-heading" className="space-y-2">
        <h2 id="file-heading" className="text-lg font-semibold text-slate-900">
          Case file
        </h2>
        {item.folderId ? (
          <>
            <p className="text-sm" data-testid="case-file-place">
              <Link to={caseFileLink} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                Open the case file
              </Link>
              {item.room ? `${item.room.isCaseFile ? ": the case's own data room" : " in the data room"} “${item.room.name}” (its audit log records this case)` : null}
            </p>
            {files.length === 0 ? (
              <p className="text-sm text-slate-700">No document yet.</p>
            ) : (
              <ul className="space-y-1 text-sm" data-testid="case-files">
                {files.map((file) => (
                  <li key={file.id}>
                    <Link to={`/files/${file.id}`} className="text-brand-700 underline-offset-2 hover:underline">
                      {file.name}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            {defaultWorkflow && files.length > 0 ? (
              <IntentForm intent="run" className="flex flex-wrap items-end gap-2">
                <label className="text-sm text-slate-900">
                  Start “{defaultWorkflow.name}” on
                  <select name="fileId" className={nativeSelectClassName}>
                    {files.map((file) => (
                      <option key={file.id} value={file.id}>
                        {file.name}
                      </option>
                    ))}
                  </select>
                </label>
                <Button type="submit" variant="secondary" disabled={busy}>
                  Start the workflow
                </Button>
              </IntentForm>
            ) : null}
          </>
        ) : (
          <p className="text-sm text-slate-700">The case file lives in the owner's files; ask them for a document you need.</p>
        )}
      </section>

      <section aria-labelledby="people-heading" className="space-y-2">
        <h2 id="people-heading" className="text-lg font-semibold text-slate-900">
          People
        </h2>
        {participants.length === 0 ? (
          <p className="text-sm text-slate-700">Nobody else takes part yet.</p>
        ) : (
          <ul className="space-y-1 text-sm text-slate-700">
            {participants.map((person) => (
              <li key={person.email}>
                {person.name} &lt;{person.email}&gt;{person.isMember ? "" : " (no account)"}
              </li>
            ))}
          </ul>
        )}
        {canManage ? (
          <IntentForm intent="participant" className="flex flex-wrap items-end gap-2">
            <Input label="E-mail of someone taking part" name="email" type="email" required />
            <Input label="Their name (optional)" name="name" maxLength={120} />
            <Button type="submit" variant="secondary" disabled={busy}>
              Add
            </Button>
          </IntentForm>
        ) : null}
      </section>

      {canManage ? (
        <section aria-labelledby="requests-heading" className="space-y-2">
          <h2 id="requests-heading" className="text-lg font-semibold text-slate-900">
            Ask someone for information
          </h2>
          <p className="text-sm text-slate-700">
            Send one of your forms or receive pages to anyone, with or without an account. Their answer joins the timeline and the files they send go into the case file.
          </p>
          {requests.length > 0 ? (
            <ul className="space-y-1 text-sm text-slate-700" data-testid="case-requests">
              {requests.map((request) => (
                <li key={request.id}>
                  {request.kind === "receive" ? "Receive page " : ""}“{request.title}” to {request.name} &lt;{request.email}&gt; ·{" "}
                  {request.answeredAt ? `${request.kind === "receive" ? "files sent" : "answered"} ${at.format(new Date(request.answeredAt))} UTC` : `sent ${at.format(new Date(request.sentAt))} UTC, waiting`}
                </li>
              ))}
            </ul>
          ) : null}
          {formChoices.length === 0 && pageChoices.length === 0 ? (
            <p className="text-sm text-slate-700">
              You have no forms or receive pages yet.{" "}
              <Link to="/forms" className="font-medium text-brand-700 underline">
                Make a form
              </Link>{" "}
              or{" "}
              <Link to="/receive-pages/new" className="font-medium text-brand-700 underline">
                a receive page
              </Link>
            </p>
          ) : item.status === "closed" ? null : (
            <IntentForm intent="request" className="flex flex-wrap items-end gap-2">
              <label className="text-sm text-slate-900">
                Form or receive page to send
                <select name="send" className={nativeSelectClassName}>
                  {[
                    { label: "Forms", kind: "form", choices: formChoices },
                    { label: "Receive pages", kind: "receive", choices: pageChoices },
                  ].map((group) =>
                    group.choices.length > 0 ? (
                      <optgroup key={group.kind} label={group.label}>
                        {group.choices.map((choice) => (
                          <option key={choice.id} value={`${group.kind}:${choice.id}`}>
                            {choice.title}
                          </option>
                        ))}
                      </optgroup>
                    ) : null,
                  )}
                </select>
              </label>
              <Input label="E-mail of the person asked" name="email" type="email" required />
              <Input label="Name of the person asked (optional)" name="name" maxLength={120} />
              <Input label="Message (optional)" name="message" maxLength={1000} />
              <Button type="submit" variant="secondary" disabled={busy}>
                Send
              </Button>
            </IntentForm>
          )}
        </section>
      ) : null}

      <section aria-labelledby="tasks-heading" className="space-y-2">
        <h2 id="tasks-heading" className="text-lg font-semibold text-slate-900">
          Tasks and milestones
        </h2>
        {tasks.length === 0 ? (
          <p className="text-sm text-slate-700">None yet.</p>
        ) : (
          <ul className="space-y-2" data-testid="case-tasks">
            {tasks.map((task) => (
              <li key={task.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm">
                <span>
                  <span className="font-medium text-slate-900">{task.kind === "milestone" ? "Milestone: " : ""}{task.title}</span>
                  <span className="text-slate-700">
                    {task.assignee ? ` · ${task.assignee}` : ""}
                    {task.due ? ` · due ${dateOnly.format(new Date(task.due))}` : ""}
                    {task.done ? ` · done ${at.format(new Date(task.done))} UTC` : ""}
                  </span>
                </span>
                {task.done ? null : (
                  <IntentForm intent="done" fields={{ taskId: task.id }}>
                    <Button type="submit" variant="ghost" size="sm" aria-label={`Mark “${task.title}” done`}>
                      Mark done
                    </Button>
                  </IntentForm>
                )}
              </li>
            ))}
          </ul>
        )}
        {canManage ? (
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <CsrfInput />
            <input type="hidden" name="intent" value="task" />
            <label className="text-sm text-slate-900">
              Kind
              <select name="kind" className={nativeSelectClassName} defaultValue="task">
                <option value="task">Task</option>
                <option value="milestone">Milestone</option>
              </select>
            </label>
            <Input label="What" name="title" required maxLength={200} />
            <Input label="Who (e-mail, optional)" name="assignee" type="email" />
            <Input label="Due (optional)" name="dueDate" type="date" />
            <Button type="submit" variant="secondary" disabled={busy}>
              Add
            </Button>
          </Form>
        ) : null}
      </section>

      <section aria-labelledby="timeline-heading" className="space-y-2">
        <h2 id="timeline-heading" className="text-lg font-semibold text-slate-900">
          Timeline
        </h2>
        <Form method="post" className="space-y-2">
          <CsrfInput />
          <input type="hidden" name="intent" value="comment" />
          <Textarea label="Add a comment" name="text" required maxLength={CASE_COMMENT_MAX} rows={2} description="Everyone who sees the case reads it in the timeline." />
          <Button type="submit" variant="secondary" disabled={busy}>
            Comment
          </Button>
        </Form>
        <ol className="space-y-2" data-testid="case-timeline">
          {timeline.map((event) => (
            <li key={event.id} className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm">
              <span className="font-medium text-slate-900">{EVENT_LABELS[event.kind] ?? event.kind}</span>
              {event.actor ? <span className="text-slate-700"> by {event.actor}</span> : null}
              {event.detail ? <span className="text-slate-700">: {event.detail}</span> : null}
              <span className="block text-xs text-slate-600">
                {at.format(new Date(event.at))} UTC
                {event.workflow && event.runId ? (
                  <>
                    {" · "}
                    <Link to={`/workflow-runs/${event.runId}`} className="text-brand-700 underline underline-offset-2">
                      {event.workflow}
                    </Link>
                  </>
                ) : null}
              </span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
