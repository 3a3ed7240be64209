import { Link } from "react-router";
import { IntentButton } from "~/components/intent-form";
import { listTrashedForms, restoreForm } from "~/features/forms/forms-trash.server";
import { HelpLink } from "~/features/guide/components/help-link";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { buttonClassName } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { deleteForm, listForms, moveFormIntoTeam, type FormStatus } from "~/features/forms/forms.server";
import { MoveToTeamForm } from "~/features/teams/components/move-to-team-form";
import { listWorkTeams } from "~/features/teams/teams.server";
import { currentWorkspace } from "~/features/teams/workspace.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Forms");

/** /forms (spec §2 "forms list"): the member's forms, their state and their submissions. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    // The workspace chosen in the shell: a team's forms, or the member's forms of no team (issue 42).
    const workspace = await currentWorkspace(ctx, user.id, request);
    const [forms, templates, trashed, teams] = await Promise.all([
      listForms(ctx, user.id, { workspace: workspace?.id ?? null }),
      listForms(ctx, user.id, { templates: true }),
      listTrashedForms(ctx, user.id),
      // In their own workspace, the teams they could move a form into (billing people edit no forms; the server checks custom roles).
      workspace ? Promise.resolve([]) : listWorkTeams(ctx, user.id),
    ]);
    return { forms, templates, trashed, teams, workspace: workspace ? { id: workspace.id, name: workspace.name } : null };
  });
}

/** Delete a form (to the trash, 30 days) or restore one. */
export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("formId") ?? "");
  return runFormAction(
    async () => {
      if (intent === "move") {
        await moveFormIntoTeam(serviceContextFor(context), user.id, id, { teamId: form.get("teamId") });
        return redirectWithNotice(context, "/forms", { type: "success", message: "The form is in the team's workspace now: switch to the team to find it there." });
      }
      if (intent === "restore") await restoreForm(serviceContextFor(context), user.id, id);
      else await deleteForm(serviceContextFor(context), user.id, id);
      return { ok: true as const, intent };
    },
    { intent },
  );
}

const STATUS: Record<FormStatus, { label: string; variant: "success" | "neutral" | "warning" }> = {
  draft: { label: "Draft", variant: "neutral" },
  published: { label: "Published", variant: "success" },
  closed: { label: "Closed", variant: "warning" },
};
const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

export default function FormsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { forms, templates, trashed, teams, workspace } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Forms</h1>
          <HelpLink article="forms">How forms work</HelpLink>
          <p className="text-sm text-slate-700">Forms people fill in without an account: client intake, KYC requests, NDAs before a data room, job applications. Build one with logic, try it in test mode, publish it and read the answers here.</p>
          {workspace ? (
            <p className="text-sm text-slate-700" data-testid="workspace-note">
              The forms of the team “{workspace.name}”: its people work on them by their team role, and a new form is made in the team. Switch to Personal (top right) for your own.
            </p>
          ) : null}
        </div>
        <Link to="/forms/create" className={buttonClassName({})}>
          New form
        </Link>
      </div>
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      {forms.length === 0 ? (
        <div className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-700">
          <p>{workspace ? "The team has no form yet." : "You have no form yet."} Start from a template (client intake, NDA request, KYC, job application and more) or from a blank page.</p>
        </div>
      ) : (
        <Table caption="Your forms, most recently changed first" isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Form</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Submissions</TableHeaderCell>
              <TableHeaderCell>Changed</TableHeaderCell>
              <TableHeaderCell>
                <span className="sr-only">Actions</span>
              </TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {forms.map((form) => (
              <TableRow key={form.id} data-testid="form-row">
                <TableCell>
                  <Link to={`/forms/${form.id}/edit`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {form.title}
                  </Link>
                  {form.hasUnpublishedChanges ? <span className="ml-2 text-xs text-slate-600">unpublished changes</span> : null}
                </TableCell>
                <TableCell>
                  <Badge variant={STATUS[form.status].variant}>{STATUS[form.status].label}</Badge>
                  {form.publishedVersion ? <span className="ml-2 text-xs text-slate-600">version {form.publishedVersion}</span> : null}
                </TableCell>
                <TableCell>
                  <Link to={`/forms/${form.id}/submissions`} className="text-brand-700 underline-offset-2 hover:underline" aria-label={`${form.submissions} submissions of ${form.title}`}>
                    {form.submissions.toLocaleString("en-US")}
                  </Link>
                  {form.lastSubmissionAt ? <span className="block text-xs text-slate-600">last {at(form.lastSubmissionAt)}</span> : null}
                </TableCell>
                <TableCell>{at(form.updatedAt)}</TableCell>
                <TableCell>
                  <div className="flex flex-wrap gap-2">
                    <Link to={`/forms/${form.id}/preview`} className={buttonClassName({ variant: "ghost", size: "sm" })} aria-label={`Preview ${form.title}`}>
                      Preview
                    </Link>
                    {form.publishedVersion ? (
                      <Link to={`/forms/${form.id}/dashboard`} className={buttonClassName({ variant: "ghost", size: "sm" })} aria-label={`Dashboard of ${form.title}`}>
                        Dashboard
                      </Link>
                    ) : null}
                    {form.publicPath ? (
                      <a href={form.publicPath} target="_blank" rel="noreferrer" className={buttonClassName({ variant: "ghost", size: "sm" })} aria-label={`Open the public form of ${form.title} (new tab)`}>
                        Open
                      </a>
                    ) : null}
                    <IntentButton intent="delete" fields={{ formId: form.id }} label="Delete" ariaLabel={`Delete ${form.title} (to the trash for 30 days)`} />
                    {teams.length > 0 ? (
                      <MoveToTeamForm field="formId" id={form.id} title={form.title} teams={teams} />
                    ) : null}
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {trashed.length > 0 ? (
        <section className="space-y-2" aria-labelledby="deleted-forms">
          <h2 id="deleted-forms" className="text-lg font-semibold text-slate-900">
            Deleted forms
          </h2>
          <p className="text-sm text-slate-700">Kept for 30 days, then deleted for good with their submissions. Their public addresses answer “not found” meanwhile.</p>
          <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" data-testid="deleted-forms">
            {trashed.map((form) => (
              <li key={form.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span>
                  {form.title} <span className="text-slate-600">· {form.daysLeft} days left</span>
                </span>
                <IntentButton intent="restore" fields={{ formId: form.id }} label="Restore" ariaLabel={`Restore ${form.title}`} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {templates.length > 0 ? (
        <section className="space-y-2" aria-labelledby="own-templates">
          <h2 id="own-templates" className="text-lg font-semibold text-slate-900">
            Your templates
          </h2>
          <ul className="flex flex-wrap gap-2">
            {templates.map((template) => (
              <li key={template.id}>
                <Link to={`/forms/${template.id}/edit`} className={buttonClassName({ variant: "secondary", size: "sm" })} aria-label={`Use template ${template.title}`}>
                  {template.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
