import { z } from "zod";
import type { TeamRole } from "~/db/schema";
import { checkFeature, withinLimit } from "~/features/access/access-check";
import { assertWithinLimit, loadMemberAccess, requireFeature } from "~/features/access/access.server";
import { findUserById } from "~/features/auth/auth.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { requireTeam, teamEvent } from "./team-access.server";
import { syncTeamDrive, teamDriveFor } from "./team-drive.server";
import { modulePermissionsFor } from "./team-roles.catalog";
import { applyTeamPlace, takeOutOfTeamRooms } from "./team-rooms.server";
import { mayManageRole, TEAM_ROLE_LABELS, type TeamPermission } from "./teams.permissions";
import {
  countSeatsTaken,
  deleteTeamMember,
  findTeamCustomRole,
  findTeamMember,
  insertTeam,
  listOpenTeamInvitations,
  listTeamCustomRoles,
  listTeamEvents,
  listTeamMembers,
  listTeamRooms,
  listTeamsOf,
  renameTeamRow,
  setTeamMemberRole,
  transferTeam,
} from "./teams.queries.server";
import { teamNameSchema, teamRoleChangeSchema, transferSchema } from "./teams.schema";

/**
 * Teams (issue 42, docs/teams.md): create one (Business: feature.team_management), see who is in
 * it, rename it, change roles, remove people, leave, hand it over. Every entry point starts with
 * `requireTeam`, which answers 404 to anyone not in the team and 403 naming the missing right.
 * Invitations live in team-invitations.server.ts.
 */

export type TeamSummary = Awaited<ReturnType<typeof listTeamsOf>>[number];

export async function listMyTeams(ctx: ServiceContext, userId: string): Promise<TeamSummary[]> {
  return listTeamsOf(ctx.db, userId);
}

/** The teams whose workspace the member works in (not as billing): where they might move a form or a page; each move checks the right itself. */
export async function listWorkTeams(ctx: ServiceContext, userId: string): Promise<{ id: string; name: string }[]> {
  return (await listTeamsOf(ctx.db, userId)).filter((team) => team.role !== "billing").map((team) => ({ id: team.id, name: team.name }));
}

/** A new team owned by the caller, who needs team management on their plan and a seat for themselves. */
export async function createTeam(ctx: ServiceContext, userId: string, input: unknown): Promise<{ id: string; name: string }> {
  const access = await loadMemberAccess(ctx, userId);
  requireFeature(access, "team_management");
  const { name } = parseInput(teamNameSchema, input);
  assertWithinLimit(access, "max_team_seats", 0, 1);
  const id = crypto.randomUUID();
  const now = ctx.now();
  await insertTeam(ctx.db, { id, name, ownerId: userId, createdAt: now, updatedAt: now }, await teamEvent(ctx, id, userId, "team.create", { name }));
  await syncTeamDrive(ctx, id);
  ctx.logger.info("team created", { teamId: id });
  return { id, name };
}

export type TeamView = {
  team: { id: string; name: string; createdAt: string };
  me: { userId: string; role: TeamRole; customRoleName: string | null; permissions: TeamPermission[] };
  members: { userId: string; name: string; email: string; role: TeamRole; customRoleId: string | null; roleLabel: string; joinedAt: string }[];
  /** The team's custom roles, to those who give roles or manage them. */
  customRoles: { id: string; name: string }[] | null;
  /** How long logs are kept and the legal hold, to those who manage them. */
  logs: { days: number; hold: { at: string; byEmail: string | null; reason: string } | null } | null;
  seats: { taken: number; total: number };
  invitations: { id: string; email: string; role: TeamRole; roleLabel: string; sentAt: string; expiresAt: string; expired: boolean; sendCount: number }[] | null;
  activity: { id: string; at: string; actorEmail: string | null; action: string; targetName: string | null; detail: string | null }[] | null;
  rooms: { id: string; name: string }[];
  /** The team's drive: its root folder and whether the caller may change it (null: their place gives no files). */
  drive: { rootId: string; canEdit: boolean } | null;
};

