import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { HelpLink } from "~/features/guide/components/help-link";
import { listWorkflowSummaries } from "~/features/workflows/workflow-builder.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { currentWorkspace } from "~/features/teams/workspace.server";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Workflows");

/**
 * /workflows (spec §2 "workflows index", permission-critical: Business): the member's workflows, how
 * each starts, their runs. A room's /dataroom/{id}/workflows (its managers): the room's workflows.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const roomId = (params as { id?: string }).id ?? null;
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    // The workspace chosen in the shell (issue 42): the team's workflows, or the member's own; a room's page shows the room's.
    const workspace = roomId === null ? await currentWorkspace(ctx, user.id, request) : null;
    const workflows = await listWorkflowSummaries(ctx, user.id, roomId, roomId === null ? (workspace?.id ?? null) : undefined);
    return { workflows, inRoom: roomId !== null, workspace: workspace ? { name: workspace.name } : null };
  });
}

export default function WorkflowsPage({ loaderData }: Route.ComponentProps) {
  const { workflows, inRoom, workspace } = loaderData;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Workflows</h1>
          <HelpLink article="workflows">How workflows work</HelpLink>
          {workspace ? (
            <p className="text-sm text-slate-700" data-testid="workspace-note">
              The workflows of the team “{workspace.name}”: those working in its files and its data rooms, shared by its owner and admins. Switch to Personal (top right) for your own.
            </p>
          ) : null}
          <p className="text-sm text-slate-700">
            {inRoom
              ? "The workflows that work in this room: started by uploads into its folders, by a form or receive page filing into it, on a schedule or by hand. Its owner and admins share them; the room's audit log records their runs."
              : "Move documents through defined steps: a contract uploaded into a folder is reviewed, approved by one, all or a quorum of the people you name, and filed. Each run keeps a timeline of who decided what."}
          </p>
        </div>
        <Link to="/workflows/create" className={buttonClassName({})}>
          New workflow
        </Link>
      </div>
      {workflows.length === 0 ? (
        <div className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-700">
          <p>
            {inRoom
              ? "No workflow works in this room yet. Build one on one of its folders: say what starts it, who approves (people, or everyone with a room role), and where in the room the document goes."
              : "You have no workflow yet. Build one: say what starts it (a file uploaded into a folder, or you, by hand), who approves, and where the document goes."}
          </p>
        </div>
      ) : (
        <Table caption="Your workflows, most recently changed first" isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Workflow</TableHeaderCell>
              <TableHeaderCell>Starts</TableHeaderCell>
              <TableHeaderCell>Steps</TableHeaderCell>
              <TableHeaderCell>Runs</TableHeaderCell>
              <TableHeaderCell>Changed</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {workflows.map((workflow) => (
              <TableRow key={workflow.id} data-testid="workflow-row">
                <TableCell>
                  <Link to={`/workflows/${workflow.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {workflow.name}
                  </Link>
                  {workflow.builtBy ? <span className="block text-xs text-slate-600">A data room’s, built by {workflow.builtBy}</span> : null}
                </TableCell>
                <TableCell>{workflow.trigger}</TableCell>
                <TableCell>{workflow.steps}</TableCell>
                <TableCell>
                  {workflow.runs.toLocaleString("en-US")}
                  {workflow.running > 0 ? <span className="block text-xs text-slate-600">{workflow.running.toLocaleString("en-US")} under way</span> : null}
                </TableCell>
                <TableCell>{dateTimeFormat.format(new Date(workflow.updatedAt))} UTC</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
