import { Link, useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { checkFeature } from "~/features/access/access-check";
import { loadMemberAccess } from "~/features/access/access.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { TEAM_ROLE_LABELS } from "~/features/teams/teams.permissions";
import { TEAM_NAME_MAX } from "~/features/teams/teams.schema";
import { createTeam, listMyTeams } from "~/features/teams/teams.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Team");

/**
 * /team (spec §2 "Team: index"): the teams the member is in, and a new one for members whose plan
 * has team management (Business and above; the server refuses anyone else).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const [teams, access] = await Promise.all([listMyTeams(ctx, user.id), loadMemberAccess(ctx, user.id)]);
    return {
      teams: teams.map((team) => ({ ...team, roleLabel: TEAM_ROLE_LABELS[team.role], createdAt: team.createdAt.toISOString() })),
      canCreate: checkFeature(access, "team_management"),
      seats: access.limits.max_team_seats,
    };
  });
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(
    async () => {
      const team = await createTeam(serviceContextFor(context), user.id, { name: form.get("name") });
      return redirectWithNotice(context, `/team/${team.id}`, { type: "success", message: `The team “${team.name}” is ready. Invite the people who work with you.` });
    },
    { intent: "create" },
  );
}

export default function TeamsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { teams, canCreate, seats } = loaderData;
  const busy = useNavigation().state === "submitting";
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <div className="max-w-3xl space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Team</h1>
        <p className="text-sm text-slate-700">
          A team is the people who work together under one plan: an owner, admins who manage the people, members, and someone for billing. Each team page shows who is in it, the seats it uses,
          the invitations waiting and what happened.
        </p>
      </div>

      {teams.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-700">You are not in a team yet.{canCreate ? " Create one below." : ""}</p>
      ) : (
        <Table caption="Your teams" isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Team</TableHeaderCell>
              <TableHeaderCell>Your role</TableHeaderCell>
              <TableHeaderCell>People</TableHeaderCell>
              <TableHeaderCell>Owner</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {teams.map((team) => (
              <TableRow key={team.id} data-testid="team-row">
                <TableCell>
                  <Link to={`/team/${team.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {team.name}
                  </Link>
                </TableCell>
                <TableCell>
                  <Badge variant={team.role === "owner" ? "info" : "neutral"}>{team.roleLabel}</Badge>
                </TableCell>
                <TableCell>{team.memberCount}</TableCell>
                <TableCell>{team.ownerName}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      {canCreate ? (
        <section aria-labelledby="new-team" className="space-y-3 rounded-md border border-slate-200 bg-white p-4">
          <h2 id="new-team" className="text-lg font-semibold text-slate-900">
            New team
          </h2>
          <p className="text-sm text-slate-700">
            Your plan gives each team you own {seats === -1 ? "unlimited seats" : `${seats} seats`}: everyone in it and every invitation still open takes one.
          </p>
          <IntentForm intent="create" className="flex flex-wrap items-end gap-3" noValidate>
            <div className="min-w-64 flex-1">
              <Input label="Team name" name="name" required maxLength={TEAM_NAME_MAX} error={failure?.message} />
            </div>
            <Button type="submit" isLoading={busy}>
              Create team
            </Button>
          </IntentForm>
        </section>
      ) : (
        <Alert variant="info" title="Teams come with the Business plan">
          You can be in a team someone else owns. To create your own and invite people into it, upgrade to Business.{" "}
          <Link to="/settings/plan" className="font-medium text-brand-700 underline">
            See the plans
          </Link>
        </Alert>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
