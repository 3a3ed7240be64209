import { z } from "zod";
import { assertWithinLimit, loadMemberAccess, requireFeature, type MemberAccess } from "~/features/access/access.server";
import { checkFeature, checkPermission } from "~/features/access/access-check";
import { TIER_LABELS, tierAtLeast, type LimitName, type Tier } from "~/features/access/access.constants";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import type { DataroomRole } from "~/db/schema";
import { assertRoomWritable, ROLE_LABELS } from "./datarooms.permissions";
import { countOwnedDatarooms } from "./datarooms.queries.server";
import { accessUntilSchema, changeRoleSchema, transferOwnershipSchema } from "./datarooms.schema";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";
import { forgetRoomDecisions, roomAuthority } from "./room-authority.server";
import { auditRoom, personTarget } from "./audit-record.server";
import {
  countSeats,
  findDataroomMember,
  listDataroomMembers,
  listOpenInvitations,
  type InvitationRow,
} from "./members.queries.server";

/**
 * The people of a data room (issue 19 "People"): who is in it and with which role, the seats the
 * owner's plan allows, and the changes: role, removal, leaving, ownership transfer. Invitations
 * are in invitations.server.ts. Seats and add-ons are always the room OWNER's plan.
 */

/** Room features that come with a plan or an add-on (docs/plans.md "Data room people"). */
export const GUEST_ACCESS_FROM: Tier = "basic";
export const TEAM_COLLABORATION_FROM: Tier = "pro";

export function roomAllowsGuests(ownerAccess: MemberAccess): boolean {
  return tierAtLeast(ownerAccess.tier, GUEST_ACCESS_FROM) || checkPermission(ownerAccess, "dataroom.guest_access");
}

export function roomAllowsAdmins(ownerAccess: MemberAccess): boolean {
  return tierAtLeast(ownerAccess.tier, TEAM_COLLABORATION_FROM) || checkPermission(ownerAccess, "dataroom.team_collaboration");
}

export const GUESTS_NEED_PLAN_MESSAGE = `Guests come with the ${TIER_LABELS[GUEST_ACCESS_FROM]} plan and above, or the guest access add-on (dataroom.guest_access). Invite them as members, or upgrade the room owner's plan.`;
export const ADMINS_NEED_PLAN_MESSAGE = `More admins come with the ${TIER_LABELS[TEAM_COLLABORATION_FROM]} plan and above, or the team collaboration add-on (dataroom.team_collaboration). Make them a member, or upgrade the room owner's plan.`;

/** Refuses (403) a role the owner's plan does not include: guests, or admins beyond the owner. */
export async function assertRoleAllowed(ctx: ServiceContext, room: Pick<DataroomSummary, "owner">, role: DataroomRole): Promise<void> {
  if (role !== "guest" && role !== "admin") return;
  const ownerAccess = await loadMemberAccess(ctx, room.owner.id);
  if (role === "guest" && !roomAllowsGuests(ownerAccess)) throw new AppError("FORBIDDEN", GUESTS_NEED_PLAN_MESSAGE);
  if (role === "admin" && !roomAllowsAdmins(ownerAccess)) throw new AppError("FORBIDDEN", ADMINS_NEED_PLAN_MESSAGE);
}

/** Refuses (403, naming the limit and what lifts it) when `adding` people of `role` would pass the owner's plan. */
export async function assertSeatsFor(ctx: ServiceContext, room: Pick<DataroomSummary, "id" | "owner">, roles: readonly DataroomRole[], options: { exceptInvitationId?: string } = {}): Promise<void> {
  if (roles.length === 0) return;
  const ownerAccess = await loadMemberAccess(ctx, room.owner.id);
  const guests = roles.filter((role) => role === "guest").length;
  const admins = roles.filter((role) => role === "admin").length;
  if (guests > 0 && !roomAllowsGuests(ownerAccess)) throw new AppError("FORBIDDEN", GUESTS_NEED_PLAN_MESSAGE);
  if (admins > 0 && !roomAllowsAdmins(ownerAccess)) throw new AppError("FORBIDDEN", ADMINS_NEED_PLAN_MESSAGE);
  const seats = await countSeats(ctx.db, room.id, ctx.now(), options.exceptInvitationId);
  const check = (limit: LimitName, current: number, adding: number) => {
    if (adding > 0) assertWithinLimit(ownerAccess, limit, current, adding);
  };
  check("max_dataroom_guests", seats.guests, guests);
  check("max_dataroom_members", seats.members, roles.length - guests);
}

