import { formatDayUtc } from "~/lib/format-utc";
import { z } from "zod";
import type { AuthCall } from "~/features/auth/auth-context.server";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { findUserByEmail, findUserById } from "~/features/auth/auth.queries.server";
import { registerFromInvitation } from "~/features/auth/registration.server";
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "~/features/auth/secrets.server";
import type { AuthenticatedSession } from "~/features/auth/session.server";
import { sendMail } from "~/features/mail/mailer.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import type { DataroomRole } from "~/db/schema";
import { assertRoomWritable, ROLE_LABELS } from "./datarooms.permissions";
import { accessUntilSchema, inviteSchema } from "./datarooms.schema";
import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";
import { forgetRoomDecisions, roomAuthority } from "./room-authority.server";
import { auditRoom } from "./audit-record.server";
import { assertRoleAllowed, assertSeatsFor, toPendingInvitation, type PendingInvitation } from "./members.server";
import {
  findInvitation,
  findInvitationByTokenHash,
  findInvitationWithRoomById,
  findDataroomMember,
  findMemberEmails,
  listOpenInvitations,
  rearmInvitation,
  revokeInvitationRow,
  upsertInvitation,
  type InvitationWithRoom,
} from "./members.queries.server";

/**
 * Invitations into a data room (issue 19 "People"): sent by e-mail to several people at once with a
 * role and a message; each link is single-use and valid 7 days; resend (a new link, 7 more days),
 * revoke, expire. The invitee accepts signed in with the invited address, or creates their account
 * on the way (the link proves the mailbox), and lands in the room. Seats are checked against the
 * room owner's plan when inviting (open invitations hold a seat) and again when accepting.
 */
export const INVITATION_TTL_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;

export type InviteResult = { invited: string[]; alreadyMembers: string[]; invitations: PendingInvitation[] };

function assertWritable(room: DataroomSummary) {
  assertRoomWritable(room);
}

/** The day an invitation link expires, as its e-mail says it (data rooms' and teams'). */
export function expiryDay(date: Date): string {
  return formatDayUtc(date);
}

async function mailInvitation(ctx: ServiceContext, input: { to: string; inviterName: string; room: Pick<DataroomSummary, "name">; role: DataroomRole; message: string; token: string; origin: string; expiresAt: Date }) {
  await sendMail(ctx, {
    to: input.to,
    userId: null,
    template: {
      kind: "dataroom-invitation",
      inviterName: input.inviterName,
      roomName: input.room.name,
      roleLabel: ROLE_LABELS[input.role],
      message: input.message,
      link: `${input.origin}/invite/${input.token}`,
      expiresOn: expiryDay(input.expiresAt),
    },
  });
}

async function inviter(ctx: ServiceContext, roomId: string, userId: string): Promise<{ userId: string; name: string }> {
  const member = await findDataroomMember(ctx.db, roomId, userId);
  return { userId, name: member?.name ?? "A Strongroom member" };
}

