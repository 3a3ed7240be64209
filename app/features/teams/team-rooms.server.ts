import type { TeamRole } from "~/db/schema";
import { createDataroom, type DataroomSummary } from "~/features/datarooms/datarooms.server";
import { forgetRoomDecisions, roomAuthority } from "~/features/datarooms/room-authority.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { requireTeam, teamEvent } from "./team-access.server";
import { insertTeamEvents, listTeamMembers, listTeamRoomIds } from "./teams.queries.server";

/**
 * Data rooms in a team's workspace (issue 42, ADR 037): the team's people are in each of its rooms
 * by their team role (owner and admins as admins, members as members, billing not at all), kept so
 * by the room's authority (the Durable Object) on every change: joining the team lets them in,
 * a new role changes theirs, leaving or being removed takes them out and closes their open pages.
 * The room's owner is the team member who created it (their plan's room limits apply).
 */

/** The room role a team role gives in the team's rooms (null: none). */
export function roomRoleForTeamRole(role: TeamRole): "admin" | "member" | null {
  if (role === "owner" || role === "admin") return "admin";
  if (role === "member") return "member";
  return null;
}

/** A new data room in the team's workspace (team.rooms.create); the team's people are let in at once. */
export async function createTeamRoom(ctx: ServiceContext, userId: string, rawTeamId: unknown, input: unknown): Promise<DataroomSummary> {
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.rooms.create");
  const room = await createDataroom(ctx, userId, input, { teamId: team.id });
  const now = ctx.now().getTime();
  for (const member of await listTeamMembers(ctx.db, team.id)) {
    const role = roomRoleForTeamRole(member.role);
    if (member.userId === userId || !role) continue;
    await roomAuthority(ctx, room.id).add(room.id, { userId: member.userId, role, now });
  }
  forgetRoomDecisions(ctx, room.id);
  await insertTeamEvents(ctx.db, [await teamEvent(ctx, team.id, userId, "room.create", { name: room.name })]);
  return room;
}

/** Someone who joined the team goes into each of its rooms with the role their team role gives. */
export async function letIntoTeamRooms(ctx: ServiceContext, teamId: string, userId: string, role: TeamRole): Promise<void> {
  const roomRole = roomRoleForTeamRole(role);
  if (!roomRole) return;
  const now = ctx.now().getTime();
  for (const roomId of await listTeamRoomIds(ctx.db, teamId)) {
    await roomAuthority(ctx, roomId).add(roomId, { userId, role: roomRole, now });
    forgetRoomDecisions(ctx, roomId);
  }
}

/** Someone out of the team is out of its rooms at once: their next request is refused and their open pages close. The room's owner stays. */
export async function takeOutOfTeamRooms(ctx: ServiceContext, teamId: string, userId: string, message: string): Promise<void> {
  const now = ctx.now().getTime();
  for (const roomId of await listTeamRoomIds(ctx.db, teamId)) {
    await roomAuthority(ctx, roomId).remove(roomId, { userId, now, message });
    forgetRoomDecisions(ctx, roomId);
  }
}

/** A new team role: a new role in each team room (in, out, or changed; never the room's owner's). */
export async function reapplyTeamRole(ctx: ServiceContext, teamId: string, userId: string, role: TeamRole): Promise<void> {
  const roomRole = roomRoleForTeamRole(role);
  if (!roomRole) return takeOutOfTeamRooms(ctx, teamId, userId, "Your role in the team whose workspace holds this data room no longer includes its rooms.");
  const now = ctx.now().getTime();
  for (const roomId of await listTeamRoomIds(ctx.db, teamId)) {
    const authority = roomAuthority(ctx, roomId);
    if (!(await authority.add(roomId, { userId, role: roomRole, now }))) await authority.setRole(roomId, { userId, role: roomRole });
    forgetRoomDecisions(ctx, roomId);
  }
}