export type RoomMember = {
  userId: string;
  name: string;
  /** Shown to people who may invite or manage members; others see names only. */
  email: string | null;
  role: DataroomRole;
  roleLabel: string;
  isOwner: boolean;
  isYou: boolean;
  joinedAt: string;
  lastSeenAt: string | null;
  overrides: Record<string, boolean>;
  /** Time-limited access: the last day (YYYY-MM-DD, UTC) they may use the room, and whether it has passed. */
  accessUntil: string | null;
  accessEnded: boolean;
};

/** The day (UTC) an access end falls on: it ends at that day's last millisecond. */
function lastDay(endsAt: Date): string {
  return endsAt.toISOString().slice(0, 10);
}

export type PendingInvitation = {
  id: string;
  email: string;
  role: DataroomRole;
  roleLabel: string;
  message: string;
  invitedBy: string | null;
  sentAt: string;
  sendCount: number;
  expiresAt: string;
  expired: boolean;
  /** The last day of access the invitee gets on joining, or null. */
  accessUntil: string | null;
};

export function toPendingInvitation(row: InvitationRow, now: Date): PendingInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    roleLabel: ROLE_LABELS[row.role],
    message: row.message,
    invitedBy: row.inviterName,
    sentAt: row.sentAt.toISOString(),
    sendCount: row.sendCount,
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt.getTime() <= now.getTime(),
    accessUntil: row.accessExpiresAt ? lastDay(row.accessExpiresAt) : null,
  };
}

/**
 * The users overview: everyone in the room (owner first, then admins, members, guests), the
 * invitations still pending and the seats left. Guests see only the owner and themselves; e-mail
 * addresses and invitations are shown to people who may invite or manage members.
 */
export async function listRoomPeople(ctx: ServiceContext, userId: string, rawId: unknown) {
  const room = await requireDataroom(ctx, userId, rawId);
  const canSeeContacts = room.permissions.invite || room.permissions.manage_members;
  const rows = await listDataroomMembers(ctx.db, room.id);
  const visible = room.role === "guest" ? rows.filter((row) => row.role === "owner" || row.userId === userId) : rows;
  const members: RoomMember[] = visible.map((row) => ({
    userId: row.userId,
    name: row.name,
    email: canSeeContacts || row.userId === userId ? row.email : null,
    role: row.role,
    roleLabel: ROLE_LABELS[row.role],
    isOwner: row.role === "owner",
    isYou: row.userId === userId,
    joinedAt: row.joinedAt.toISOString(),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    overrides: canSeeContacts ? row.overrides : {},
    accessUntil: row.accessExpiresAt ? lastDay(row.accessExpiresAt) : null,
    accessEnded: row.accessExpiresAt !== null && row.accessExpiresAt.getTime() <= ctx.now().getTime(),
  }));
  const invitations = canSeeContacts ? (await listOpenInvitations(ctx.db, room.id)).map((row) => toPendingInvitation(row, ctx.now())) : [];
  const ownerAccess = await loadMemberAccess(ctx, room.owner.id);
  const seats = await countSeats(ctx.db, room.id, ctx.now());
  return {
    dataroom: room,
    members,
    invitations,
    seats: {
      members: seats.members,
      guests: seats.guests,
      maxMembers: ownerAccess.limits.max_dataroom_members,
      maxGuests: ownerAccess.limits.max_dataroom_guests,
      guestsAllowed: roomAllowsGuests(ownerAccess),
      adminsAllowed: roomAllowsAdmins(ownerAccess),
      timeLimitedAccess: checkFeature(ownerAccess, "time_limited_access"),
    },
  };
}

export type RoomSession = { userId: string; name: string; email: string | null; role: DataroomRole; roleLabel: string; connections: number; since: string; canEnd: boolean };

/**
 * The sessions page (issue 20): who has the room open right now, from the room's object (its
 * sockets, each person once), with their role and since when; `manage_members`. `canEnd` says
 * whether the caller may end that person's access (removing them closes their pages at once).
 */
