import type { AuthCall } from "~/features/auth/auth-context.server";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { findUserByEmail, findUserById } from "~/features/auth/auth.queries.server";
import { registerFromInvitation } from "~/features/auth/registration.server";
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "~/features/auth/secrets.server";
import type { AuthenticatedSession } from "~/features/auth/session.server";
import { expiryDay, INVITATION_TTL_MS } from "~/features/datarooms/invitations.server";
import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { mayManageRole, TEAM_ROLE_LABELS } from "./teams.permissions";
import {
  findTeamCustomRole,
  findTeamInvitation,
  findTeamInvitationByTokenHash,
  findTeamMemberEmails,
  insertTeamEvents,
  listOpenTeamInvitations,
  rearmTeamInvitation,
  revokeTeamInvitationRow,
  upsertTeamInvitation,
  useTeamInvitation,
  type TeamInvitationWithTeam,
} from "./teams.queries.server";
import { teamInviteSchema } from "./teams.schema";
import { assertTeamSeats, requireTeam, teamEvent } from "./team-access.server";
import { applyTeamPlace } from "./team-rooms.server";

/**
 * Invitations into a team (issue 42): the same flow as a data room's (single-use link by e-mail,
 * valid 7 days, resend, revoke; someone without an account creates one on the way), opened at the
 * same address, /invite/{token}. Seats are checked against the team owner's plan when inviting
 * (an open invitation holds a seat) and again when accepting.
 */

export type TeamInviteResult = { invited: string[]; alreadyMembers: string[] };

/** Invites people (team.invite; admins only by the owner). People already in the team are skipped and named. */
export async function inviteToTeam(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown, origin: string): Promise<TeamInviteResult> {
  const { team, role: actorRole } = await requireTeam(ctx, userId, rawId, "team.invite");
  const { emails, role, message, customRoleId = null } = parseInput(teamInviteSchema, input);
  if (!mayManageRole(actorRole, role)) throw new AppError("FORBIDDEN", "Only the team's owner invites admins.");
  if (customRoleId && role !== "member") throw new AppError("VALIDATION_ERROR", "A custom role is for members: invite as Member with it, or without a custom role.");
  const customRole = customRoleId ? await findTeamCustomRole(ctx.db, team.id, customRoleId) : undefined;
  if (customRoleId && !customRole) throw new AppError("NOT_FOUND", "That custom role does not exist in this team.");
  const roleLabel = customRole?.name ?? TEAM_ROLE_LABELS[role];
  const members = await findTeamMemberEmails(ctx.db, team.id);
  const alreadyMembers = emails.filter((email) => members.has(email));
  const toInvite = emails.filter((email) => !members.has(email));
  if (toInvite.length === 0) throw new AppError("VALIDATION_ERROR", `${alreadyMembers.join(", ")} ${alreadyMembers.length === 1 ? "is" : "are"} already in this team.`);
  // A re-sent open invitation keeps its seat; only new addresses take one.
  const now = ctx.now();
  const open = new Set((await listOpenTeamInvitations(ctx.db, team.id)).filter((row) => row.expiresAt > now).map((row) => row.email));
  await assertTeamSeats(ctx, team, toInvite.filter((email) => !open.has(email)).length);
  await consumeAttempt(ctx.env, "invite", { account: userId });

  const inviter = await findUserById(ctx.db, userId);
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  for (const email of toInvite) {
    const { token, hash } = newLinkToken();
    await upsertTeamInvitation(ctx.db, { id: crypto.randomUUID(), teamId: team.id, email, role, customRoleId, message, tokenHash: hash, invitedBy: userId, now, expiresAt });
    await sendMail(ctx, {
      to: email,
      userId: null,
      template: { kind: "team-invitation", inviterName: inviter?.name ?? "A Strongroom member", teamName: team.name, roleLabel, message, link: `${origin}/invite/${token}`, expiresOn: expiryDay(expiresAt) },
    });
  }
  const actor = inviter ? { id: inviter.id, email: inviter.email } : userId;
  await insertTeamEvents(ctx.db, await Promise.all(toInvite.map((email) => teamEvent(ctx, team.id, actor, "invitation.send", { name: email, detail: roleLabel }))));
  ctx.logger.info("team invitations sent", { teamId: team.id, count: toInvite.length, role });
  return { invited: toInvite, alreadyMembers };
}

