import { Form, Link, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { documentsByIds } from "~/features/workflows/workflow-builder.server";
import { listWorkflows, SELECTION_MAX, startRunsOnSelection } from "~/features/workflows/workflows.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/start";

export const meta: Route.MetaFunction = () => titleMeta("Start a workflow");

/** /workflows/start?files=… (Business): the file manager's "Start a workflow" on selected documents; one run each. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ids = (new URL(request.url).searchParams.get("files") ?? "").split(",").filter(Boolean).slice(0, SELECTION_MAX);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const [workflows, documents] = await Promise.all([listWorkflows(ctx, user.id), documentsByIds(ctx, user.id, ids)]);
    // One key per page: pressing Start twice starts each document's run once.
    // The selection is of the member's own files: a data room's workflows run on the room's documents.
    return { workflows: workflows.filter((workflow) => !workflow.inRoom).map((workflow) => ({ id: workflow.id, name: workflow.name, steps: workflow.steps.map((step) => step.name).join(" → ") })), documents, key: crypto.randomUUID() };
  });
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    const { started, workflowId } = await startRunsOnSelection(serviceContextFor(context), user.id, form.get("workflowId"), { fileIds: form.getAll("fileId"), key: form.get("key") });
    return redirectWithNotice(context, `/workflows/${workflowId}`, { type: "success", message: `Started ${started} run${started === 1 ? "" : "s"}.` });
  });
}

export default function StartWorkflowPage({ loaderData, actionData }: Route.ComponentProps) {
  const { workflows, documents, key } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="space-y-1">
        <Link to="/workflows" className="text-sm text-brand-700 underline-offset-2 hover:underline">
          ← Workflows
        </Link>
        <h1 className="text-2xl font-semibold text-slate-900">Start a workflow</h1>
        <p className="text-sm text-slate-700">Each document gets a run of its own.</p>
      </div>
      {actionData && "message" in actionData ? <Alert variant="error">{actionData.message}</Alert> : null}
      {documents.length === 0 ? (
        <p className="text-sm text-slate-700">No document of yours was chosen. Select documents in your files and choose Start a workflow.</p>
      ) : workflows.length === 0 ? (
        <p className="text-sm text-slate-700">
          You have no workflow yet.{" "}
          <Link to="/workflows/create" className="font-medium text-brand-700 underline">
            Build one
          </Link>
        </p>
      ) : (
        <Form method="post" className="space-y-4">
          <CsrfInput />
          <input type="hidden" name="key" value={key} />
          <fieldset className="space-y-1 rounded-md border border-slate-300 bg-white p-4">
            <legend className="px-1 text-sm font-semibold text-slate-900">Documents</legend>
            <ul className="text-sm text-slate-700" data-testid="start-documents">
              {documents.map((document) => (
                <li key={document.id}>
                  <input type="hidden" name="fileId" value={document.id} />
                  {document.name}
                </li>
              ))}
            </ul>
          </fieldset>
          <fieldset className="space-y-2 rounded-md border border-slate-300 bg-white p-4">
            <legend className="px-1 text-sm font-semibold text-slate-900">Workflow</legend>
            {workflows.map((workflow, index) => (
              <label key={workflow.id} className="flex items-start gap-2 text-sm text-slate-900">
                <input type="radio" name="workflowId" value={workflow.id} defaultChecked={index === 0} className="mt-1" />
                <span>
                  {workflow.name}
                  <span className="block text-xs text-slate-600">{workflow.steps}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <Button type="submit" isLoading={busy}>
            Start
          </Button>
        </Form>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