export async function listRoomSessions(ctx: ServiceContext, userId: string, rawId: unknown): Promise<{ dataroom: DataroomSummary; sessions: RoomSession[] }> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_members");
  const [present, people] = await Promise.all([roomAuthority(ctx, room.id).sessions(), listDataroomMembers(ctx.db, room.id)]);
  const byId = new Map(people.map((person) => [person.userId, person]));
  const sessions = present.flatMap((entry): RoomSession[] => {
    const person = byId.get(entry.userId);
    if (!person) return [];
    const canEnd = person.role !== "owner" && entry.userId !== userId && (person.role !== "admin" || room.isOwner);
    return [{ userId: entry.userId, name: person.name, email: person.email, role: person.role, roleLabel: ROLE_LABELS[person.role], connections: entry.connections, since: new Date(entry.since).toISOString(), canEnd }];
  });
  return { dataroom: room, sessions };
}

/** What a removed person's open pages say (sent over their sockets right before they close). */
export const REMOVED_MESSAGE = "You were removed from this data room. Ask its owner if you need access again.";

const NOT_IN_ROOM = () => new AppError("NOT_FOUND", "This person is not in this data room.");

function assertWritable(room: DataroomSummary) {
  assertRoomWritable(room);
}

/** Only the owner changes or removes an admin; admins and members with manage_members handle the rest. */
function assertMayManage(room: DataroomSummary, targetRole: DataroomRole) {
  if (targetRole === "owner") throw new AppError("FORBIDDEN", "The owner cannot be changed or removed. The owner can transfer ownership to another member.");
  if (targetRole === "admin" && !room.isOwner) throw new AppError("FORBIDDEN", "Only the owner can change or remove an admin.");
}

/** A new role for someone in the room (manage_members). Making an admin needs the owner and the team add-on or plan. */
export async function changeMemberRole(ctx: ServiceContext, userId: string, rawId: unknown, targetUserId: string, input: unknown): Promise<RoomMember[]> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_members");
  const { role } = parseInput(changeRoleSchema, input);
  assertWritable(room);
  const target = await findDataroomMember(ctx.db, room.id, targetUserId);
  if (!target) throw NOT_IN_ROOM();
  assertMayManage(room, target.role);
  if (role === "admin" && !room.isOwner) throw new AppError("FORBIDDEN", "Only the owner can make someone an admin.");
  if (target.role !== role) {
    const adding = role === "guest" && target.role !== "guest" ? ["guest" as const] : role !== "guest" && target.role === "guest" ? [role] : [];
    await assertRoleAllowed(ctx, room, role);
    await assertSeatsFor(ctx, room, adding);
    await roomAuthority(ctx, room.id).setRole(room.id, { userId: targetUserId, role });
    forgetRoomDecisions(ctx, room.id);
    ctx.logger.info("data room role changed", { dataroomId: room.id, userId: targetUserId, role });
    await auditRoom(ctx, room.id, userId, { action: "member.role", target: await personTarget(ctx, targetUserId), detail: `${ROLE_LABELS[target.role]} → ${ROLE_LABELS[role]}` });
  }
  return (await listRoomPeople(ctx, userId, room.id)).members;
}

/**
 * Time-limited access (issue 20): the last day someone may use the room, or none (`access_until`
 * null or blank). `manage_members`; admins' only by the owner; never the owner's. Needs
 * `time_limited_access` on the owner's plan to set an end (taking one away is always allowed).
 */
