import { DATAROOM_PERMISSION_LABELS, DATAROOM_PERMISSIONS, ROLE_PERMISSIONS, type DataroomPermission } from "~/features/datarooms/datarooms.permissions";
import type { TeamRole } from "~/db/schema/teams";
import type { TeamPermission } from "./teams.permissions";

/**
 * What a team's custom role may be built from (issue 42, ADR 038): the permission strings the
 * product already checks, grouped by module, each with the ones it needs ("Edit" needs "View").
 * Browser-safe: the role editor shows the same groups and ticks dependencies for the person, and
 * the server refuses a set that misses one. A module that comes into the team's workspace adds its
 * group here.
 */

/**
 * What can be done with a module's things in the team's workspace: see, change (and create),
 * delete. A form and its submissions; a receive page and what came through it; the team's drive
 * (its files and folders: see and download, or everything the file manager does).
 */
export const MODULE_PERMISSIONS = {
  form: ["form.view", "form.edit", "form.delete"],
  receive: ["receive.view", "receive.edit", "receive.delete"],
  files: ["files.view", "files.edit"],
} as const;
export type TeamModule = keyof typeof MODULE_PERMISSIONS;
export type ModulePermission<M extends TeamModule = TeamModule> = (typeof MODULE_PERMISSIONS)[M][number];
export type FormPermission = ModulePermission<"form">;
export type ReceivePermission = ModulePermission<"receive">;
export type TeamFilesPermission = ModulePermission<"files">;

/** A data room permission as a role carries it: `dataroom.<permission>`. */
export type RoomRolePermission = `dataroom.${DataroomPermission}`;
/** The team permissions a custom role may add to what every member has. */
export const CUSTOM_ROLE_TEAM_PERMISSIONS = ["team.activity.view"] as const satisfies readonly TeamPermission[];
export type CustomRoleTeamPermission = (typeof CUSTOM_ROLE_TEAM_PERMISSIONS)[number];
export type RolePermission = RoomRolePermission | ModulePermission | CustomRoleTeamPermission;

/** What everyone with a custom role has in the team itself (like a member). */
export const CUSTOM_ROLE_BASE_TEAM_PERMISSIONS: readonly TeamPermission[] = ["team.view", "team.rooms.view"];

const ROOM_NEEDS: Partial<Record<DataroomPermission, readonly DataroomPermission[]>> = {
  download: ["view"],
  upload: ["view"],
  edit: ["view"],
  delete: ["view"],
  share: ["view"],
  invite: ["view"],
  manage_members: ["invite"],
  manage_settings: ["view"],
  comment: ["view"],
  view_analytics: ["view"],
  view_audit_log: ["view"],
  request_signatures: ["view"],
  redact: ["edit"],
};

export type RolePermissionGroup = { module: string; description: string; permissions: { key: RolePermission; label: string; needs: RolePermission[] }[] };

export const ROLE_PERMISSION_GROUPS: readonly RolePermissionGroup[] = [
  {
    module: "Data rooms",
    description: "In every data room of the team's workspace.",
    permissions: DATAROOM_PERMISSIONS.map((permission) => ({
      key: `dataroom.${permission}` as const,
      label: DATAROOM_PERMISSION_LABELS[permission],
      needs: (ROOM_NEEDS[permission] ?? []).map((need) => `dataroom.${need}` as const),
    })),
  },
  {
    module: "Forms",
    description: "The forms of the team's workspace and their submissions.",
    permissions: [
      { key: "form.view", label: "See forms and their submissions", needs: [] },
      { key: "form.edit", label: "Create, build, publish and set up forms", needs: ["form.view"] },
      { key: "form.delete", label: "Delete forms and submissions", needs: ["form.view"] },
    ],
  },
  {
    module: "Receive pages",
    description: "The team's receive pages and what came through them.",
    permissions: [
      { key: "receive.view", label: "See receive pages and what came through them", needs: [] },
      { key: "receive.edit", label: "Create and change receive pages", needs: ["receive.view"] },
      { key: "receive.delete", label: "Delete receive pages", needs: ["receive.view"] },
    ],
  },
  {
    module: "Team files",
    description: "The team's own folders, files and galleries (its drive, outside its data rooms).",
    permissions: [
      { key: "files.view", label: "See and download the team's files", needs: [] },
      { key: "files.edit", label: "Upload, change, move and delete the team's files and folders", needs: ["files.view"] },
    ],
  },
  {
    module: "Team",
    description: "Everyone in the team sees its people and its data rooms.",
    permissions: [{ key: "team.activity.view", label: "See the team's activity", needs: [] }],
  },
];

