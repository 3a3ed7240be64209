import type { TeamRole } from "~/db/schema";

/**
 * What each system role of a team may do (issue 42): typed permission strings, checked by the server
 * at every entry point (`requireTeam`) and read by the team page to show only the controls that
 * will work. Browser-safe. Custom roles (team-roles.catalog.ts) give a member what their permissions say instead.
 */
export const TEAM_PERMISSIONS = [
  "team.view",
  "team.rename",
  "team.invite",
  "team.members.manage",
  "team.activity.view",
  "team.billing",
  "team.transfer",
  "team.rooms.view",
  "team.rooms.create",
  "team.roles.manage",
  "team.logs.manage",
] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = { owner: "Owner", admin: "Admin", member: "Member", billing: "Billing" };

export const TEAM_ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: "Everything, including handing the team to someone else; an admin of every team data room. One per team.",
  admin: "Invites and removes people, changes their roles (not other admins'), manages custom roles and how long logs are kept (and legal holds), renames the team, creates its data rooms (as an admin of each).",
  member: "Works in the team's data rooms as a member and sees who is in the team.",
  billing: "Sees the team's seats and plan; nothing else of the team's work.",
};

const ROLE_PERMISSIONS: Record<TeamRole, readonly TeamPermission[]> = {
  owner: TEAM_PERMISSIONS,
  admin: ["team.view", "team.rename", "team.invite", "team.members.manage", "team.activity.view", "team.rooms.view", "team.rooms.create", "team.roles.manage", "team.logs.manage"],
  member: ["team.view", "team.rooms.view"],
  billing: ["team.view", "team.billing"],
};

/** Roles someone may be invited with or given (the owner is made by a transfer only). */
export const ASSIGNABLE_TEAM_ROLES = ["admin", "member", "billing"] as const satisfies readonly TeamRole[];
export type AssignableTeamRole = (typeof ASSIGNABLE_TEAM_ROLES)[number];

export function teamRoleAllows(role: TeamRole, permission: TeamPermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function teamPermissionsOf(role: TeamRole): TeamPermission[] {
  return [...ROLE_PERMISSIONS[role]];
}

/** Admins are made and unmade by the owner only; admins manage members and billing people. */
export function mayManageRole(actor: TeamRole, target: TeamRole): boolean {
  if (actor === "owner") return target !== "owner";
  return actor === "admin" && (target === "member" || target === "billing");
}