async function requireManagedInvitation(ctx: ServiceContext, userId: string, rawId: unknown, invitationId: unknown) {
  const access = await requireTeam(ctx, userId, rawId, "team.invite");
  const invitation = typeof invitationId === "string" && invitationId.length <= 64 ? await findTeamInvitation(ctx.db, access.team.id, invitationId) : undefined;
  if (!invitation || invitation.acceptedAt || invitation.revokedAt) throw new AppError("NOT_FOUND", "This invitation was already accepted or revoked.");
  if (!mayManageRole(access.role, invitation.role)) throw new AppError("FORBIDDEN", "Only the team's owner manages invitations of admins.");
  return { ...access, invitation };
}

/** Sends the invitation again with a new link (the old one stops working), valid 7 more days. */
export async function resendTeamInvitation(ctx: ServiceContext, userId: string, rawId: unknown, invitationId: unknown, origin: string): Promise<void> {
  const { team, invitation } = await requireManagedInvitation(ctx, userId, rawId, invitationId);
  // An expired invitation gave its seat back: it needs one again.
  if (invitation.expiresAt <= ctx.now()) await assertTeamSeats(ctx, team, 1);
  await consumeAttempt(ctx.env, "invite", { account: userId });
  const { token, hash } = newLinkToken();
  const expiresAt = new Date(ctx.now().getTime() + INVITATION_TTL_MS);
  if (!(await rearmTeamInvitation(ctx.db, invitation.id, hash, ctx.now(), expiresAt))) throw new AppError("NOT_FOUND", "This invitation was already accepted or revoked.");
  const inviter = await findUserById(ctx.db, userId);
  await sendMail(ctx, {
    to: invitation.email,
    userId: null,
    template: { kind: "team-invitation", inviterName: inviter?.name ?? "A Strongroom member", teamName: team.name, roleLabel: invitation.customRoleName ?? TEAM_ROLE_LABELS[invitation.role], message: invitation.message, link: `${origin}/invite/${token}`, expiresOn: expiryDay(expiresAt) },
  });
  await insertTeamEvents(ctx.db, [await teamEvent(ctx, team.id, inviter ? { id: inviter.id, email: inviter.email } : userId, "invitation.resend", { name: invitation.email })]);
}

/** Ends an invitation: its link stops working at once and its seat is free. */
export async function revokeTeamInvitation(ctx: ServiceContext, userId: string, rawId: unknown, invitationId: unknown): Promise<void> {
  const { team, invitation } = await requireManagedInvitation(ctx, userId, rawId, invitationId);
  await revokeTeamInvitationRow(ctx.db, team.id, invitation.id, ctx.now(), await teamEvent(ctx, team.id, userId, "invitation.revoke", { name: invitation.email }));
}

// The invitee's side, at /invite/{token} (shared with data rooms' invitations)

export type TeamInvitationState = "open" | "expired" | "accepted" | "revoked";

export type TeamInvitationView = {
  state: TeamInvitationState;
  invitation: { email: string; teamName: string; inviterName: string; roleLabel: string; message: string; expiresAt: string };
  viewer: "anonymous" | "invitee" | "someone-else";
  /** The team, for someone in it already (an accepted link opened again by them). */
  teamId: string | null;
  accountExists: boolean;
  problem: string | null;
};

const PROBLEMS: Record<Exclude<TeamInvitationState, "open">, string> = {
  expired: "This invitation has expired. Ask the person who invited you to send a new one.",
  accepted: "This invitation was already used. If that was you, open the team from your list of teams.",
  revoked: "This invitation was withdrawn. Ask the person who invited you if you still need access.",
};
const INVALID = "This invitation link is not valid. Check that you opened the whole link from the e-mail.";

async function findByToken(ctx: ServiceContext, token: unknown): Promise<{ row: TeamInvitationWithTeam; hash: string } | null> {
  if (typeof token !== "string" || !LINK_TOKEN_PATTERN.test(token)) return null;
  const hash = hashLinkToken(token);
  const row = await findTeamInvitationByTokenHash(ctx.db, hash);
  return row ? { row, hash } : null;
}

function stateOf(row: TeamInvitationWithTeam, now: Date): TeamInvitationState {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  if (row.expiresAt <= now) return "expired";
  return "open";
}

