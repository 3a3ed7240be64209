import type { TeamRole } from "~/db/schema";
import { auditRoom } from "~/features/datarooms/audit-record.server";
import { setDataroomTeam } from "~/features/datarooms/datarooms.queries.server";
import { createDataroom, requireDataroom, type DataroomSummary } from "~/features/datarooms/datarooms.server";
import { AppError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { forgetRoomDecisions, roomAuthority } from "~/features/datarooms/room-authority.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { requireTeam, teamEvent } from "./team-access.server";
import { syncTeamDrive } from "./team-drive.server";
import { roomGrantOf } from "./team-roles.catalog";
import { insertTeamEvents, listTeamMembers, listTeamRoomIds, listTeamsOf } from "./teams.queries.server";
import { moveIntoTeamSchema } from "./teams.schema";

/**
 * Data rooms in a team's workspace (issue 42, ADR 037): the team's people are in each of its rooms
 * by their team role (owner and admins as admins, members as members or as their custom role says,
 * billing not at all), kept so
 * by the room's authority (the Durable Object) on every change: joining the team lets them in,
 * a new role changes theirs, leaving or being removed takes them out and closes their open pages.
 * The room's owner is the team member who created it (their plan's room limits apply).
 */

/** What someone's place in the team gives in each team room: a role and overrides (null: not in the rooms). */
export type RoomGrant = { role: "admin" | "member"; overrides: Record<string, boolean> };

/**
 * Owner and admins are room admins, members members, billing people not in the rooms; a member
 * with a custom role gets exactly its room permissions (team-roles.catalog.ts). The team's grant
 * replaces overrides set by hand in a team room: the team decides what its people may do there.
 */
export function roomGrantFor(role: TeamRole, customRole: { permissions: readonly string[] } | null): RoomGrant | null {
  if (role === "owner" || role === "admin") return { role: "admin", overrides: {} };
  if (role === "member") return customRole ? roomGrantOf(customRole.permissions) : { role: "member", overrides: {} };
  return null;
}

/** A new data room in the team's workspace (team.rooms.create); the team's people are let in at once. */
export async function createTeamRoom(ctx: ServiceContext, userId: string, rawTeamId: unknown, input: unknown): Promise<DataroomSummary> {
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.rooms.create");
  const room = await createDataroom(ctx, userId, input, { teamId: team.id });
  await placeTeamInRoom(ctx, team.id, room.id, userId);
  await insertTeamEvents(ctx.db, [await teamEvent(ctx, team.id, userId, "room.create", { name: room.name })]);
  return room;
}

/** Lets the team's people into a room of its workspace by their place in the team (not its owner, not `except`). */
async function placeTeamInRoom(ctx: ServiceContext, teamId: string, roomId: string, except: string): Promise<void> {
  const now = ctx.now().getTime();
  for (const member of await listTeamMembers(ctx.db, teamId)) {
    const grant = roomGrantFor(member.role, member.customRoleId ? { permissions: member.customRolePermissions ?? [] } : null);
    if (member.userId === except || !grant) continue;
    await roomAuthority(ctx, roomId).place(roomId, { userId: member.userId, ...grant, now });
  }
  forgetRoomDecisions(ctx, roomId);
}

/** The teams whose workspace the member may create or move rooms into (team.rooms.create: owner and admins). */
export async function listTeamsForRooms(ctx: ServiceContext, userId: string): Promise<{ id: string; name: string }[]> {
  const teams = await listTeamsOf(ctx.db, userId);
  return teams.filter((team) => team.role === "owner" || team.role === "admin").map((team) => ({ id: team.id, name: team.name }));
}


/**
 * Moves one of the member's own rooms into a team's workspace (the room's owner, who may create
 * rooms in that team): the team's people are let in by their place in the team; everyone already in
 * the room stays. A room in a team stays there (moving between teams is not offered).
 */
export async function moveRoomIntoTeam(ctx: ServiceContext, userId: string, rawRoomId: unknown, input: unknown): Promise<{ room: DataroomSummary; team: { id: string; name: string } }> {
  const room = await requireDataroom(ctx, userId, rawRoomId, "manage_settings");
  const { teamId } = parseInput(moveIntoTeamSchema("room"), input);
  if (!room.isOwner) throw new AppError("FORBIDDEN", "Only the room's owner moves it into a team.");
  if (room.team) throw new AppError("CONFLICT", `This data room is already in the workspace of the team “${room.team.name}”.`);
  const { team } = await requireTeam(ctx, userId, teamId, "team.rooms.create");
  if (!(await setDataroomTeam(ctx.db, room.id, team.id, ctx.now()))) throw new AppError("CONFLICT", "This data room was just moved into a team. Reload the page.");
  await placeTeamInRoom(ctx, team.id, room.id, userId);
  await auditRoom(ctx, room.id, userId, { action: "room.update", target: { type: "room", id: room.id, name: room.name }, detail: `Moved into the workspace of the team “${team.name}”` });
  await insertTeamEvents(ctx.db, [await teamEvent(ctx, team.id, userId, "room.move", { name: room.name })]);
  return { room: { ...room, team: { id: team.id, name: team.name } }, team: { id: team.id, name: team.name } };
}

/** Someone out of the team is out of its drive and its rooms at once: their next request is refused and their open pages close. The room's owner stays. */
export async function takeOutOfTeamRooms(ctx: ServiceContext, teamId: string, userId: string, message: string): Promise<void> {
  await syncTeamDrive(ctx, teamId);
  await takeOutOfRooms(ctx, await listTeamRoomIds(ctx.db, teamId), userId, message);
}

const NO_LONGER_IN_ROOMS = "Your role in the team whose workspace holds this data room no longer includes its rooms.";

async function takeOutOfRooms(ctx: ServiceContext, roomIds: readonly string[], userId: string, message: string): Promise<void> {
  const now = ctx.now().getTime();
  for (const roomId of roomIds) {
    await roomAuthority(ctx, roomId).remove(roomId, { userId, now, message });
    forgetRoomDecisions(ctx, roomId);
  }
}

/** One grant (or none: out) for these people in these rooms. */
async function placeInRooms(ctx: ServiceContext, roomIds: readonly string[], userIds: readonly string[], grant: RoomGrant | null): Promise<void> {
  const now = ctx.now().getTime();
  for (const userId of userIds) {
    if (!grant) {
      await takeOutOfRooms(ctx, roomIds, userId, NO_LONGER_IN_ROOMS);
      continue;
    }
    for (const roomId of roomIds) await roomAuthority(ctx, roomId).place(roomId, { userId, ...grant, now });
  }
  for (const roomId of roomIds) forgetRoomDecisions(ctx, roomId);
}

/**
 * Someone's place in the team, applied to the team's drive and every team room: in, moved or out
 * (never the room's owner). Used when they join, when their role changes and when their custom role is edited.
 */
export async function applyTeamPlace(ctx: ServiceContext, teamId: string, userId: string, role: TeamRole, customRole: { permissions: readonly string[] } | null): Promise<void> {
  await syncTeamDrive(ctx, teamId);
  await placeInRooms(ctx, await listTeamRoomIds(ctx.db, teamId), [userId], roomGrantFor(role, customRole));
}

/** A custom role's new permissions for everyone holding it, in the drive and every team room (the rooms read once). */
export async function applyCustomRole(ctx: ServiceContext, teamId: string, holders: readonly string[], permissions: readonly string[]): Promise<void> {
  if (holders.length === 0) return;
  await syncTeamDrive(ctx, teamId);
  await placeInRooms(ctx, await listTeamRoomIds(ctx.db, teamId), holders, roomGrantFor("member", { permissions }));
}