/** What the team page shows: members and seats to everyone in the team; invitations and activity to those who manage it. */
export async function getTeam(ctx: ServiceContext, userId: string, rawId: unknown): Promise<TeamView> {
  const { team, role, customRole, permissions } = await requireTeam(ctx, userId, rawId, "team.view");
  const now = ctx.now();
  const can = (permission: TeamPermission) => permissions.includes(permission);
  const canInvite = can("team.invite");
  const canSeeActivity = can("team.activity.view");
  const canManageLogs = can("team.logs.manage");
  const [members, taken, ownerAccess, invitations, events, rooms, customRoles, holder, drive] = await Promise.all([
    listTeamMembers(ctx.db, team.id),
    countSeatsTaken(ctx.db, team.id, now),
    loadMemberAccess(ctx, team.ownerId),
    canInvite ? listOpenTeamInvitations(ctx.db, team.id) : Promise.resolve(null),
    canSeeActivity ? listTeamEvents(ctx.db, team.id, 50) : Promise.resolve(null),
    can("team.rooms.view") ? listTeamRooms(ctx.db, team.id) : Promise.resolve([]),
    can("team.members.manage") || can("team.roles.manage") ? listTeamCustomRoles(ctx.db, team.id) : Promise.resolve(null),
    canManageLogs && team.legalHoldAt && team.legalHoldBy ? findUserById(ctx.db, team.legalHoldBy) : Promise.resolve(undefined),
    teamDriveFor(ctx, team.id, modulePermissionsFor("files", role, customRole)),
  ]);
  return {
    team: { id: team.id, name: team.name, createdAt: team.createdAt.toISOString() },
    me: { userId, role, customRoleName: customRole?.name ?? null, permissions },
    members: members.map((member) => ({
      userId: member.userId,
      name: member.name,
      email: member.email,
      role: member.role,
      customRoleId: member.customRoleId,
      roleLabel: roleLabel(member.role, member.customRoleName),
      joinedAt: member.joinedAt.toISOString(),
    })),
    customRoles: customRoles?.map((row) => ({ id: row.id, name: row.name })) ?? null,
    logs: canManageLogs
      ? { days: team.logRetentionDays, hold: team.legalHoldAt ? { at: team.legalHoldAt.toISOString(), byEmail: holder?.email ?? null, reason: team.legalHoldReason } : null }
      : null,
    seats: { taken, total: ownerAccess.limits.max_team_seats },
    invitations:
      invitations?.map((row) => ({
        id: row.id,
        email: row.email,
        role: row.role,
        roleLabel: row.customRoleName ?? TEAM_ROLE_LABELS[row.role],
        sentAt: row.sentAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        expired: row.expiresAt <= now,
        sendCount: row.sendCount,
      })) ?? null,
    activity: events?.map((event) => ({ ...event, at: event.at.toISOString() })) ?? null,
    rooms,
    drive,
  };
}