/** Invites people (the `invite` right; admins only by the owner). People already in the room are skipped and named. */
export async function invitePeople(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown, origin: string): Promise<InviteResult> {
  const room = await requireDataroom(ctx, userId, rawId, "invite");
  const actor = await inviter(ctx, room.id, userId);
  const parsed = parseInput(inviteSchema.extend({ access_until: accessUntilSchema(ctx.now) }), input);
  const { emails, message, access_until: accessExpiresAt } = parsed;
  const role = parsed.role ?? room.defaultRole;
  assertWritable(room);
  if (accessExpiresAt) requireFeature(await loadMemberAccess(ctx, room.owner.id), "time_limited_access");
  if (role === "admin" && !room.isOwner) throw new AppError("FORBIDDEN", "Only the owner can invite admins.");
  const members = await findMemberEmails(ctx.db, room.id);
  const alreadyMembers = emails.filter((email) => members.has(email));
  const toInvite = emails.filter((email) => !members.has(email));
  if (toInvite.length === 0) {
    throw new AppError("VALIDATION_ERROR", `${alreadyMembers.join(", ")} ${alreadyMembers.length === 1 ? "is" : "are"} already in this data room.`);
  }
  // A re-sent open invitation keeps its seat; only new addresses (or a seat of the other kind) take one.
  const now = ctx.now();
  const open = new Map((await listOpenInvitations(ctx.db, room.id)).filter((row) => row.expiresAt > now).map((row) => [row.email, row.role]));
  const seatClass = (value: DataroomRole) => (value === "guest" ? "guest" : "member");
  const taking = toInvite.filter((email) => !open.has(email) || seatClass(open.get(email)!) !== seatClass(role)).map(() => role);
  await assertRoleAllowed(ctx, room, role);
  await assertSeatsFor(ctx, room, taking);
  await consumeAttempt(ctx.env, "invite", { account: actor.userId });

  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  for (const email of toInvite) {
    const { token, hash } = newLinkToken();
    await upsertInvitation(ctx.db, { id: crypto.randomUUID(), dataroomId: room.id, email, role, message, tokenHash: hash, invitedBy: actor.userId, now, expiresAt, accessExpiresAt });
    await mailInvitation(ctx, { to: email, inviterName: actor.name, room, role, message, token, origin, expiresAt });
  }
  ctx.logger.info("data room invitations sent", { dataroomId: room.id, count: toInvite.length, role });
  await auditRoom(
    ctx,
    room.id,
    userId,
    toInvite.map((email) => ({
      action: "invitation.send" as const,
      target: { type: "invitation", name: email },
      detail: accessExpiresAt ? `${ROLE_LABELS[role]}, access until ${accessExpiresAt.toISOString().slice(0, 10)}` : ROLE_LABELS[role],
    })),
  );
  const invitations = (await listOpenInvitations(ctx.db, room.id)).map((row) => toPendingInvitation(row, ctx.now()));
  return { invited: toInvite, alreadyMembers, invitations };
}

async function requireManagedInvitation(ctx: ServiceContext, userId: string, rawId: unknown, invitationId: string) {
  const room = await requireDataroom(ctx, userId, rawId, "invite");
  const invitation = typeof invitationId === "string" && invitationId.length <= 64 ? await findInvitation(ctx.db, room.id, invitationId) : undefined;
  if (!invitation || invitation.acceptedAt || invitation.revokedAt) throw new AppError("NOT_FOUND", "This invitation was already accepted or revoked.");
  if (invitation.role === "admin" && !room.isOwner) throw new AppError("FORBIDDEN", "Only the owner can manage invitations of admins.");
  return { room, invitation };
}

/** Sends the invitation again with a new link (the old one stops working) valid 7 more days. */
export async function resendInvitation(ctx: ServiceContext, userId: string, rawId: unknown, invitationId: string, origin: string): Promise<PendingInvitation> {
  const { room, invitation } = await requireManagedInvitation(ctx, userId, rawId, invitationId);
  const actor = await inviter(ctx, room.id, userId);
  assertWritable(room);
  // An expired invitation gave its seat back: it needs one again.
  if (invitation.expiresAt <= ctx.now()) await assertSeatsFor(ctx, room, [invitation.role]);
  await consumeAttempt(ctx.env, "invite", { account: actor.userId });
  const { token, hash } = newLinkToken();
  const expiresAt = new Date(ctx.now().getTime() + INVITATION_TTL_MS);
  if (!(await rearmInvitation(ctx.db, invitation.id, hash, ctx.now(), expiresAt))) throw new AppError("NOT_FOUND", "This invitation was already accepted or revoked.");
  await mailInvitation(ctx, { to: invitation.email, inviterName: actor.name, room, role: invitation.role, message: invitation.message, token, origin, expiresAt });
  await auditRoom(ctx, room.id, userId, { action: "invitation.resend", target: { type: "invitation", id: invitation.id, name: invitation.email } });
  const updated = await findInvitation(ctx.db, room.id, invitation.id);
  return toPendingInvitation(updated!, ctx.now());
}

/** Ends an invitation: its link stops working at once. */
export async function revokeInvitation(ctx: ServiceContext, userId: string, rawId: unknown, invitationId: string): Promise<void> {
  const { room, invitation } = await requireManagedInvitation(ctx, userId, rawId, invitationId);
  await revokeInvitationRow(ctx.db, room.id, invitation.id, ctx.now());
  ctx.logger.info("data room invitation revoked", { dataroomId: room.id, invitationId: invitation.id });
  await auditRoom(ctx, room.id, userId, { action: "invitation.revoke", target: { type: "invitation", id: invitation.id, name: invitation.email } });
}

