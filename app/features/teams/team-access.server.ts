import { z } from "zod";
import type { TeamRole } from "~/db/schema";
import { assertWithinLimit, loadMemberAccess } from "~/features/access/access.server";
import { findUserById } from "~/features/auth/auth.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { modulePermissionsFor, teamPermissionsOfCustomRole, type ModulePermission, type TeamModule } from "./team-roles.catalog";
import { teamPermissionsOf, type TeamPermission } from "./teams.permissions";
import { countSeatsTaken, findTeamMembership, type CustomRoleRef, type TeamEventInsert, type TeamRow } from "./teams.queries.server";

/** Who may do what in a team, its seats and its activity entries: what every team use case starts with. */

export type TeamAccess = { team: TeamRow; role: TeamRole; customRole: CustomRoleRef | null; permissions: TeamPermission[] };

/** What someone may do in the team: their system role's permissions, or their custom role's (members only). */
export function teamPermissionsFor(role: TeamRole, customRole: Pick<CustomRoleRef, "permissions"> | null): TeamPermission[] {
  return role === "member" && customRole ? teamPermissionsOfCustomRole(customRole.permissions) : teamPermissionsOf(role);
}

const notFound = () => new AppError("NOT_FOUND", "This team does not exist or you are not in it.");

/** The team as the caller sees it: 404 unless they are in it, 403 without the right. */
export async function requireTeam(ctx: ServiceContext, userId: string, rawId: unknown, permission: TeamPermission): Promise<TeamAccess> {
  const id = z.uuid().safeParse(rawId);
  if (!id.success) throw notFound();
  const found = await findTeamMembership(ctx.db, id.data, userId);
  if (!found) throw notFound();
  const permissions = teamPermissionsFor(found.role, found.customRole);
  if (!permissions.includes(permission)) {
    throw teamRightRefused(permission);
  }
  return { ...found, permissions };
}

/** The refusal of someone in the team whose place lacks `permission` (403, naming it). */
export function teamRightRefused(permission: string): AppError {
  return new AppError("FORBIDDEN", `You don't have the required permission: ${permission}. Ask the team's owner or an admin.`);
}

/** Seats of a team come from its owner's plan and add-ons; open invitations hold one each. */
export async function assertTeamSeats(ctx: ServiceContext, team: Pick<TeamRow, "id" | "ownerId">, adding: number, options: { exceptInvitationId?: string } = {}): Promise<void> {
  const access = await loadMemberAccess(ctx, team.ownerId);
  const taken = await countSeatsTaken(ctx.db, team.id, ctx.now(), options.exceptInvitationId);
  assertWithinLimit(access, "max_team_seats", taken, adding);
}

/** An activity entry; the actor as an id (their address is read) or as the account the caller has read already. */
export async function teamEvent(ctx: ServiceContext, teamId: string, actor: string | { id: string; email: string } | null, action: string, target?: { name?: string | null; detail?: string | null }): Promise<TeamEventInsert> {
  const who = typeof actor === "string" ? await findUserById(ctx.db, actor) : actor;
  return { id: crypto.randomUUID(), teamId, at: ctx.now(), actorId: who?.id ?? null, actorEmail: who?.email ?? null, action, targetName: target?.name ?? null, detail: target?.detail ?? null };
}


/** What the member may do with a module's things in a team's workspace (404 outside the team): its list, creating there. */
export async function teamModuleRights<M extends TeamModule>(ctx: ServiceContext, userId: string, teamId: string, module: M): Promise<ModulePermission<M>[]> {
  const parsed = z.uuid().safeParse(teamId);
  const found = parsed.success ? await findTeamMembership(ctx.db, parsed.data, userId) : undefined;
  if (!found) throw notFound();
  return modulePermissionsFor(module, found.role, found.customRole);
}

/** Whether someone in a team (their role and custom role's permissions, null when not in it) may do `permission` with a module's thing: "no view" reads as not found. */
export function moduleAccess<M extends TeamModule>(module: M, place: { role: TeamRole | null; customRolePermissions: string[] | null }, permission: ModulePermission<M>): "allowed" | "forbidden" | "not-found" {
  if (!place.role) return "not-found";
  const allowed = modulePermissionsFor(module, place.role, place.customRolePermissions ? { permissions: place.customRolePermissions } : null);
  if (!allowed.includes(`${module}.view` as ModulePermission<M>)) return "not-found";
  return allowed.includes(permission) ? "allowed" : "forbidden";
}

/** Someone may do `permission` with a module's things in a team's workspace (to make or move one there): 404 outside the team, 403 without it. */
export async function requireTeamModuleRight<M extends TeamModule>(ctx: ServiceContext, userId: string, teamId: string, module: M, permission: ModulePermission<M>): Promise<void> {
  if (!(await teamModuleRights(ctx, userId, teamId, module)).includes(permission)) throw teamRightRefused(permission);
}