/** What the invitation page shows for a team's link, or null when the token is not a team's (reading changes nothing). */
export async function viewTeamInvitation(ctx: ServiceContext, token: unknown, viewer: { userId: string; email: string } | null): Promise<TeamInvitationView | null> {
  const found = await findByToken(ctx, token);
  if (!found) return null;
  const { row } = found;
  const state = stateOf(row, ctx.now());
  return {
    state,
    invitation: { email: row.email, teamName: row.teamName, inviterName: row.inviterName ?? "A Strongroom member", roleLabel: row.customRoleName ?? TEAM_ROLE_LABELS[row.role], message: row.message, expiresAt: row.expiresAt.toISOString() },
    viewer: viewer === null ? "anonymous" : viewer.email.toLowerCase() === row.email ? "invitee" : "someone-else",
    teamId: state === "accepted" && viewer !== null && row.acceptedBy === viewer.userId ? row.teamId : null,
    accountExists: state === "open" && viewer === null ? Boolean((await findUserByEmail(ctx.db, row.email))?.emailVerifiedAt) : viewer !== null,
    problem: state === "open" ? null : PROBLEMS[state],
  };
}

/** Whether a token belongs to a team's invitation (the shared page asks before choosing whose flow to run). */
export async function isTeamInvitationToken(ctx: ServiceContext, token: unknown): Promise<boolean> {
  return (await findByToken(ctx, token)) !== null;
}

async function openInvitation(ctx: ServiceContext, token: unknown) {
  const found = await findByToken(ctx, token);
  if (!found) throw new AppError("NOT_FOUND", INVALID);
  const state = stateOf(found.row, ctx.now());
  if (state !== "open") throw new AppError("NOT_FOUND", PROBLEMS[state]);
  return found;
}

/** The owner's plan may have changed since the invitation was sent: its seat is checked again (its own excluded). */
function assertSeatStillThere(ctx: ServiceContext, row: TeamInvitationWithTeam): Promise<void> {
  return assertTeamSeats(ctx, { id: row.teamId, ownerId: row.teamOwnerId }, 1, { exceptInvitationId: row.id });
}

async function join(ctx: ServiceContext, found: { row: TeamInvitationWithTeam; hash: string }, userId: string, email: string): Promise<string> {
  const { row, hash } = found;
  const event = await teamEvent(ctx, row.teamId, { id: userId, email }, "member.join", { name: email, detail: row.customRoleName ?? TEAM_ROLE_LABELS[row.role] });
  const used = await useTeamInvitation(ctx.db, { invitationId: row.id, tokenHash: hash, teamId: row.teamId, userId, role: row.role, now: ctx.now() }, event);
  if (!used) throw new AppError("NOT_FOUND", PROBLEMS.accepted);
  ctx.logger.info("team invitation accepted", { teamId: row.teamId });
  // The custom role as it is now (deleted meanwhile: a plain member).
  const customRole = row.customRoleId ? await findTeamCustomRole(ctx.db, row.teamId, row.customRoleId) : undefined;
  await applyTeamPlace(ctx, row.teamId, userId, row.role, customRole ?? null);
  return row.teamId;
}

/** A signed-in member accepts, only with the address the invitation was sent to. Returns the team's id. */
export async function acceptTeamInvitation(ctx: ServiceContext, userId: string, token: unknown): Promise<string> {
  const found = await openInvitation(ctx, token);
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError("UNAUTHENTICATED");
  if (user.email.toLowerCase() !== found.row.email) throw new AppError("FORBIDDEN", `This invitation was sent to ${found.row.email}. Sign in with that address to accept it.`);
  await assertSeatStillThere(ctx, found.row);
  return join(ctx, found, userId, user.email);
}

/** A visitor without an account creates one (confirmed by the link) and joins in one step. */
export async function registerAndAcceptTeam(call: AuthCall, token: unknown, fields: { name: unknown; password: unknown }): Promise<{ teamId: string; signIn: { token: string; session: AuthenticatedSession } }> {
  const found = await openInvitation(call.ctx, token);
  await assertSeatStillThere(call.ctx, found.row);
  const { user, signIn } = await registerFromInvitation(call, { email: found.row.email, fields });
  const teamId = await join(call.ctx, found, user.id, user.email);
  return { teamId, signIn };
}
