import { Link, useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { Textarea } from "~/components/ui/textarea";
import { publicOrigin } from "~/features/auth/auth-context.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { dateTimeFormat } from "~/features/files/components/organized-file-table";
import { inviteToTeam, resendTeamInvitation, revokeTeamInvitation } from "~/features/teams/team-invitations.server";
import { TeamRoleDescriptions } from "~/features/teams/components/team-role-descriptions";
import { ASSIGNABLE_TEAM_ROLES, mayManageRole, TEAM_ROLE_LABELS } from "~/features/teams/teams.permissions";
import { MAX_RETENTION_DAYS, retentionLabel, TEAM_NAME_MAX } from "~/features/teams/teams.schema";
import { placeLegalHold, releaseLegalHold, setLogRetention } from "~/features/teams/team-retention.server";
import { createTeamRoom } from "~/features/teams/team-rooms.server";
import { changeTeamRole, getTeam, leaveTeam, removeTeamMember, renameTeam, transferTeamOwnership } from "~/features/teams/teams.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/team";
import { ConfirmIntentButton } from "~/components/confirm-intent-button";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Team ${loaderData.team.name}` : "Team");

/** What each action in the team's activity reads as. */
const ACTIONS: Record<string, string> = {
  "team.create": "created the team",
  "team.rename": "renamed the team",
  "team.transfer": "handed the team over to",
  "room.create": "created the data room",
  "room.move": "moved into the team the data room",
  "invitation.send": "invited",
  "invitation.resend": "sent the invitation again to",
  "invitation.revoke": "withdrew the invitation of",
  "member.join": "joined",
  "member.role": "changed the role of",
  "member.remove": "removed",
  "member.leave": "left the team",
  "role.create": "created the role",
  "role.update": "changed the role",
  "role.delete": "deleted the role",
  "logs.retention": "set how long logs are kept",
  "logs.hold": "placed a legal hold",
  "logs.release": "released the legal hold",
  "logs.prune": "removed old log entries",
};

/** The role picker's value: a system role, or `custom:<id>` (a member with that custom role). */
function roleChoice(value: FormDataEntryValue | null): { role: string; customRoleId: string | null } {
  const text = String(value ?? "");
  return text.startsWith("custom:") ? { role: "member", customRoleId: text.slice("custom:".length) } : { role: text, customRoleId: null };
}

/** /team/{id} (spec §2 "Team: show"): its people and roles, seats, pending invitations, activity; what the caller's role allows. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(() => getTeam(serviceContextFor(context), user.id, params.id));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const here = `/team/${params.id}`;
  return runFormAction(
    async () => {
      const ctx = serviceContextFor(context);
      const origin = publicOrigin(ctx.env, request);
      switch (intent) {
        case "room": {
          const room = await createTeamRoom(ctx, user.id, params.id, { name: form.get("roomName"), description: form.get("roomDescription") ?? "" });
          return redirectWithNotice(context, `/dataroom/${room.id}`, { type: "success", message: `“${room.name}” is ready; the team's people are in it.` });
        }
        case "rename": {
          const { name } = await renameTeam(ctx, user.id, params.id, { name: form.get("name") });
          return redirectWithNotice(context, here, { type: "success", message: `The team is now called “${name}”.` });
        }
        case "invite": {
          const result = await inviteToTeam(ctx, user.id, params.id, { emails: form.get("emails"), ...roleChoice(form.get("role")), message: form.get("message") }, origin);
          const skipped = result.alreadyMembers.length > 0 ? ` Already in the team: ${result.alreadyMembers.join(", ")}.` : "";
          return redirectWithNotice(context, here, { type: "success", message: `Invitation sent to ${result.invited.join(", ")}.${skipped}` });
        }
        case "resend":
          await resendTeamInvitation(ctx, user.id, params.id, form.get("invitationId"), origin);
          return redirectWithNotice(context, here, { type: "success", message: "Invitation sent again with a new link." });
        case "revoke":
          await revokeTeamInvitation(ctx, user.id, params.id, form.get("invitationId"));
          return redirectWithNotice(context, here, { type: "success", message: "Invitation withdrawn: its link no longer works." });
        case "role": {
          const { label } = await changeTeamRole(ctx, user.id, params.id, form.get("userId"), roleChoice(form.get("role")));
          return redirectWithNotice(context, here, { type: "success", message: `Role changed to ${label}.` });
        }
        case "retention": {
          const { days } = await setLogRetention(ctx, user.id, params.id, { days: form.get("days") });
          return redirectWithNotice(context, here, { type: "success", message: `Logs are kept ${retentionLabel(days)}.` });
        }
        case "hold":
          await placeLegalHold(ctx, user.id, params.id, { reason: form.get("reason") });
          return redirectWithNotice(context, here, { type: "success", message: "Legal hold placed: nothing is removed from the team's logs while it stands." });
        case "release":
          await releaseLegalHold(ctx, user.id, params.id);
          return redirectWithNotice(context, here, { type: "success", message: "Legal hold released." });
        case "remove":
          await removeTeamMember(ctx, user.id, params.id, form.get("userId"));
          return redirectWithNotice(context, here, { type: "success", message: "Removed from the team." });
        case "transfer":
          await transferTeamOwnership(ctx, user.id, params.id, { userId: form.get("userId") });
          return redirectWithNotice(context, here, { type: "success", message: "The team has a new owner. You stay in it as an admin." });
        case "leave":
          await leaveTeam(ctx, user.id, params.id);
          return redirectWithNotice(context, "/team", { type: "success", message: "You left the team." });
        default:
          return redirectWithNotice(context, here, { type: "error", message: "That action is not known. Reload the page and try again." });
      }
    },
    { intent: `${intent}:${String(form.get("userId") ?? form.get("invitationId") ?? "")}` },
  );
}

