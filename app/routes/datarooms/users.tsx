import { data, useNavigation } from "react-router";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { IntentForm } from "~/components/intent-form";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { Textarea } from "~/components/ui/textarea";
import { publicOrigin } from "~/features/auth/auth-context.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { INVITE_BATCH_MAX, INVITE_MESSAGE_MAX } from "~/features/datarooms/datarooms.schema";
import { invitePeople, resendInvitation, revokeInvitation } from "~/features/datarooms/invitations.server";
import { changeMemberRole, leaveDataroom, listRoomPeople, removeMember, setMemberAccessEnd, transferOwnership } from "~/features/datarooms/members.server";
import { runLoader } from "~/lib/action-result.server";
import { AppError, type FieldErrors } from "~/lib/errors";
import { requestContext, serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/users";
import { ConfirmIntentButton } from "~/components/confirm-intent-button";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `People of ${loaderData.dataroom.name}` : "Data room people") }];

/** /dataroom/{id}/users: the users overview (everyone in the room, roles, last seen, pending invitations) and inviting. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  // "Today" (UTC) for the date fields' minimum, from the server's clock so both renders agree.
  return runLoader(async () => ({ ...(await listRoomPeople(ctx, user.id, params.id)), today: ctx.now().toISOString().slice(0, 10) }));
}

type Failure = { ok: false; intent: string; message: string; fieldErrors?: FieldErrors; values?: { emails: string; role: string; message: string; accessUntil: string } };

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const origin = publicOrigin(context.get(requestContext).env, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const target = String(form.get("user_id") ?? "");
  const invitationId = String(form.get("invitation_id") ?? "");
  const here = `/dataroom/${params.id}/users`;
  try {
    switch (intent) {
      case "invite": {
        const result = await invitePeople(
          ctx,
          user.id,
          params.id,
          { emails: String(form.get("emails") ?? ""), role: form.get("role"), message: String(form.get("message") ?? ""), access_until: String(form.get("access_until") ?? "") },
          origin,
        );
        const sent = `Invitation sent to ${result.invited.join(", ")}.`;
        const skipped = result.alreadyMembers.length ? ` Already in the room: ${result.alreadyMembers.join(", ")}.` : "";
        return redirectWithNotice(context, here, { type: "success", message: sent + skipped });
      }
      case "resend": {
        const invitation = await resendInvitation(ctx, user.id, params.id, invitationId, origin);
        return redirectWithNotice(context, here, { type: "success", message: `Invitation sent again to ${invitation.email}. The new link works for 7 days.` });
      }
      case "revoke":
        await revokeInvitation(ctx, user.id, params.id, invitationId);
        return redirectWithNotice(context, here, { type: "success", message: "Invitation withdrawn. Its link no longer works." });
      case "role":
        await changeMemberRole(ctx, user.id, params.id, target, { role: form.get("role") });
        return redirectWithNotice(context, here, { type: "success", message: "Role changed." });
      case "access": {
        const until = String(form.get("access_until") ?? "");
        await setMemberAccessEnd(ctx, user.id, params.id, target, { access_until: until });
        return redirectWithNotice(context, here, { type: "success", message: until ? `Access now ends after ${until} (UTC).` : "Access no longer ends." });
      }
      case "remove":
        await removeMember(ctx, user.id, params.id, target);
        return redirectWithNotice(context, here, { type: "success", message: "Removed from the data room. Their access ended at once." });
      case "leave":
        await leaveDataroom(ctx, user.id, params.id);
        return redirectWithNotice(context, "/datarooms", { type: "success", message: "You left the data room." });
      case "transfer": {
        const room = await transferOwnership(ctx, user.id, params.id, { user_id: target });
        return redirectWithNotice(context, here, { type: "success", message: `Ownership transferred. ${room.owner.name} owns the room now; you are an admin.` });
      }
      default:
        throw new AppError("VALIDATION_ERROR", "Unknown action. Reload the page and try again.");
    }
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const values =
      intent === "invite"
        ? { emails: String(form.get("emails") ?? ""), role: String(form.get("role") ?? "member"), message: String(form.get("message") ?? ""), accessUntil: String(form.get("access_until") ?? "") }
        : undefined;
    return data<Failure>({ ok: false, intent, message: error.message, fieldErrors: error.fieldErrors, values }, { status: error.status });
  }
}


function when(iso: string | null): string {
  if (!iso) return "Never";
  return new Date(iso).toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" }) + " UTC";
}

function limitText(used: number, max: number): string {
  return max === -1 ? `${used} (no limit)` : `${used} of ${max}`;
}

export default function DataroomUsersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { dataroom, members, invitations, seats, today } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? `${navigation.formData?.get("intent")}:${navigation.formData?.get("user_id") ?? navigation.formData?.get("invitation_id") ?? ""}` : null;
  const failure = actionData && "ok" in actionData ? (actionData as Failure) : null;
  const canInvite = dataroom.permissions.invite && !dataroom.archived;
  const canManage = dataroom.permissions.manage_members && !dataroom.archived;
  const roleOptions = [
    ...(dataroom.isOwner && seats.adminsAllowed ? [{ value: "admin", label: "Admin: everything but deleting the room" }] : []),
    { value: "member", label: "Member: view, download, upload and edit" },
    ...(seats.guestsAllowed ? [{ value: "guest", label: "Guest: view only" }] : []),
  ];
  const transferable = members.filter((member) => !member.isOwner && member.role !== "guest");

  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">People</h1>
        <p className="text-sm text-slate-700">
          Members: {limitText(seats.members, seats.maxMembers)} · Guests: {seats.guestsAllowed ? limitText(seats.guests, seats.maxGuests) : "not on this plan"} (pending invitations hold a
          seat)
        </p>
      </div>

      {failure && failure.intent !== "invite" ? <Alert variant="error">{failure.message}</Alert> : null}
      {dataroom.archived ? <Alert variant="info">This data room is archived and read-only. Unarchive it to invite people or change roles.</Alert> : null}

      {canInvite ? (
        <section aria-labelledby="invite-heading">
          <Card>
            <CardContent className="space-y-4">
              <h2 id="invite-heading" className="text-lg font-semibold text-slate-900">
                Invite people
              </h2>
              <IntentForm intent="invite" className="space-y-4">
                {failure?.intent === "invite" ? <Alert variant="error">{failure.message}</Alert> : null}
                <Textarea
                  label="E-mail addresses"
                  name="emails"
                  required
                  rows={3}
                  defaultValue={failure?.values?.emails}
                  description={`Up to ${INVITE_BATCH_MAX} addresses, separated by commas or new lines. Each gets a link that works once, for 7 days.`}
                />
                <label className="block text-sm font-medium text-slate-900">
                  Role
                  <select name="role" defaultValue={failure?.values?.role ?? dataroom.defaultRole} className={nativeSelectClassName}>
                    {roleOptions.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                </label>
                <Textarea label="Message (optional)" name="message" rows={2} maxLength={INVITE_MESSAGE_MAX} defaultValue={failure?.values?.message} />
                {seats.timeLimitedAccess ? (
                  <label className="block w-56 text-sm font-medium text-slate-900">
                    Access until (optional)
                    <input type="date" name="access_until" min={today} defaultValue={failure?.values?.accessUntil} className={nativeSelectClassName} />
                    <span className="mt-1 block text-xs font-normal text-slate-600">The last day they can use the room (UTC).</span>
                  </label>
                ) : null}
                <div className="flex justify-end">
                  <Button type="submit" isLoading={busy === "invite:"}>
                    Send invitations
                  </Button>
                </div>
              </IntentForm>
            </CardContent>
          </Card>
        </section>
      ) : null}

      <section aria-labelledby="members-heading" className="space-y-3">
        <h2 id="members-heading" className="text-lg font-semibold text-slate-900">
          In this room
        </h2>
        <Table caption="People in this data room" isCaptionHidden>
          <TableHead>
            <TableRow>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Role</TableHeaderCell>
              <TableHeaderCell>Last seen</TableHeaderCell>
              <TableHeaderCell>Joined</TableHeaderCell>
              {canManage ? <TableHeaderCell>Access until</TableHeaderCell> : null}
              {canManage ? <TableHeaderCell>Actions</TableHeaderCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {members.map((member) => {
              const manageable = canManage && !member.isOwner && !member.isYou && (member.role !== "admin" || dataroom.isOwner);
              return (
                <TableRow key={member.userId} data-testid="room-member">
                  <TableCell>
                    <span className="font-medium text-slate-900">{member.name}</span>
                    {member.isYou ? <span className="text-slate-600"> (you)</span> : null}
                    {member.email ? <span className="block text-xs text-slate-600">{member.email}</span> : null}
                  </TableCell>
                  <TableCell>
                    <Badge variant={member.isOwner ? "brand" : "neutral"}>{member.roleLabel}</Badge>
                  </TableCell>
                  <TableCell>{when(member.lastSeenAt)}</TableCell>
                  <TableCell>{when(member.joinedAt)}</TableCell>
                  {canManage ? (
                    <TableCell>
                      {member.accessEnded ? <Badge variant="warning">Access ended {member.accessUntil}</Badge> : null}
                      {manageable && (seats.timeLimitedAccess || member.accessUntil) ? (
                        <IntentForm intent="access" fields={{ user_id: member.userId }} className="flex items-end gap-2">
                          <label className="text-xs font-medium text-slate-900">
                            Access of {member.name} until
                            <input type="date" name="access_until" min={today} defaultValue={member.accessUntil ?? ""} className={nativeSelectClassName} />
                          </label>
                          <Button type="submit" size="sm" variant="secondary" isLoading={busy === `access:${member.userId}`}>
                            Save
                          </Button>
                        </IntentForm>
                      ) : member.accessEnded ? null : (
                        <span className="text-slate-700">{member.isOwner ? "Always" : (member.accessUntil ?? "No end")}</span>
                      )}
                    </TableCell>
                  ) : null}
                  {canManage ? (
                    <TableCell>
                      {manageable ? (
                        <div className="flex flex-wrap items-end gap-2">
                          <IntentForm intent="role" fields={{ user_id: member.userId }} className="flex items-end gap-2">
                            <label className="text-xs font-medium text-slate-900">
                              Role of {member.name}
                              <select name="role" defaultValue={member.role} className={nativeSelectClassName}>
                                {roleOptions.map((option) => (
                                  <option key={option.value} value={option.value}>
                                    {option.value[0]!.toUpperCase() + option.value.slice(1)}
                                  </option>
                                ))}
                              </select>
                            </label>
                            <Button type="submit" size="sm" variant="secondary" isLoading={busy === `role:${member.userId}`}>
                              Change
                            </Button>
                          </IntentForm>
                          <ConfirmIntentButton
                            intent="remove"
                            fields={{ user_id: member.userId }}
                            label="Remove"
                            ariaLabel={`Remove ${member.name}`}
                            isLoading={busy === `remove:${member.userId}`}
                            title={`Remove ${member.name} from ${dataroom.name}?`}
                            description="Their access ends at once, on pages they have open too. The room’s audit log keeps what they did. You can invite them again later."
                            confirmLabel="Remove from the room"
                          />
                        </div>
                      ) : null}
                    </TableCell>
                  ) : null}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </section>

      {dataroom.permissions.invite ? (
        <section aria-labelledby="invitations-heading" className="space-y-3">
          <h2 id="invitations-heading" className="text-lg font-semibold text-slate-900">
            Pending invitations
          </h2>
          {invitations.length === 0 ? (
            <p className="text-sm text-slate-700">No invitations are waiting for an answer.</p>
          ) : (
            <Table caption="Pending invitations" isCaptionHidden>
              <TableHead>
                <TableRow>
                  <TableHeaderCell>E-mail</TableHeaderCell>
                  <TableHeaderCell>Role</TableHeaderCell>
                  <TableHeaderCell>Sent</TableHeaderCell>
                  <TableHeaderCell>Link valid until</TableHeaderCell>
                  <TableHeaderCell>Actions</TableHeaderCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {invitations.map((invitation) => (
                  <TableRow key={invitation.id} data-testid="pending-invitation">
                    <TableCell>
                      {invitation.email}
                      {invitation.invitedBy ? <span className="block text-xs text-slate-600">by {invitation.invitedBy}</span> : null}
                    </TableCell>
                    <TableCell>
                      {invitation.roleLabel}
                      {invitation.accessUntil ? <span className="block text-xs text-slate-600">access until {invitation.accessUntil}</span> : null}
                    </TableCell>
                    <TableCell>
                      {when(invitation.sentAt)}
                      {invitation.sendCount > 1 ? <span className="block text-xs text-slate-600">sent {invitation.sendCount} times</span> : null}
                    </TableCell>
                    <TableCell>{invitation.expired ? <Badge variant="warning">Expired</Badge> : when(invitation.expiresAt)}</TableCell>
                    <TableCell>
                      {dataroom.archived || (invitation.role === "admin" && !dataroom.isOwner) ? null : (
                        <div className="flex flex-wrap gap-2">
                          <IntentForm intent="resend" fields={{ invitation_id: invitation.id }}>
                            <Button type="submit" size="sm" variant="secondary" isLoading={busy === `resend:${invitation.id}`} aria-label={`Resend the invitation to ${invitation.email}`}>
                              Resend
                            </Button>
                          </IntentForm>
                          <IntentForm intent="revoke" fields={{ invitation_id: invitation.id }}>
                            <Button type="submit" size="sm" variant="ghost" isLoading={busy === `revoke:${invitation.id}`} aria-label={`Withdraw the invitation to ${invitation.email}`}>
                              Withdraw
                            </Button>
                          </IntentForm>
                        </div>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </section>
      ) : null}

      {dataroom.isOwner && transferable.length > 0 && !dataroom.archived ? (
        <section aria-labelledby="ownership-heading" className="space-y-3">
          <h2 id="ownership-heading" className="text-lg font-semibold text-slate-900">
            Ownership
          </h2>
          <IntentForm intent="transfer" className="flex flex-wrap items-end gap-3">
            <label className="block text-sm font-medium text-slate-900">
              New owner
              <select name="user_id" className={nativeSelectClassName}>
                {transferable.map((member) => (
                  <option key={member.userId} value={member.userId}>
                    {member.name}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" variant="secondary" isLoading={busy?.startsWith("transfer:") ?? false}>
              Transfer ownership
            </Button>
            <p className="w-full text-sm text-slate-600">The room then counts toward the new owner's plan; you stay in it as an admin.</p>
          </IntentForm>
        </section>
      ) : null}

      {!dataroom.isOwner ? (
        <section aria-labelledby="leave-heading" className="space-y-3">
          <h2 id="leave-heading" className="text-lg font-semibold text-slate-900">
            Leave
          </h2>
          <IntentForm intent="leave" className="flex flex-wrap items-center gap-3">
            <Button type="submit" variant="danger" isLoading={busy === "leave:"}>
              Leave data room
            </Button>
            <p className="text-sm text-slate-600">You lose access at once; someone will have to invite you again.</p>
          </IntentForm>
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
