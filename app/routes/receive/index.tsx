import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { MoveToTeamForm } from "~/features/teams/components/move-to-team-form";
import { listWorkTeams } from "~/features/teams/teams.server";
import { HelpLink } from "~/features/guide/components/help-link";
import { Badge } from "~/components/ui/badge";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { getReceivePagePlan, listReceivePages, moveReceivePageIntoTeam } from "~/features/receive/receive.server";
import { currentWorkspace } from "~/features/teams/workspace.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Receive pages");

/** /receive-pages: the member's public upload pages, where their files go and whether they are open. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    // The workspace chosen in the shell: a team's pages, or the member's pages of no team (issue 42).
    const workspace = await currentWorkspace(ctx, user.id, request);
    const [pages, plan, teams] = await Promise.all([
      listReceivePages(ctx, user.id, { workspace: workspace?.id ?? null }),
      getReceivePagePlan(ctx, user.id),
      // In their own workspace, the teams they could move a page into (the server checks the right).
      workspace ? Promise.resolve([]) : listWorkTeams(ctx, user.id),
    ]);
    return { pages, teams, limit: plan.limit, count: plan.count, tierLabel: plan.tierLabel, workspace: workspace ? { id: workspace.id, name: workspace.name } : null };
  });
}

/** Moves one of the member's pages into a team's workspace (issue 42). */
export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    await moveReceivePageIntoTeam(serviceContextFor(context), user.id, form.get("pageId"), { teamId: form.get("teamId") });
    return redirectWithNotice(context, "/receive-pages", { type: "success", message: "The page is in the team's workspace now: switch to the team to find it there." });
  });
}

const STATUS = { open: "success", closed: "neutral", "past deadline": "warning" } as const;
const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

export default function ReceivePagesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { pages, teams, limit, count, tierLabel, workspace } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  // The plan counts the pages the member made, wherever they are.
  const isFull = limit !== -1 && count >= limit;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Receive pages</h1>
          <HelpLink article="receive-pages">How receive pages work</HelpLink>
          <p className="text-sm text-slate-700">Public pages where anyone with the address sends you files, straight into a folder of yours or of a data room: a client's papers, a candidate's CV.</p>
          {workspace ? (
            <p className="text-sm text-slate-700" data-testid="workspace-note">
              The receive pages of the team “{workspace.name}”: its people work on them by their team role, and a new page is made in the team. Switch to Personal (top right) for your own.
            </p>
          ) : null}
          <p className="text-sm text-slate-600">{limit === -1 ? `You made ${count} pages.` : `You made ${count} of the ${limit} your ${tierLabel} plan allows.`}</p>
        </div>
        {isFull ? (
          <a href="/settings/plan" className={buttonClassName({ variant: "secondary" })}>
            Upgrade for more pages
          </a>
        ) : (
          <a href="/receive-pages/new" className={buttonClassName({})}>
            New receive page
          </a>
        )}
      </div>
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      {pages.length === 0 ? (
        <p className="text-sm text-slate-700">{workspace ? "The team has no receive page yet." : "You have no receive page yet."}</p>
      ) : (
        <Table caption="Your receive pages, newest first" isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Page</TableHeaderCell>
              <TableHeaderCell>Files go to</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Address</TableHeaderCell>
              <TableHeaderCell>Created</TableHeaderCell>
              {teams.length > 0 ? <TableHeaderCell>Team</TableHeaderCell> : null}
            </tr>
          </TableHead>
          <TableBody>
            {pages.map((page) => (
              <TableRow key={page.id} data-testid="receive-page-row">
                <TableCell>
                  <a href={`/receive-pages/${page.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {page.title}
                  </a>
                  <span className="ml-2 text-xs text-slate-600">{page.kind === "form" ? "form" : "simple"}</span>
                </TableCell>
                <TableCell>
                  {page.destination.spaceName}: {page.destination.folderLabel ?? "a deleted folder"}
                </TableCell>
                <TableCell>
                  <Badge variant={STATUS[page.status]}>{page.status === "open" ? "Open" : page.status === "closed" ? "Closed" : "Past deadline"}</Badge>
                </TableCell>
                <TableCell className="font-mono text-xs">{page.path}</TableCell>
                <TableCell>{at(page.createdAt)}</TableCell>
                {teams.length > 0 ? (
                  <TableCell>
                    <MoveToTeamForm field="pageId" id={page.id} title={page.title} teams={teams} />
                  </TableCell>
                ) : null}
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
