import { Form, Link, redirect, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { getWorkflow } from "~/features/workflows/workflow-builder.server";
import { RUN_STATUS } from "~/features/workflows/workflow-labels";
import { startRun } from "~/features/workflows/workflows.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/workflow";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData?.workflow.name ?? "Workflow");

/** /workflows/{id} (Business; its builder, or for a data room's workflow the room's managers): the steps in words, how it starts, its latest runs; start one by hand on a document. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getWorkflow(serviceContextFor(context), user.id, params.id));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    const run = await startRun(serviceContextFor(context), user.id, params.id, { fileId: form.get("fileId") });
    return redirect(`/workflow-runs/${run.id}`);
  });
}

export default function WorkflowPage({ loaderData, actionData }: Route.ComponentProps) {
  const { workflow, steps, runs, documents } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <div className="space-y-1">
        <Link to="/workflows" className="text-sm text-brand-700 underline-offset-2 hover:underline">
          ← Workflows
        </Link>
        <h1 className="text-2xl font-semibold text-slate-900">{workflow.name}</h1>
        <p className="text-sm text-slate-700" data-testid="workflow-trigger">
          Starts: {workflow.trigger}.
        </p>
        {workflow.builtBy ? (
          <p className="text-sm text-slate-700" data-testid="workflow-builder">
            Built by {workflow.builtBy}. You manage its data room, so you can start it and cancel its runs; it acts with its builder’s rights.
          </p>
        ) : null}
      </div>
      {actionData && "message" in actionData ? <Alert variant="error">{actionData.message}</Alert> : null}
      <section aria-labelledby="steps-heading" className="space-y-2">
        <h2 id="steps-heading" className="text-lg font-semibold text-slate-900">
          Steps
        </h2>
        <ol className="space-y-2" data-testid="workflow-steps">
          {steps.map((step, index) => (
            <li key={index} className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm">
              <span className="font-medium text-slate-900">
                {index + 1}. {step.name}
              </span>
              <span className="block text-slate-700">{step.summary}</span>
              {step.secret ? (
                <span className="mt-1 block text-xs text-slate-600">
                  Signing secret (check the <code>Strongroom-Signature</code> header with it, as for a form’s webhooks): <code className="break-all text-slate-900">{step.secret}</code>
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="start-heading" className="space-y-2">
        <h2 id="start-heading" className="text-lg font-semibold text-slate-900">
          Start a run by hand
        </h2>
        {documents.length === 0 ? (
          <p className="text-sm text-slate-700">{workflow.inRoom ? "Its data room holds no document yet." : "Your files hold no document yet."} Upload one, then start a run on it here.</p>
        ) : (
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <CsrfInput />
            <label className="min-w-72 flex-1 text-sm text-slate-900">
              Document
              <select name="fileId" className={nativeSelectClassName} required>
                {documents.map((document) => (
                  <option key={document.id} value={document.id}>
                    {document.name}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" isLoading={busy}>
              Start a run
            </Button>
          </Form>
        )}
      </section>
      <section aria-labelledby="runs-heading" className="space-y-2">
        <h2 id="runs-heading" className="text-lg font-semibold text-slate-900">
          Runs
        </h2>
        {runs.length === 0 ? (
          <p className="text-sm text-slate-700">No run yet.</p>
        ) : (
          <Table caption="The latest runs of this workflow, newest first" isCaptionHidden>
            <TableHead>
              <tr>
                <TableHeaderCell>Document</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Started</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {runs.map((run) => {
                const status = RUN_STATUS[run.status] ?? { label: run.status, variant: "neutral" as BadgeVariant };
                return (
                  <TableRow key={run.id} data-testid="workflow-run-row">
                    <TableCell>
                      <Link to={`/workflow-runs/${run.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                        {run.document ?? "A document that is gone"}
                      </Link>
                      {run.byUpload ? <span className="block text-xs text-slate-600">started by its upload</span> : null}
                    </TableCell>
                    <TableCell>
                      <Badge variant={status.variant}>{status.label}</Badge>
                      {run.status === "running" && run.step ? <span className="block text-xs text-slate-600">at {run.step}</span> : null}
                    </TableCell>
                    <TableCell>{dateTimeFormat.format(new Date(run.startedAt))} UTC</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
