import { z } from "zod";
import { TEAM_ROLE_LABELS } from "~/features/teams/teams.permissions";
import { roomOverridesOf } from "~/features/teams/team-roles.catalog";
import { listCustomRolesOfMember, listTeamMembers } from "~/features/teams/teams.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { auditRefusal, auditRoom, personTarget } from "./audit-record.server";
import { assertRoomWritable, readOnlyReason, DATAROOM_PERMISSIONS, effectivePermissions, isDataroomPermission, ROLE_LABELS, ROLE_PERMISSIONS, type DataroomPermission } from "./datarooms.permissions";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";
import { listDataroomMembers } from "./members.queries.server";
import { decideInRoom, forgetRoomDecisions, roomAuthority } from "./room-authority.server";

/**
 * Per-person permissions of a data room (spec §7 "Dataroom permissions", issue 19): grant, revoke
 * or reset one permission of one person. Room admins (manage_members) decide; the room's
 * authority applies the change at once, copies it to D1 and tells the sockets 300 ms after the
 * last change of a burst, and refuses more than 5 changes in 10 s (429, with when to retry).
 */

const userIdField = z.string({ error: "Say whose permission changes: user_id is required." }).trim().min(1, "Say whose permission changes: user_id is required.").max(64);
const permissionField = z.string({ error: "Say which permission changes: permission is required." }).trim().min(1, "Say which permission changes: permission is required.");

const grantSchema = z.object({
  user_id: userIdField,
  permission: permissionField,
  action: z.enum(["grant", "revoke"], { error: "action is 'grant' or 'revoke'." }).default("grant"),
});
const setSchema = z.object({
  permission: permissionField,
  value: z.union([z.boolean(), z.null()], { error: "value is true (grant), false (revoke) or null (back to the role's default)." }),
});
const revokeSchema = z.object({ user_id: userIdField, permission: permissionField });

export type PermissionChange = { success: true; user_id: string; role: string; permissions: Record<DataroomPermission, boolean>; overrides: Record<string, boolean> };

function unknownPermission(name: string): AppError {
  return new AppError("VALIDATION_ERROR", `Unknown permission "${name.slice(0, 60)}". Use one of: ${DATAROOM_PERMISSIONS.join(", ")}.`);
}

/** Someone whose permissions the caller may change in a live room: not themselves, not the owner, an admin only by the owner. */
async function requireChangeablePerson(ctx: ServiceContext, room: DataroomSummary, actorId: string, targetUserId: string) {
  assertRoomWritable(room);
  if (targetUserId === actorId) throw new AppError("FORBIDDEN", "You cannot change your own permissions. Ask the room's owner.");
  const target = await decideInRoom(ctx, room.id, targetUserId);
  if (!target) throw new AppError("NOT_FOUND", "This person is not in this data room.");
  if (target.role === "owner") throw new AppError("FORBIDDEN", "The owner's permissions cannot be changed: the owner always has every permission.");
  if (target.role === "admin" && !room.isOwner) throw new AppError("FORBIDDEN", "Only the owner can change an admin's permissions.");
  return target as typeof target & { role: Exclude<typeof target.role, "owner"> };
}

async function change(ctx: ServiceContext, actorId: string, rawRoomId: unknown, targetUserId: string, permission: string, value: boolean | null): Promise<PermissionChange> {
  const room = await requireDataroom(ctx, actorId, rawRoomId, "manage_members");
  if (!isDataroomPermission(permission)) throw unknownPermission(permission);
  await requireChangeablePerson(ctx, room, actorId, targetUserId);
  const result = await roomAuthority(ctx, room.id).updatePermission(room.id, { userId: targetUserId, permission, value, now: ctx.now().getTime() });
  forgetRoomDecisions(ctx, room.id);
  if (!result.applied) {
    if (result.reason === "breaker") {
      await auditRefusal(ctx, room.id, actorId, `Too many permission changes: ${permission} for this person was not changed.`, await personTarget(ctx, targetUserId));
      throw new AppError(
        "RATE_LIMITED",
        `Too many permission changes in this data room: at most 5 in 10 seconds. Try again in ${result.retryAfterSeconds} second${result.retryAfterSeconds === 1 ? "" : "s"}.`,
        { retryAfterSeconds: result.retryAfterSeconds },
      );
    }
    if (result.reason === "owner") throw new AppError("FORBIDDEN", "The owner's permissions cannot be changed: the owner always has every permission.");
    throw new AppError("NOT_FOUND", "This person is not in this data room.");
  }
  ctx.logger.info("data room permission changed", { dataroomId: room.id, userId: targetUserId, permission, value });
  const detail = `${permission}: ${value === null ? "back to the role's default" : value ? "on" : "off"}`;
  await auditRoom(ctx, room.id, actorId, { action: "permission.change", target: await personTarget(ctx, targetUserId), detail });
  return { success: true, user_id: targetUserId, role: result.decision.role, permissions: result.decision.permissions, overrides: result.decision.overrides };
}

/** POST /api/datarooms/{id}/permissions { user_id, permission, action: 'grant' } → { success }. */
export async function grantPermission(ctx: ServiceContext, actorId: string, rawRoomId: unknown, input: unknown): Promise<PermissionChange> {
  const { user_id, permission, action } = parseInput(grantSchema, input);
  return change(ctx, actorId, rawRoomId, user_id, permission, action === "grant");
}