const BY_KEY = new Map(ROLE_PERMISSION_GROUPS.flatMap((group) => group.permissions.map((permission) => [permission.key, permission] as const)));

export const ROLE_PERMISSION_KEYS: readonly RolePermission[] = [...BY_KEY.keys()];

export function isRolePermission(value: unknown): value is RolePermission {
  return typeof value === "string" && BY_KEY.has(value as RolePermission);
}

export function rolePermissionLabel(key: RolePermission): string {
  const entry = BY_KEY.get(key)!;
  return key.startsWith("dataroom.") ? `${entry.label} (data rooms)` : entry.label;
}

/**
 * What someone may do with a module's things in the team's workspace: owner and admins everything,
 * members see and change, billing nothing; a custom role what it lists of that module.
 */
export function modulePermissionsFor<M extends TeamModule>(module: M, role: TeamRole, customRole: { permissions: readonly string[] } | null): ModulePermission<M>[] {
  const all = MODULE_PERMISSIONS[module] as readonly ModulePermission<M>[];
  if (role === "member" && customRole) return all.filter((permission) => customRole.permissions.includes(permission));
  if (role === "owner" || role === "admin") return [...all];
  return role === "member" ? all.slice(0, 2) : [];
}


/** The first permission whose need is missing from the set, with that need; null when the set is whole. */
export function missingNeed(permissions: readonly RolePermission[]): { permission: RolePermission; needs: RolePermission } | null {
  const chosen = new Set(permissions);
  for (const permission of permissions) {
    for (const need of BY_KEY.get(permission)?.needs ?? []) if (!chosen.has(need)) return { permission, needs: need };
  }
  return null;
}

/** The set with everything each permission needs added (what ticking a box does in the editor). */
export function withNeeds(permissions: readonly RolePermission[]): RolePermission[] {
  const chosen = new Set(permissions);
  let grew = true;
  while (grew) {
    grew = false;
    for (const permission of [...chosen]) {
      for (const need of BY_KEY.get(permission)?.needs ?? []) {
        if (!chosen.has(need)) {
          chosen.add(need);
          grew = true;
        }
      }
    }
  }
  return ROLE_PERMISSION_KEYS.filter((key) => chosen.has(key));
}

/** The set without `removed` and everything that needs it (what unticking a box does in the editor). */
export function withoutDependents(permissions: readonly RolePermission[], removed: RolePermission): RolePermission[] {
  const gone = new Set<RolePermission>([removed]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const permission of permissions) {
      if (gone.has(permission)) continue;
      if ((BY_KEY.get(permission)?.needs ?? []).some((need) => gone.has(need))) {
        gone.add(permission);
        grew = true;
      }
    }
  }
  return permissions.filter((permission) => !gone.has(permission));
}

/**
 * What a custom role gives in each of the team's data rooms: the room role "member" with overrides
 * that make its permissions exactly the role's (null: no room permission, so not in the rooms).
 */
export function roomGrantOf(permissions: readonly string[]): { role: "member"; overrides: Record<DataroomPermission, boolean> } | null {
  const overrides = roomOverridesOf("member", permissions);
  return overrides ? { role: "member", overrides } : null;
}

/**
 * The overrides that make someone of a room role hold exactly a custom role's data room permissions
 * (a role used as a template on a room's permissions page); null when it has none (no View).
 */
export function roomOverridesOf(role: keyof typeof ROLE_PERMISSIONS, permissions: readonly string[]): Record<DataroomPermission, boolean> | null {
  const room = new Set(permissions.filter((key) => key.startsWith("dataroom.")).map((key) => key.slice("dataroom.".length)));
  if (!room.has("view")) return null;
  const defaults = new Set<DataroomPermission>(ROLE_PERMISSIONS[role]);
  const overrides = {} as Record<DataroomPermission, boolean>;
  for (const permission of DATAROOM_PERMISSIONS) {
    if (room.has(permission) !== defaults.has(permission)) overrides[permission] = room.has(permission);
  }
  return overrides;
}

/** The team permissions of someone holding a custom role with these permissions. */
export function teamPermissionsOfCustomRole(permissions: readonly string[]): TeamPermission[] {
  return [...CUSTOM_ROLE_BASE_TEAM_PERMISSIONS, ...CUSTOM_ROLE_TEAM_PERMISSIONS.filter((permission) => permissions.includes(permission))];
}