export async function setMemberAccessEnd(ctx: ServiceContext, userId: string, rawId: unknown, targetUserId: string, input: unknown): Promise<RoomMember[]> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_members");
  const { access_until: endsAt } = parseInput(z.object({ access_until: accessUntilSchema(ctx.now) }, { error: "The request body must be an object with access_until." }), input);
  const target = await findDataroomMember(ctx.db, room.id, targetUserId);
  if (!target) throw NOT_IN_ROOM();
  if (target.role === "owner") throw new AppError("FORBIDDEN", "The owner's access never ends.");
  assertMayManage(room, target.role);
  if (targetUserId === userId) throw new AppError("FORBIDDEN", "You cannot change when your own access ends. Ask the room's owner.");
  if (endsAt) requireFeature(await loadMemberAccess(ctx, room.owner.id), "time_limited_access");
  await roomAuthority(ctx, room.id).setAccessEnd(room.id, { userId: targetUserId, endsAt: endsAt ? endsAt.getTime() : null });
  forgetRoomDecisions(ctx, room.id);
  ctx.logger.info("data room access end set", { dataroomId: room.id, userId: targetUserId, endsAt: endsAt?.toISOString() ?? null });
  await auditRoom(ctx, room.id, userId, { action: "member.access", target: await personTarget(ctx, targetUserId), detail: endsAt ? `access until ${lastDay(endsAt)}` : "access without an end" });
  return (await listRoomPeople(ctx, userId, room.id)).members;
}

/** Removes someone (manage_members): their very next request to the room is refused. */
export async function removeMember(ctx: ServiceContext, userId: string, rawId: unknown, targetUserId: string): Promise<void> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_members");
  if (targetUserId === userId) throw new AppError("VALIDATION_ERROR", "To leave this data room yourself, use Leave data room.");
  const target = await findDataroomMember(ctx.db, room.id, targetUserId);
  if (!target) throw NOT_IN_ROOM();
  assertMayManage(room, target.role);
  await roomAuthority(ctx, room.id).remove(room.id, { userId: targetUserId, now: ctx.now().getTime(), message: REMOVED_MESSAGE });
  forgetRoomDecisions(ctx, room.id);
  ctx.logger.info("data room member removed", { dataroomId: room.id, userId: targetUserId });
  await auditRoom(ctx, room.id, userId, { action: "member.remove", target: await personTarget(ctx, targetUserId) });
}

/** Leaves a room; the owner cannot (transfer ownership or delete the room first). */
export async function leaveDataroom(ctx: ServiceContext, userId: string, rawId: unknown): Promise<void> {
  const room = await requireDataroom(ctx, userId, rawId);
  if (room.isOwner) throw new AppError("FORBIDDEN", "The owner cannot leave the data room. Transfer ownership to another member first, or delete the room.");
  await roomAuthority(ctx, room.id).remove(room.id, { userId, now: ctx.now().getTime(), message: "You left this data room." });
  forgetRoomDecisions(ctx, room.id);
  ctx.logger.info("data room left", { dataroomId: room.id, userId });
  await auditRoom(ctx, room.id, userId, { action: "member.leave", target: { type: "room", id: room.id, name: room.name } });
}

/**
 * The owner hands the room to a member or admin of it (not a guest). The room then counts toward
 * the new owner's plan, which must have room for it; the old owner stays as an admin.
 */
export async function transferOwnership(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<DataroomSummary> {
  const room = await requireDataroom(ctx, userId, rawId);
  if (!room.isOwner) throw new AppError("FORBIDDEN", "Only the owner can transfer ownership of this data room.");
  const { user_id: targetUserId } = parseInput(transferOwnershipSchema, input);
  if (targetUserId === userId) throw new AppError("VALIDATION_ERROR", "You already own this data room. Choose another member.");
  const target = await findDataroomMember(ctx.db, room.id, targetUserId);
  if (!target) throw NOT_IN_ROOM();
  if (target.role === "guest") throw new AppError("VALIDATION_ERROR", "A guest cannot own the room. Make them a member first.");
  const newOwnerAccess = await loadMemberAccess(ctx, targetUserId);
  try {
    assertWithinLimit(newOwnerAccess, "max_datarooms", await countOwnedDatarooms(ctx.db, targetUserId));
  } catch {
    throw new AppError("FORBIDDEN", `${target.name}'s plan has no room for another data room. They can upgrade their plan or add extra data rooms first.`);
  }
  await roomAuthority(ctx, room.id).transfer(room.id, { from: userId, to: targetUserId, now: ctx.now().getTime() });
  forgetRoomDecisions(ctx, room.id);
  ctx.logger.info("data room ownership transferred", { dataroomId: room.id, from: userId, to: targetUserId });
  await auditRoom(ctx, room.id, userId, { action: "room.transfer", target: await personTarget(ctx, targetUserId) });
  return requireDataroom(ctx, userId, room.id);
}
