import { Link, useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentButton } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { RoleEditor } from "~/features/teams/components/role-editor";
import { rolePermissionLabel } from "~/features/teams/team-roles.catalog";
import { createTeamRole, deleteTeamRole, listTeamRoles, updateTeamRole } from "~/features/teams/team-roles.server";
import { TeamRoleDescriptions } from "~/features/teams/components/team-role-descriptions";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/roles";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Roles of ${loaderData.team.name}` : "Team roles");

/** /team/{id}/roles: the built-in roles and the team's custom roles; the owner and admins create, edit and delete them (team.roles.manage). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => listTeamRoles(serviceContextFor(context), user.id, params.id));
}

function roleInput(form: FormData) {
  return { name: form.get("name"), description: form.get("description") ?? "", permissions: form.getAll("permissions").map(String) };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const roleId = String(form.get("roleId") ?? "");
  const here = `/team/${params.id}/roles`;
  return runFormAction(
    async () => {
      const ctx = serviceContextFor(context);
      switch (intent) {
        case "create": {
          const role = await createTeamRole(ctx, user.id, params.id, roleInput(form));
          return redirectWithNotice(context, here, { type: "success", message: `The role “${role.name}” is ready. Give it to someone on the team's page.` });
        }
        case "update": {
          const role = await updateTeamRole(ctx, user.id, params.id, roleId, roleInput(form));
          const who = role.holders === 0 ? "" : ` ${role.holders === 1 ? "The person who holds it has" : `The ${role.holders} people who hold it have`} its permissions in the team's rooms now.`;
          return redirectWithNotice(context, here, { type: "success", message: `“${role.name}” saved.${who}` });
        }
        case "delete":
          await deleteTeamRole(ctx, user.id, params.id, roleId);
          return redirectWithNotice(context, here, { type: "success", message: "Role deleted." });
        default:
          return redirectWithNotice(context, here, { type: "error", message: "That action is not known. Reload the page and try again." });
      }
    },
    { intent: `${intent}:${roleId}` },
  );
}

export default function TeamRolesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { team, roles, groups, limit } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? `${String(navigation.formData?.get("intent") ?? "")}:${String(navigation.formData?.get("roleId") ?? "")}` : null;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const failedIntent = failure && "intent" in failure ? String(failure.intent) : null;
  const errorFor = (key: string) => (failure && failedIntent === key ? failure.message : undefined);

  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <div className="space-y-1">
        <Link to={`/team/${team.id}`} className="text-sm text-brand-700 underline-offset-2 hover:underline">
          ← {team.name}
        </Link>
        <h1 className="text-2xl font-semibold text-slate-900">Roles of {team.name}</h1>
        <p className="text-sm text-slate-700">
          A custom role says exactly what its holders may do in the team's data rooms and in the team. Give it to a member on the team's page; when you change it, everyone who holds it
          has the new permissions at once. Every change is in the team's activity.
        </p>
      </div>

      {failure && failedIntent?.startsWith("delete") ? <Alert variant="error">{failure.message}</Alert> : null}

      <section aria-labelledby="built-in" className="space-y-2">
        <h2 id="built-in" className="text-lg font-semibold text-slate-900">
          Built-in roles
        </h2>
        <TeamRoleDescriptions />
      </section>

      <section aria-labelledby="custom" className="space-y-3">
        <h2 id="custom" className="text-lg font-semibold text-slate-900">
          Custom roles
        </h2>
        {roles.length === 0 ? <p className="text-sm text-slate-700">The team has no custom role yet.</p> : null}
        <ul className="space-y-3" aria-label="Custom roles">
          {roles.map((role) => (
            <li key={role.id} className="space-y-2 rounded-md border border-slate-200 bg-white p-4" data-testid="custom-role">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div>
                  <h3 className="font-semibold text-slate-900">{role.name}</h3>
                  {role.description ? <p className="text-sm text-slate-700">{role.description}</p> : null}
                  <p className="text-xs text-slate-600">
                    {role.holders === 0 ? "Nobody holds it" : role.holders === 1 ? "Held by 1 person" : `Held by ${role.holders} people`} · {role.permissions.map(rolePermissionLabel).join(", ")}
                  </p>
                </div>
                {role.holders === 0 ? (
                  <IntentButton intent="delete" fields={{ roleId: role.id }} variant="danger" label="Delete" ariaLabel={`Delete the role ${role.name}`} />
                ) : (
                  <span className="text-xs text-slate-600">Give its holders another role to delete it.</span>
                )}
              </div>
              <details open={failedIntent === `update:${role.id}`}>
                <summary className="cursor-pointer text-sm font-medium text-brand-700">Edit {role.name}</summary>
                <div className="pt-3">
                  <RoleEditor
                    intent="update"
                    roleId={role.id}
                    groups={groups}
                    initial={role}
                    submitLabel="Save role"
                    isBusy={busy === `update:${role.id}`}
                    error={errorFor(`update:${role.id}`)}
                  />
                </div>
              </details>
            </li>
          ))}
        </ul>
      </section>

      {roles.length < limit ? (
        <section aria-labelledby="new-role" className="space-y-3 rounded-md border border-slate-200 bg-white p-4">
          <h2 id="new-role" className="text-lg font-semibold text-slate-900">
            New role
          </h2>
          <RoleEditor intent="create" groups={groups} submitLabel="Create role" isBusy={busy === "create:"} error={errorFor("create:")} />
        </section>
      ) : (
        <p className="text-sm text-slate-700">The team has {limit} custom roles, the most it can have. Delete one nobody holds to make another.</p>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
