import { Form, Link, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Textarea } from "~/components/ui/textarea";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { RUN_EVENT_LABELS, RUN_STATUS } from "~/features/workflows/workflow-labels";
import { cancelRun, decideTask, getRun } from "~/features/workflows/workflows.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/run";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `${loaderData.workflow.name} run` : "Workflow run");

const at = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

/** /workflow-runs/{id} (issue 41): where a run stands, who must act, its timeline; the viewer's own task to decide; cancel for whoever started it, built its workflow, or manages its data room. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getRun(serviceContextFor(context), user.id, params.id));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ctx = serviceContextFor(context);
  const here = `/workflow-runs/${params.id}`;
  return runFormAction(
    async () => {
      if (intent === "approve" || intent === "reject") {
        await decideTask(ctx, user.id, form.get("taskId"), { decision: intent, comment: String(form.get("comment") ?? "").trim() || null });
        return redirectWithNotice(context, here, { type: "success", message: intent === "approve" ? "Approved. The workflow goes on." : "Rejected. The workflow is told." });
      }
      if (intent === "cancel") {
        await cancelRun(ctx, user.id, params.id);
        return redirectWithNotice(context, here, { type: "success", message: "The run is cancelled." });
      }
      throw new AppError("VALIDATION_ERROR", "Unknown action. Reload the page and try again.");
    },
    { intent },
  );
}

export default function WorkflowRun({ loaderData, actionData }: Route.ComponentProps) {
  const { run, workflow, timeline, canCancel, myTask, document, submission, isAboutSubmission } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const busy = useNavigation().state === "submitting";
  const status = RUN_STATUS[run.status] ?? { label: run.status, variant: "neutral" as BadgeVariant };
  const current = workflow.steps[run.stepIndex];
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold text-slate-900">{workflow.name}</h1>
          <Badge variant={status.variant} data-testid="run-status">
            {status.label}
          </Badge>
        </div>
        <p className="text-sm text-slate-700">
          {run.status === "running" && current ? `Step ${run.stepIndex + 1} of ${workflow.steps.length}${run.round > 1 ? ` (round ${run.round})` : ""}: ${current.name}.` : `${workflow.steps.length} step${workflow.steps.length === 1 ? "" : "s"}.`}
        </p>
      </header>
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      {isAboutSubmission ? (
        <p className="text-sm text-slate-700" data-testid="run-submission">
          {submission ? (
            <>
              About:{" "}
              <Link to={submission.link} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                {submission.label}
              </Link>
            </>
          ) : (
            "This run is about a submission to a form or a receive page; what was sent is for its owner to share."
          )}
        </p>
      ) : null}
      <p className="text-sm text-slate-700" data-testid="run-document">
        {document ? (
          <>
            Document:{" "}
            <Link to={`/files/${document.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
              {document.name}
            </Link>
          </>
        ) : isAboutSubmission && submission ? (
          "It brought no document into your files."
        ) : (
          "The document is not shared with you. Ask whoever started this run to share it if you need to read it before deciding."
        )}
      </p>
      {myTask ? (
        <section aria-labelledby="task-heading" className="space-y-3 rounded-lg border border-brand-200 bg-white p-4">
          <h2 id="task-heading" className="text-lg font-semibold text-slate-900">
            Your decision: {myTask.step}
          </h2>
          {/* One form, two decisions: the button pressed is the intent. */}
          <Form method="post" className="space-y-3">
            <CsrfInput />
            <input type="hidden" name="taskId" value={myTask.id} />
            <Textarea label="Comment (optional)" name="comment" rows={3} maxLength={2000} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" name="intent" value="approve" isLoading={busy}>
                Approve
              </Button>
              <Button type="submit" name="intent" value="reject" variant="danger" disabled={busy}>
                Reject
              </Button>
            </div>
          </Form>
        </section>
      ) : null}
      <section aria-labelledby="timeline-heading" className="space-y-2">
        <h2 id="timeline-heading" className="text-lg font-semibold text-slate-900">
          Timeline
        </h2>
        <ol className="space-y-2" data-testid="run-timeline">
          {timeline.map((event) => (
            <li key={event.id} className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm">
              <span className="font-medium text-slate-900">{RUN_EVENT_LABELS[event.kind] ?? event.kind}</span>
              {event.actor ? <span className="text-slate-700"> by {event.actor}</span> : null}
              {event.detail ? <span className="text-slate-700">: {event.detail}</span> : null}
              <span className="block text-xs text-slate-600">{at.format(new Date(event.at))} UTC</span>
            </li>
          ))}
        </ol>
      </section>
      {canCancel ? (
        <IntentForm intent="cancel">
          <Button type="submit" variant="secondary">
            Cancel this run
          </Button>
        </IntentForm>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