export async function renameTeam(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<{ name: string }> {
  const { team } = await requireTeam(ctx, userId, rawId, "team.rename");
  const { name } = parseInput(teamNameSchema, input);
  if (name !== team.name) await renameTeamRow(ctx.db, team.id, name, ctx.now(), await teamEvent(ctx, team.id, userId, "team.rename", { name, detail: `was ${team.name}` }));
  return { name };
}

async function requireOtherMember(ctx: ServiceContext, teamId: string, actorId: string, rawUserId: unknown) {
  const memberId = z.string().min(1).max(64).safeParse(rawUserId);
  const member = memberId.success ? await findTeamMember(ctx.db, teamId, memberId.data) : undefined;
  if (!member) throw new AppError("NOT_FOUND", "This person is not in the team.");
  if (member.userId === actorId) throw new AppError("CONFLICT", "You can't change your own place in the team here. To go, use Leave the team.");
  return member;
}

/** What a member's role reads as: their custom role's name, or the system role's label. */
function roleLabel(role: TeamRole, customRoleName: string | null): string {
  return customRoleName ?? TEAM_ROLE_LABELS[role];
}

/**
 * Gives someone another role: a system role, or a custom role (they are a member with its
 * permissions). Admins are made and unmade by the owner only.
 */
export async function changeTeamRole(ctx: ServiceContext, userId: string, rawId: unknown, rawUserId: unknown, input: unknown): Promise<{ role: TeamRole; customRoleId: string | null; label: string }> {
  const { team, role: actorRole } = await requireTeam(ctx, userId, rawId, "team.members.manage");
  const member = await requireOtherMember(ctx, team.id, userId, rawUserId);
  const { role, customRoleId = null } = parseInput(teamRoleChangeSchema, input);
  if (!mayManageRole(actorRole, member.role) || !mayManageRole(actorRole, role)) {
    throw new AppError("FORBIDDEN", member.role === "owner" ? "The owner's role changes only when they hand the team over." : "Only the team's owner makes or unmakes admins.");
  }
  if (customRoleId && role !== "member") throw new AppError("VALIDATION_ERROR", "A custom role is for members: choose Member with it, or no custom role.");
  const customRole = customRoleId ? await findTeamCustomRole(ctx.db, team.id, customRoleId) : undefined;
  if (customRoleId && !customRole) throw new AppError("NOT_FOUND", "That custom role does not exist in this team.");
  const label = roleLabel(role, customRole?.name ?? null);
  if (role !== member.role || customRoleId !== member.customRoleId) {
    const event = await teamEvent(ctx, team.id, userId, "member.role", { name: member.email, detail: `${roleLabel(member.role, member.customRoleName)} → ${label}` });
    if (!(await setTeamMemberRole(ctx.db, team.id, member.userId, role, customRoleId, event))) {
      throw new AppError("CONFLICT", "That role was just deleted. Reload the page and choose again.");
    }
    await applyTeamPlace(ctx, team.id, member.userId, role, customRole ?? null);
  }
  return { role, customRoleId, label };
}

/** Takes someone out of the team: what the team owns is closed to them at once (their sessions stay). */
export async function removeTeamMember(ctx: ServiceContext, userId: string, rawId: unknown, rawUserId: unknown): Promise<void> {
  const { team, role: actorRole } = await requireTeam(ctx, userId, rawId, "team.members.manage");
  const member = await requireOtherMember(ctx, team.id, userId, rawUserId);
  if (!mayManageRole(actorRole, member.role)) {
    throw new AppError("FORBIDDEN", member.role === "owner" ? "The owner can't be removed. They can hand the team over first." : "Only the team's owner removes admins.");
  }
  await deleteTeamMember(ctx.db, team.id, member.userId, await teamEvent(ctx, team.id, userId, "member.remove", { name: member.email, detail: TEAM_ROLE_LABELS[member.role] }));
  await takeOutOfTeamRooms(ctx, team.id, member.userId, "You were removed from the team whose workspace holds this data room.");
  ctx.logger.info("team member removed", { teamId: team.id });
}

/** Leaves the team; the owner hands it over first. */
export async function leaveTeam(ctx: ServiceContext, userId: string, rawId: unknown): Promise<void> {
  const { team, role } = await requireTeam(ctx, userId, rawId, "team.view");
  if (role === "owner") throw new AppError("CONFLICT", "You own this team: hand it over to someone in it before you leave.");
  await deleteTeamMember(ctx.db, team.id, userId, await teamEvent(ctx, team.id, userId, "member.leave", { detail: TEAM_ROLE_LABELS[role] }));
  await takeOutOfTeamRooms(ctx, team.id, userId, "You left the team whose workspace holds this data room.");
}

/** Hands the team to someone in it, who needs team management and the seats on their own plan; the old owner stays as an admin. */
export async function transferTeamOwnership(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<void> {
  const { team } = await requireTeam(ctx, userId, rawId, "team.transfer");
  const { userId: to } = parseInput(transferSchema, input);
  const member = await requireOtherMember(ctx, team.id, userId, to);
  const access = await loadMemberAccess(ctx, member.userId);
  if (!checkFeature(access, "team_management")) {
    throw new AppError("FORBIDDEN", `${member.name} can't take the team over: their plan has no team management (Business and above).`);
  }
  const taken = await countSeatsTaken(ctx.db, team.id, ctx.now());
  if (!withinLimit(access.limits, "max_team_seats", taken, 0)) {
    throw new AppError("FORBIDDEN", `${member.name}'s plan allows ${access.limits.max_team_seats} team seats and this team uses ${taken}.`);
  }
  await transferTeam(ctx.db, team.id, userId, member.userId, ctx.now(), await teamEvent(ctx, team.id, userId, "team.transfer", { name: member.email }));
  await applyTeamPlace(ctx, team.id, member.userId, "owner", null);
  ctx.logger.info("team handed over", { teamId: team.id });
}