// The invitee's side: /invite/{token}

export type InvitationState = "open" | "expired" | "accepted" | "revoked" | "invalid";

export type InvitationView = {
  state: InvitationState;
  /** Only for a link that exists and whose room still does. */
  invitation: {
    email: string;
    roomName: string;
    inviterName: string;
    roleLabel: string;
    message: string;
    expiresAt: string;
  } | null;
  /** Where the visitor stands: not signed in, signed in with the invited address, or with another one. */
  viewer: "anonymous" | "invitee" | "someone-else";
  /** The room, for someone who is in it already (an accepted link opened again). */
  dataroomId: string | null;
  /** Whether the invited address has an account already (sign in) or not (create one on the way). */
  accountExists: boolean;
  /** Why the link can't be used (every state but "open"), in words. */
  problem: string | null;
};

async function findByToken(ctx: ServiceContext, token: unknown): Promise<{ row: InvitationWithRoom; hash: string } | null> {
  if (typeof token !== "string" || !LINK_TOKEN_PATTERN.test(token)) return null;
  const hash = hashLinkToken(token);
  const row = await findInvitationByTokenHash(ctx.db, hash);
  if (!row || row.roomTrashedAt !== null) return null;
  return { row, hash };
}

function stateOf(row: InvitationWithRoom, now: Date): InvitationState {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  if (row.expiresAt <= now) return "expired";
  return "open";
}

/** What the invitation page shows (reading it changes nothing: mail scanners may fetch links). */
export async function viewInvitation(ctx: ServiceContext, token: unknown, viewer: { userId: string; email: string } | null): Promise<InvitationView> {
  const found = await findByToken(ctx, token);
  if (!found) return { state: "invalid", invitation: null, viewer: viewer ? "someone-else" : "anonymous", dataroomId: null, accountExists: false, problem: INVALID_MESSAGES.invalid };
  const { row } = found;
  const state = stateOf(row, ctx.now());
  const isInvitee = viewer !== null && viewer.email.toLowerCase() === row.email;
  return {
    state,
    invitation: {
      email: row.email,
      roomName: row.roomName,
      inviterName: row.inviterName ?? "A Strongroom member",
      roleLabel: ROLE_LABELS[row.role],
      message: row.message,
      expiresAt: row.expiresAt.toISOString(),
    },
    viewer: viewer === null ? "anonymous" : isInvitee ? "invitee" : "someone-else",
    dataroomId: state === "accepted" && viewer !== null && row.acceptedBy === viewer.userId ? row.dataroomId : null,
    accountExists: state === "open" && viewer === null ? Boolean((await findUserByEmail(ctx.db, row.email))?.emailVerifiedAt) : viewer !== null,
    problem: state === "open" ? null : INVALID_MESSAGES[state],
  };
}

const INVALID_MESSAGES: Record<Exclude<InvitationState, "open">, string> = {
  invalid: "This invitation link is not valid. Check that you opened the whole link from the e-mail.",
  expired: "This invitation has expired. Ask the person who invited you to send a new one.",
  accepted: "This invitation was already used. If that was you, open the data room from your list of data rooms.",
  revoked: "This invitation was withdrawn. Ask the person who invited you if you still need access.",
};

async function openInvitation(ctx: ServiceContext, token: unknown) {
  const found = await findByToken(ctx, token);
  if (!found) throw new AppError("NOT_FOUND", INVALID_MESSAGES.invalid);
  const state = stateOf(found.row, ctx.now());
  if (state !== "open") throw new AppError("NOT_FOUND", INVALID_MESSAGES[state]);
  return found;
}

/** The plan may have changed since the invitation was sent: its seat is checked again (its own seat excluded). */
function assertSeatStillThere(ctx: ServiceContext, row: InvitationWithRoom): Promise<void> {
  return assertSeatsFor(ctx, { id: row.dataroomId, owner: { id: row.roomOwnerId, name: "" } }, [row.role], { exceptInvitationId: row.id });
}

