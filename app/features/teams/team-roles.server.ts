import { z } from "zod";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { requireTeam, teamEvent } from "./team-access.server";
import { ROLE_PERMISSION_GROUPS, missingNeed, rolePermissionLabel, type RolePermission, type RolePermissionGroup } from "./team-roles.catalog";
import { applyCustomRole } from "./team-rooms.server";
import { TEAM_ROLE_LABELS } from "./teams.permissions";
import {
  deleteUnheldTeamCustomRole,
  findTeamCustomRole,
  findTeamCustomRoleByName,
  insertTeamCustomRole,
  listCustomRoleHolders,
  listTeamCustomRoles,
  updateTeamCustomRole,
  type TeamCustomRoleRow,
} from "./teams.queries.server";
import { CUSTOM_ROLES_PER_TEAM, customRoleSchema } from "./teams.schema";

/**
 * A team's custom roles (issue 42, ADR 038): the owner and admins (`team.roles.manage`) build roles
 * from the permission catalogue, edit them (everyone holding one gets its new permissions in every
 * team room at once) and delete them while nobody holds them. Every change goes into the team's
 * activity. Giving a role to someone is `changeTeamRole` (teams.server.ts).
 */

export type CustomRoleView = { id: string; name: string; description: string; permissions: RolePermission[]; holders: number };
export type TeamRolesView = { team: { id: string; name: string }; roles: CustomRoleView[]; groups: readonly RolePermissionGroup[]; limit: number };

export async function listTeamRoles(ctx: ServiceContext, userId: string, rawTeamId: unknown): Promise<TeamRolesView> {
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.roles.manage");
  const roles = await listTeamCustomRoles(ctx.db, team.id);
  return {
    team: { id: team.id, name: team.name },
    roles: roles.map((role) => ({ id: role.id, name: role.name, description: role.description, permissions: role.permissions as RolePermission[], holders: role.holders })),
    groups: ROLE_PERMISSION_GROUPS,
    limit: CUSTOM_ROLES_PER_TEAM,
  };
}

const SYSTEM_NAMES = new Set(Object.values(TEAM_ROLE_LABELS).map((label) => label.toLowerCase()));

async function parseRole(ctx: ServiceContext, teamId: string, input: unknown, exceptRoleId?: string) {
  const role = parseInput(customRoleSchema, input);
  if (SYSTEM_NAMES.has(role.name.toLowerCase())) throw new AppError("CONFLICT", `“${role.name}” is a built-in role: give yours another name.`);
  const same = await findTeamCustomRoleByName(ctx.db, teamId, role.name);
  if (same && same.id !== exceptRoleId) throw new AppError("CONFLICT", `The team already has a role called “${role.name}”.`);
  if (role.permissions.length === 0) throw new AppError("VALIDATION_ERROR", "Choose at least one permission for the role.");
  const missing = missingNeed(role.permissions);
  if (missing) {
    throw new AppError("VALIDATION_ERROR", `“${rolePermissionLabel(missing.permission)}” needs “${rolePermissionLabel(missing.needs)}”: choose both, or neither.`);
  }
  return role;
}

const describe = (permissions: readonly RolePermission[]) => permissions.map(rolePermissionLabel).join(", ");

export async function createTeamRole(ctx: ServiceContext, userId: string, rawTeamId: unknown, input: unknown): Promise<CustomRoleView> {
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.roles.manage");
  const role = await parseRole(ctx, team.id, input);
  if ((await listTeamCustomRoles(ctx.db, team.id)).length >= CUSTOM_ROLES_PER_TEAM) {
    throw new AppError("CONFLICT", `A team has at most ${CUSTOM_ROLES_PER_TEAM} custom roles. Delete one nobody holds first.`);
  }
  const id = crypto.randomUUID();
  const now = ctx.now();
  await insertTeamCustomRole(
    ctx.db,
    { id, teamId: team.id, name: role.name, description: role.description, permissions: role.permissions, createdAt: now, updatedAt: now },
    await teamEvent(ctx, team.id, userId, "role.create", { name: role.name, detail: describe(role.permissions) }),
  );
  return { id, ...role, holders: 0 };
}

async function requireCustomRole(ctx: ServiceContext, teamId: string, rawRoleId: unknown): Promise<TeamCustomRoleRow> {
  const id = z.uuid().safeParse(rawRoleId);
  const found = id.success ? await findTeamCustomRole(ctx.db, teamId, id.data) : undefined;
  if (!found) throw new AppError("NOT_FOUND", "This role does not exist in the team.");
  return found;
}

/** A new name, description or permissions; whoever holds the role has its new permissions in every team room at once. */
export async function updateTeamRole(ctx: ServiceContext, userId: string, rawTeamId: unknown, rawRoleId: unknown, input: unknown): Promise<CustomRoleView> {
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.roles.manage");
  const existing = await requireCustomRole(ctx, team.id, rawRoleId);
  const role = await parseRole(ctx, team.id, input, existing.id);
  const before = new Set(existing.permissions);
  const added = role.permissions.filter((permission) => !before.has(permission));
  const removed = (existing.permissions as RolePermission[]).filter((permission) => !role.permissions.includes(permission));
  const changes = [
    existing.name !== role.name ? `was ${existing.name}` : null,
    added.length > 0 ? `added ${describe(added)}` : null,
    removed.length > 0 ? `removed ${describe(removed)}` : null,
    existing.description !== role.description ? "new description" : null,
  ].filter(Boolean);
  const holders = await listCustomRoleHolders(ctx.db, existing.id);
  if (changes.length === 0) return { id: existing.id, ...role, holders: holders.length };
  await updateTeamCustomRole(
    ctx.db,
    team.id,
    existing.id,
    { name: role.name, description: role.description, permissions: role.permissions, updatedAt: ctx.now() },
    await teamEvent(ctx, team.id, userId, "role.update", { name: role.name, detail: changes.join("; ") }),
  );
  if (added.length > 0 || removed.length > 0) await applyCustomRole(ctx, team.id, holders, role.permissions);
  return { id: existing.id, ...role, holders: holders.length };
}

/** Deletes a role nobody holds; one that is held is refused with how many hold it. */
export async function deleteTeamRole(ctx: ServiceContext, userId: string, rawTeamId: unknown, rawRoleId: unknown): Promise<void> {
  const { team } = await requireTeam(ctx, userId, rawTeamId, "team.roles.manage");
  const role = await requireCustomRole(ctx, team.id, rawRoleId);
  const deleted = await deleteUnheldTeamCustomRole(ctx.db, team.id, role.id, await teamEvent(ctx, team.id, userId, "role.delete", { name: role.name }));
  if (!deleted) {
    const held = (await listCustomRoleHolders(ctx.db, role.id)).length;
    throw new AppError("CONFLICT", `“${role.name}” is held by ${held === 1 ? "1 person" : `${held} people`}. Give them another role first, then delete it.`);
  }
}