/** PUT /api/datarooms/{id}/permissions/{userId} { permission, value }: true, false, or null for the role's default. */
export async function setPermission(ctx: ServiceContext, actorId: string, rawRoomId: unknown, targetUserId: string, input: unknown): Promise<PermissionChange> {
  const { permission, value } = parseInput(setSchema, input);
  return change(ctx, actorId, rawRoomId, targetUserId, permission, value);
}

/** DELETE /api/datarooms/{id}/permissions { user_id, permission }: the permission is taken away. */
export async function revokePermission(ctx: ServiceContext, actorId: string, rawRoomId: unknown, input: unknown): Promise<PermissionChange> {
  const { user_id, permission } = parseInput(revokeSchema, input);
  return change(ctx, actorId, rawRoomId, user_id, permission, false);
}

const templateSchema = z.object({ roleId: z.uuid({ error: "Choose one of your teams' roles to apply." }) });

/**
 * PUT /api/datarooms/{id}/permissions/{userId}/template { roleId }: a custom role of one of the
 * caller's teams used as a template (issue 42): the person keeps their room role and gets exactly
 * the role's data room permissions, in one change of the room's authority (not a burst of
 * switches, so the breaker is not involved). Later changes of the team role do not follow here.
 */
export async function applyRoleTemplate(ctx: ServiceContext, actorId: string, rawRoomId: unknown, targetUserId: string, input: unknown): Promise<PermissionChange> {
  const { roleId } = parseInput(templateSchema, input);
  const room = await requireDataroom(ctx, actorId, rawRoomId, "manage_members");
  const target = await requireChangeablePerson(ctx, room, actorId, targetUserId);
  const [template] = await listCustomRolesOfMember(ctx.db, actorId, roleId);
  if (!template) throw new AppError("NOT_FOUND", "That role does not exist in any of your teams.");
  const overrides = roomOverridesOf(target.role, template.permissions);
  if (!overrides) throw new AppError("VALIDATION_ERROR", `“${template.name}” gives nothing in data rooms (it has no View). Choose a role with data room permissions.`);
  await roomAuthority(ctx, room.id).place(room.id, { userId: targetUserId, role: target.role, overrides, now: ctx.now().getTime() });
  forgetRoomDecisions(ctx, room.id);
  const decision = await decideInRoom(ctx, room.id, targetUserId);
  if (!decision) throw new AppError("NOT_FOUND", "This person is not in this data room.");
  const granted = DATAROOM_PERMISSIONS.filter((permission) => decision.permissions[permission]);
  await auditRoom(ctx, room.id, actorId, { action: "permission.change", target: await personTarget(ctx, targetUserId), detail: `Team role “${template.name}” (${template.teamName}) applied: ${granted.join(", ")}` });
  return { success: true, user_id: targetUserId, role: decision.role, permissions: decision.permissions, overrides: decision.overrides };
}

export type PermissionMatrixRow = {
  userId: string;
  name: string;
  role: string;
  roleLabel: string;
  permissions: Record<DataroomPermission, boolean>;
  /** Which permissions differ from the role's default (an override). */
  overridden: DataroomPermission[];
  /** Whether the caller may change this person's permissions. */
  editable: boolean;
  /** In a team's room (issue 42): the team role that sets this person's permissions here, or null. */
  teamRole: string | null;
};

/** The members × permissions matrix of the permissions page (manage_members), from the room's authority. */
export async function getPermissionMatrix(ctx: ServiceContext, actorId: string, rawRoomId: unknown) {
  const room = await requireDataroom(ctx, actorId, rawRoomId, "manage_members");
  const [roster, people, team, templates] = await Promise.all([
    roomAuthority(ctx, room.id).roster(room.id),
    listDataroomMembers(ctx.db, room.id),
    room.team ? listTeamMembers(ctx.db, room.team.id) : Promise.resolve([]),
    listCustomRolesOfMember(ctx.db, actorId),
  ]);
  const names = new Map(people.map((person) => [person.userId, person.name]));
  // Whose permissions the team sets (its owner's and admins' too: they are the room's admins by it).
  const teamRoles = new Map(team.map((member) => [member.userId, member.customRoleName ?? TEAM_ROLE_LABELS[member.role]]));
  const order = { owner: 0, admin: 1, member: 2, guest: 3 } as const;
  const rows: PermissionMatrixRow[] = roster
    .map((member) => {
      const defaults = new Set<DataroomPermission>(ROLE_PERMISSIONS[member.role]);
      const permissions = effectivePermissions(member.role, member.overrides);
      return {
        userId: member.userId,
        name: names.get(member.userId) ?? "Someone",
        role: member.role,
        roleLabel: ROLE_LABELS[member.role],
        permissions,
        overridden: DATAROOM_PERMISSIONS.filter((permission) => member.role !== "owner" && member.overrides[permission] !== undefined && member.overrides[permission] !== defaults.has(permission)),
        editable: !readOnlyReason(room) && member.role !== "owner" && member.userId !== actorId && (member.role !== "admin" || room.isOwner),
        teamRole: member.role === "owner" ? null : (teamRoles.get(member.userId) ?? null),
      };
    })
    .sort((a, b) => order[a.role as keyof typeof order] - order[b.role as keyof typeof order] || a.name.localeCompare(b.name));
  // The caller's teams' custom roles that give something in rooms, to apply as templates.
  const roleTemplates = templates.filter((role) => role.permissions.includes("dataroom.view")).map((role) => ({ id: role.id, name: role.name, teamName: role.teamName }));
  return { dataroom: room, permissions: DATAROOM_PERMISSIONS, rows, roleTemplates };
}