/** Uses the invitation (its seat already checked in this call). */
async function join(ctx: ServiceContext, found: { row: InvitationWithRoom; hash: string }, userId: string): Promise<string> {
  const { row, hash } = found;
  const used = await roomAuthority(ctx, row.dataroomId).join(row.dataroomId, {
    invitationId: row.id,
    tokenHash: hash,
    userId,
    role: row.role,
    now: ctx.now().getTime(),
    accessEndsAt: row.accessExpiresAt ? row.accessExpiresAt.getTime() : null,
  });
  if (!used) throw new AppError("NOT_FOUND", INVALID_MESSAGES.accepted);
  forgetRoomDecisions(ctx, row.dataroomId);
  ctx.logger.info("data room invitation accepted", { dataroomId: row.dataroomId, invitationId: row.id });
  await auditRoom(ctx, row.dataroomId, userId, { action: "member.join", target: { type: "invitation", id: row.id, name: row.email }, detail: ROLE_LABELS[row.role] });
  return row.dataroomId;
}

/** A signed-in member accepts: only with the address the invitation was sent to. Returns the room's id. */
export async function acceptInvitation(ctx: ServiceContext, userId: string, token: unknown): Promise<string> {
  const found = await openInvitation(ctx, token);
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError("UNAUTHENTICATED");
  if (user.email.toLowerCase() !== found.row.email) {
    throw new AppError("FORBIDDEN", `This invitation was sent to ${found.row.email}. Sign in with that address to accept it.`);
  }
  await assertSeatStillThere(ctx, found.row);
  return join(ctx, found, userId);
}

const invitationNotFound = () => new AppError("NOT_FOUND", "This invitation does not exist or was not sent to you.");

/**
 * An invitation opened from the invitee's own dashboard (no link followed): only for the account
 * whose confirmed address it was sent to; anyone else gets 404, as if there were none.
 */
async function ownInvitation(ctx: ServiceContext, userId: string, invitationId: unknown) {
  const id = z.uuid().safeParse(invitationId);
  if (!id.success) throw invitationNotFound();
  const [row, user] = await Promise.all([findInvitationWithRoomById(ctx.db, id.data), findUserById(ctx.db, userId)]);
  if (!row || !user?.emailVerifiedAt || user.email.toLowerCase() !== row.email || row.roomTrashedAt !== null) throw invitationNotFound();
  return { row, hash: row.tokenHash };
}

/** What /invitations/{id} shows the invitee. */
export async function viewOwnInvitation(ctx: ServiceContext, userId: string, invitationId: unknown): Promise<InvitationView> {
  const { row } = await ownInvitation(ctx, userId, invitationId);
  const state = stateOf(row, ctx.now());
  return {
    state,
    invitation: { email: row.email, roomName: row.roomName, inviterName: row.inviterName ?? "A Strongroom member", roleLabel: ROLE_LABELS[row.role], message: row.message, expiresAt: row.expiresAt.toISOString() },
    viewer: "invitee",
    dataroomId: state === "accepted" && row.acceptedBy === userId ? row.dataroomId : null,
    accountExists: true,
    problem: state === "open" ? null : INVALID_MESSAGES[state],
  };
}

/** The invitee accepts from their dashboard, as the link would. Returns the room's id. */
export async function acceptOwnInvitation(ctx: ServiceContext, userId: string, invitationId: unknown): Promise<string> {
  const found = await ownInvitation(ctx, userId, invitationId);
  const state = stateOf(found.row, ctx.now());
  if (state !== "open") throw new AppError("NOT_FOUND", INVALID_MESSAGES[state]);
  await assertSeatStillThere(ctx, found.row);
  return join(ctx, found, userId);
}

/** A visitor without an account creates one (confirmed by the link) and joins in one step. */
export async function registerAndAccept(
  call: AuthCall,
  token: unknown,
  fields: { name: unknown; password: unknown },
): Promise<{ dataroomId: string; signIn: { token: string; session: AuthenticatedSession } }> {
  const found = await openInvitation(call.ctx, token);
  // No account is made for an invitation that cannot be accepted.
  await assertSeatStillThere(call.ctx, found.row);
  const { user, signIn } = await registerFromInvitation(call, { email: found.row.email, fields });
  const dataroomId = await join(call.ctx, found, user.id);
  return { dataroomId, signIn };
}
