import { useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { RoomLiveUpdates } from "~/features/datarooms/components/room-live-updates";
import { listRoomSessions, removeMember } from "~/features/datarooms/members.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { formatUtc } from "~/lib/format-utc";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/sessions";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Sessions of ${loaderData.dataroom.name}` : "Data room sessions") }];

/** /dataroom/{id}/sessions: who has the room open now, from its Durable Object (manage_members; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => {
    const { dataroom, sessions } = await listRoomSessions(serviceContextFor(context), user.id, params.id);
    return {
      dataroom: { id: dataroom.id, name: dataroom.name },
      sessions: sessions.map((session) => ({ ...session, isYou: session.userId === user.id, sinceText: formatUtc(new Date(session.since)) })),
    };
  });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const target = String(form.get("user_id") ?? "");
  const name = String(form.get("name") ?? "").slice(0, 100);
  return runFormAction(
    async () => {
      await removeMember(serviceContextFor(context), user.id, params.id, target);
      return redirectWithNotice(context, `/dataroom/${params.id}/sessions`, { type: "success", message: `${name || "They"} no longer ${name ? "has" : "have"} access. Their open pages were closed.` });
    },
    { intent: "end" },
  );
}

export default function DataroomSessionsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { dataroom, sessions } = loaderData;
  const navigation = useNavigation();
  const ending = navigation.state === "submitting" ? String(navigation.formData?.get("user_id") ?? "") : null;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null;
  return (
    <div className="space-y-6">
      <RoomLiveUpdates roomId={dataroom.id} reloadOnPresence />
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Sessions</h1>
        <p className="max-w-3xl text-sm text-slate-700">
          Who has this room open right now, as the room's server sees it. Ending someone's access removes them from the room: their open pages close at once and every
          later request is refused.
        </p>
      </div>
      {failure ? <Alert variant="error">{failure}</Alert> : null}
      <Table caption="People with this room open now" isCaptionHidden>
        <TableHead>
          <TableRow>
            <TableHeaderCell>Person</TableHeaderCell>
            <TableHeaderCell>Role</TableHeaderCell>
            <TableHeaderCell>Open pages</TableHeaderCell>
            <TableHeaderCell>Since</TableHeaderCell>
            <TableHeaderCell>Actions</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {sessions.map((session) => (
            <TableRow key={session.userId} data-testid="room-session">
              <TableCell>
                <span className="font-medium text-slate-900">{session.name}</span>
                {session.isYou ? <span className="text-slate-600"> (you)</span> : null}
                {session.email ? <span className="block text-xs text-slate-600">{session.email}</span> : null}
              </TableCell>
              <TableCell>
                <Badge variant={session.role === "owner" ? "brand" : "neutral"}>{session.roleLabel}</Badge>
              </TableCell>
              <TableCell>{session.connections}</TableCell>
              <TableCell>{session.sinceText}</TableCell>
              <TableCell>
                {session.canEnd ? (
                  <IntentForm intent="end" fields={{ user_id: session.userId, name: session.name }}>
                    <Button type="submit" size="sm" variant="danger" isLoading={ending === session.userId} aria-label={`End access of ${session.name}`}>
                      End access
                    </Button>
                  </IntentForm>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {sessions.length === 0 ? <p className="text-sm text-slate-700">Nobody has the room open right now.</p> : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
