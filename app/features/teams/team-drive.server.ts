import type { SpaceRole, TeamRole } from "~/db/schema";
import type { ServiceContext } from "~/lib/service-context.server";
import { modulePermissionsFor } from "./team-roles.catalog";
import { findTeamDriveRoot, writeTeamDrive } from "./team-drive.queries.server";
import { findTeamById, listTeamMembers } from "./teams.queries.server";

/**
 * The team's drive (issue 42, ADR 042): folders, files and galleries the team owns outside its
 * data rooms. It is an ordinary file space (the file manager, uploads, the trash, sharing, search
 * and galleries all work on it unchanged) whose members are the team's people, written from their
 * place in the team after every change of it. No place, no membership: leaving the team or losing
 * the right is losing the drive on the next request.
 */

/**
 * What someone's place gives in the drive: owner and admins own it (everything, sharing too),
 * members edit, billing people are not in it; a custom role edits with "files.edit", reads and
 * downloads with "files.view", else is not in it.
 */
export function driveRoleFor(role: TeamRole, customRole: { permissions: readonly string[] } | null): SpaceRole | null {
  if (role === "owner" || role === "admin") return "owner";
  const rights = modulePermissionsFor("files", role, customRole);
  if (rights.includes("files.edit")) return "editor";
  return rights.includes("files.view") ? "viewer" : null;
}

/** Writes the drive's members from the team's people (creating the drive if it is missing). Idempotent. */
export async function syncTeamDrive(ctx: ServiceContext, teamId: string): Promise<void> {
  const [team, members] = await Promise.all([findTeamById(ctx.db, teamId), listTeamMembers(ctx.db, teamId)]);
  if (!team) return;
  const places = members.flatMap((member) => {
    const role = driveRoleFor(member.role, member.customRoleId ? { permissions: member.customRolePermissions ?? [] } : null);
    return role ? [{ userId: member.userId, role }] : [];
  });
  await writeTeamDrive(ctx.db, { teamId: team.id, ownerId: team.ownerId, name: team.name, now: ctx.now() }, places);
}

/** The drive's root folder; a team made before drives existed gets its drive here. */
export async function teamDriveRoot(ctx: ServiceContext, teamId: string): Promise<string> {
  const root = await findTeamDriveRoot(ctx.db, teamId);
  if (root) return root;
  await syncTeamDrive(ctx, teamId);
  return (await findTeamDriveRoot(ctx.db, teamId))!;
}

/** The team's drive as someone with these Team files rights finds it: its root and whether they may change it (null: no files for them). */
export async function teamDriveFor(ctx: ServiceContext, teamId: string, rights: readonly string[]): Promise<{ rootId: string; canEdit: boolean } | null> {
  if (!rights.includes("files.view")) return null;
  return { rootId: await teamDriveRoot(ctx, teamId), canEdit: rights.includes("files.edit") };
}