const when = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

export default function TeamPage({ loaderData, actionData }: Route.ComponentProps) {
  const { team, me, members, seats, invitations, activity, rooms, customRoles, logs, drive } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? `${String(navigation.formData?.get("intent") ?? "")}:${String(navigation.formData?.get("userId") ?? navigation.formData?.get("invitationId") ?? "")}` : null;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const failedIntent = failure && "intent" in failure ? String(failure.intent) : null;
  const can = (permission: string) => (me.permissions as string[]).includes(permission);
  const seatsLeft = seats.total === -1 ? null : Math.max(0, seats.total - seats.taken);
  const others = members.filter((member) => member.userId !== me.userId);

  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <div className="space-y-1">
        <Link to="/team" className="text-sm text-brand-700 underline-offset-2 hover:underline">
          ← Teams
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold text-slate-900">{team.name}</h1>
          <Badge variant="info">You: {me.customRoleName ?? TEAM_ROLE_LABELS[me.role]}</Badge>
        </div>
        <p className="text-sm text-slate-700" data-testid="team-seats">
          {seats.total === -1 ? `${seats.taken} seats in use (unlimited)` : `${seats.taken} of ${seats.total} seats in use`}: everyone in the team and every open invitation takes one.
        </p>
      </div>

      {failure && !["invite", "rename", "room", "retention", "hold"].some((kind) => failedIntent?.startsWith(kind)) ? <Alert variant="error">{failure.message}</Alert> : null}

      <section aria-labelledby="people" className="space-y-3">
        <h2 id="people" className="text-lg font-semibold text-slate-900">
          People
        </h2>
        <Table caption="People in the team and their roles" isCaptionHidden>
          <TableHead>
            <tr>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Role</TableHeaderCell>
              <TableHeaderCell>Joined</TableHeaderCell>
              {can("team.members.manage") ? <TableHeaderCell>Change</TableHeaderCell> : null}
            </tr>
          </TableHead>
          <TableBody>
            {members.map((member) => {
              const manageable = can("team.members.manage") && member.userId !== me.userId && mayManageRole(me.role, member.role);
              return (
                <TableRow key={member.userId} data-testid="team-member">
                  <TableCell>
                    <span className="font-medium text-slate-900">{member.name}</span>
                    <span className="block text-xs text-slate-600">{member.email}</span>
                  </TableCell>
                  <TableCell>{member.roleLabel}</TableCell>
                  <TableCell>{when(member.joinedAt)}</TableCell>
                  {can("team.members.manage") ? (
                    <TableCell>
                      {manageable ? (
                        <div className="flex flex-wrap items-center gap-2">
                          <IntentForm intent="role" fields={{ userId: member.userId }} className="flex items-center gap-2">
                            <label className="sr-only" htmlFor={`role-${member.userId}`}>
                              Role of {member.name}
                            </label>
                            <select id={`role-${member.userId}`} name="role" defaultValue={member.customRoleId ? `custom:${member.customRoleId}` : member.role} className={nativeSelectClassName}>
                              {ASSIGNABLE_TEAM_ROLES.filter((role) => mayManageRole(me.role, role)).map((role) => (
                                <option key={role} value={role}>
                                  {TEAM_ROLE_LABELS[role]}
                                </option>
                              ))}
                              <CustomRoleOptions roles={customRoles} />
                            </select>
                            <Button type="submit" size="sm" variant="secondary" isLoading={busyIntent === `role:${member.userId}`}>
                              Save role
                            </Button>
                          </IntentForm>
                          <ConfirmIntentButton
                            intent="remove"
                            fields={{ userId: member.userId }}
                            label="Remove"
                            ariaLabel={`Remove ${member.name}`}
                            isLoading={busyIntent === `remove:${member.userId}`}
                            title={`Remove ${member.name} from ${team.name}?`}
                            description="They lose the team’s data rooms and files at once. What they made stays with the team. You can invite them again later."
                            confirmLabel="Remove from the team"
                          />
                        </div>
                      ) : (
                        <span className="text-xs text-slate-600">{member.userId === me.userId ? "You" : member.role === "owner" ? "The owner" : "Only the owner changes admins"}</span>
                      )}
                    </TableCell>
                  ) : null}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        <TeamRoleDescriptions />
        {can("team.roles.manage") ? (
          <p className="text-sm">
            <Link to={`/team/${team.id}/roles`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Custom roles{customRoles && customRoles.length > 0 ? ` (${customRoles.length})` : ""}
            </Link>{" "}
            <span className="text-slate-700">: choose exactly what someone may do in the team's data rooms, files, forms and receive pages.</span>
          </p>
        ) : null}
      </section>

      {can("team.rooms.view") ? (
        <section aria-labelledby="rooms" className="space-y-3">
          <h2 id="rooms" className="text-lg font-semibold text-slate-900">
            Data rooms
          </h2>
          <p className="text-sm text-slate-700">The team's rooms: the owner and admins are admins in each, members are members (or what their custom role allows), and whoever leaves the team leaves them at once.</p>
          {rooms.length === 0 ? (
            <p className="text-sm text-slate-700">The team has no data room yet.</p>
          ) : (
            <ul className="space-y-1 text-sm" aria-label="The team's data rooms">
              {rooms.map((room) => (
                <li key={room.id}>
                  <a href={`/dataroom/${room.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    {room.name}
                  </a>
                </li>
              ))}
            </ul>
          )}
          {can("team.rooms.create") ? (
            <IntentForm intent="room" className="flex flex-wrap items-end gap-3" noValidate>
              <div className="min-w-64 flex-1">
                <Input label="New data room's name" name="roomName" required maxLength={120} error={failure && failedIntent?.startsWith("room") ? failure.message : undefined} />
              </div>
              <Button type="submit" variant="secondary" isLoading={busyIntent?.startsWith("room") ?? false}>
                Create data room
              </Button>
            </IntentForm>
          ) : null}
        </section>
      ) : null}

      {drive ? (
        <section aria-labelledby="drive" className="space-y-2">
          <h2 id="drive" className="text-lg font-semibold text-slate-900">
            Files
          </h2>
          <p className="text-sm text-slate-700">
            The team's own folders, files and galleries, outside its data rooms. Its storage counts against the owner's plan; whoever leaves the team loses them at once.
            {drive.canEdit ? "" : " Your role lets you see and download them."}
          </p>
          <p className="text-sm">
            <Link to={`/folders/${drive.rootId}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Open the team's files
            </Link>
          </p>
        </section>
      ) : null}

      {can("team.invite") ? (
        <section aria-labelledby="invite" className="space-y-3 rounded-md border border-slate-200 bg-white p-4">
          <h2 id="invite" className="text-lg font-semibold text-slate-900">
            Invite people
          </h2>
          <p className="text-sm text-slate-700">
            Each address gets a link that works once for 7 days; people without an account create one on the way.{" "}
            {seatsLeft === null ? "" : seatsLeft === 0 ? "No seat is free: remove someone, withdraw an invitation, or add seats to the owner's plan." : `${seatsLeft} ${seatsLeft === 1 ? "seat is" : "seats are"} free.`}
          </p>
          {failure && failedIntent?.startsWith("invite") ? <Alert variant="error">{failure.message}</Alert> : null}
          <IntentForm intent="invite" className="grid gap-3 sm:grid-cols-2" noValidate>
            <div className="sm:col-span-2">
              <Textarea label="E-mail addresses" name="emails" rows={2} required description="Separate addresses with commas, spaces or new lines." />
            </div>
            <label className="text-sm text-slate-900">
              Role
              <select name="role" defaultValue="member" className={nativeSelectClassName}>
                {ASSIGNABLE_TEAM_ROLES.filter((role) => mayManageRole(me.role, role)).map((role) => (
                  <option key={role} value={role}>
                    {TEAM_ROLE_LABELS[role]}
                  </option>
                ))}
                <CustomRoleOptions roles={customRoles} />
              </select>
            </label>
            <Input label="Message (optional)" name="message" maxLength={1000} />
            <div>
              <Button type="submit" isLoading={busyIntent?.startsWith("invite") ?? false}>
                Send invitations
              </Button>
            </div>
          </IntentForm>
        </section>
      ) : null}

      {invitations ? (
        <section aria-labelledby="pending" className="space-y-3">
          <h2 id="pending" className="text-lg font-semibold text-slate-900">
            Pending invitations
          </h2>
          {invitations.length === 0 ? (
            <p className="text-sm text-slate-700">No invitation is waiting.</p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" aria-label="Pending invitations">
              {invitations.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 p-3 text-sm" data-testid="team-invitation">
                  <div>
                    <p className="font-medium text-slate-900">{invitation.email}</p>
                    <p className="text-xs text-slate-600">
                      {invitation.roleLabel} · {invitation.expired ? `expired ${when(invitation.expiresAt)}` : `link valid until ${when(invitation.expiresAt)}`}
                    </p>
                  </div>
                  {mayManageRole(me.role, invitation.role) ? (
                    <div className="flex gap-2">
                      <IntentForm intent="resend" fields={{ invitationId: invitation.id }}>
                        <Button type="submit" size="sm" variant="secondary" isLoading={busyIntent === `resend:${invitation.id}`} aria-label={`Send the invitation to ${invitation.email} again`}>
                          Send again
                        </Button>
                      </IntentForm>
                      <IntentForm intent="revoke" fields={{ invitationId: invitation.id }}>
                        <Button type="submit" size="sm" variant="ghost" isLoading={busyIntent === `revoke:${invitation.id}`} aria-label={`Withdraw the invitation to ${invitation.email}`}>
                          Withdraw
                        </Button>
                      </IntentForm>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}

      {can("team.rename") ? (
        <section aria-labelledby="settings" className="space-y-3">
          <h2 id="settings" className="text-lg font-semibold text-slate-900">
            Name
          </h2>
          <IntentForm intent="rename" className="flex flex-wrap items-end gap-3" noValidate>
            <div className="min-w-64 flex-1">
              <Input label="Team name" name="name" defaultValue={team.name} required maxLength={TEAM_NAME_MAX} error={failure && failedIntent?.startsWith("rename") ? failure.message : undefined} />
            </div>
            <Button type="submit" variant="secondary" isLoading={busyIntent?.startsWith("rename") ?? false}>
              Rename
            </Button>
          </IntentForm>
        </section>
      ) : null}

      {activity ? (
        <section aria-labelledby="activity" className="space-y-3">
          <h2 id="activity" className="text-lg font-semibold text-slate-900">
            Activity
          </h2>
          <ol className="space-y-2 text-sm text-slate-700" aria-label="What happened in the team, newest first">
            {activity.map((event) => (
              <li key={event.id} data-testid="team-event">
                <span className="text-slate-600">{when(event.at)}</span> · <span className="font-medium text-slate-900">{event.actorEmail ?? (event.action === "logs.prune" ? "The retention policy" : "A former member")}</span> {ACTIONS[event.action] ?? event.action}
                {event.targetName && event.action !== "team.create" && event.action !== "member.join" ? ` ${event.targetName}` : ""}
                {event.detail ? ` (${event.detail})` : ""}
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {logs ? (
        <section aria-labelledby="logs" className="space-y-3">
          <h2 id="logs" className="text-lg font-semibold text-slate-900">
            Log retention
          </h2>
          <p className="text-sm text-slate-700">
            How long the team's activity and the audit logs of its data rooms are kept: {retentionLabel(logs.days)}. Older entries are removed each night;
            a room's log still verifies from the point its pruning recorded.
          </p>
          <IntentForm intent="retention" className="flex flex-wrap items-end gap-3" noValidate>
            <div className="w-56">
              <Input
                label="Keep logs for (days)"
                name="days"
                type="number"
                min={0}
                max={MAX_RETENTION_DAYS}
                defaultValue={String(logs.days)}
                description="0 keeps them forever."
                error={failure && failedIntent?.startsWith("retention") ? failure.message : undefined}
              />
            </div>
            <Button type="submit" variant="secondary" isLoading={busyIntent?.startsWith("retention") ?? false}>
              Save retention
            </Button>
          </IntentForm>
          {logs.hold ? (
            <div className="space-y-2" data-testid="legal-hold">
              <Alert variant="info" title="Legal hold placed">
                Since {when(logs.hold.at)}
                {logs.hold.byEmail ? ` by ${logs.hold.byEmail}` : ""}: {logs.hold.reason}. Nothing is removed from the team's logs while it stands.
              </Alert>
              <IntentForm intent="release">
                <Button type="submit" variant="secondary" isLoading={busyIntent?.startsWith("release") ?? false}>
                  Release legal hold
                </Button>
              </IntentForm>
            </div>
          ) : (
            <IntentForm intent="hold" className="flex flex-wrap items-end gap-3" noValidate>
              <div className="min-w-64 flex-1">
                <Input label="Reason for a legal hold" name="reason" maxLength={300} error={failure && failedIntent?.startsWith("hold") ? failure.message : undefined} />
              </div>
              <Button type="submit" variant="secondary" isLoading={busyIntent?.startsWith("hold") ?? false}>
                Place legal hold
              </Button>
            </IntentForm>
          )}
        </section>
      ) : null}

      <section aria-labelledby="membership" className="space-y-3">
        <h2 id="membership" className="text-lg font-semibold text-slate-900">
          {me.role === "owner" ? "Hand the team over" : "Leave the team"}
        </h2>
        {me.role === "owner" ? (
          others.length === 0 ? (
            <p className="text-sm text-slate-700">Once someone has joined, you can hand the team over to them. Their plan needs team management and enough seats.</p>
          ) : (
            <IntentForm intent="transfer" className="flex flex-wrap items-end gap-3">
              <label className="text-sm text-slate-900">
                New owner
                <select name="userId" className={nativeSelectClassName}>
                  {others.map((member) => (
                    <option key={member.userId} value={member.userId}>
                      {member.name} ({member.email})
                    </option>
                  ))}
                </select>
              </label>
              <Button type="submit" variant="secondary" isLoading={busyIntent?.startsWith("transfer") ?? false}>
                Hand over
              </Button>
              <p className="w-full text-xs text-slate-600">You stay in the team as an admin. The team's seats then come from the new owner's plan.</p>
            </IntentForm>
          )
        ) : (
          <IntentForm intent="leave">
            <p className="mb-2 text-sm text-slate-700">You lose access to what the team owns at once. Someone has to invite you again to come back.</p>
            <Button type="submit" variant="danger" isLoading={busyIntent?.startsWith("leave") ?? false}>
              Leave the team
            </Button>
          </IntentForm>
        )}
      </section>
    </div>
  );
}

/** The team's custom roles in a role picker (value `custom:<id>`, see roleChoice). */
function CustomRoleOptions({ roles }: { roles: { id: string; name: string }[] | null }) {
  if (!roles || roles.length === 0) return null;
  return (
    <optgroup label="Custom roles">
      {roles.map((role) => (
        <option key={role.id} value={`custom:${role.id}`}>
          {role.name}
        </option>
      ))}
    </optgroup>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
