import type { DataroomRole } from "~/db/schema/datarooms";
import { AppError } from "~/lib/errors";

/**
 * What a person may do in a data room (issue 19 "People"): typed permission strings, each role a
 * default set, per-member overrides on top. The same strings are checked by the server at every
 * entry point and drive the room's controls in the browser.
 */
export const DATAROOM_PERMISSIONS = [
  "view",
  "download",
  "upload",
  "edit",
  "delete",
  "share",
  "invite",
  "manage_members",
  "manage_settings",
  "comment",
  "view_analytics",
  "view_audit_log",
  "request_signatures",
  "redact",
] as const;
export type DataroomPermission = (typeof DATAROOM_PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<DataroomRole, readonly DataroomPermission[]> = {
  owner: DATAROOM_PERMISSIONS,
  admin: DATAROOM_PERMISSIONS,
  member: ["view", "download", "upload", "edit", "comment"],
  guest: ["view", "comment"],
};

/** What each permission is called wherever people choose them (the room's permissions page, a team's roles). */
export const DATAROOM_PERMISSION_LABELS: Record<DataroomPermission, string> = {
  view: "View",
  download: "Download",
  upload: "Upload",
  edit: "Edit",
  delete: "Delete",
  share: "Share",
  invite: "Invite",
  manage_members: "Manage members",
  manage_settings: "Manage settings",
  comment: "Comment",
  view_analytics: "Analytics",
  view_audit_log: "Audit log",
  request_signatures: "Request signatures",
  redact: "Redact documents (and see their originals)",
};

export const ROLE_LABELS: Record<DataroomRole, string> = { owner: "Owner", admin: "Admin", member: "Member", guest: "Guest" };

/** Said when anyone tries to change an archived room or its files. */
export const ARCHIVED_MESSAGE = "This data room is archived and read-only. Unarchive it to make changes.";

/** Said when anyone tries to change a room (or files) over its owner's plan (issue 43). */
export const OVER_PLAN_MESSAGE = "This is read-only: it is over its owner's plan. It can be changed again once the plan holds it (a bigger plan or add-on, or deleting what is over).";

/** Why a room only reads (archived, or over its owner's plan), or null when it may change. */
export function readOnlyReason(room: { archived: boolean; overPlan: boolean }): string | null {
  if (room.archived) return ARCHIVED_MESSAGE;
  if (room.overPlan) return OVER_PLAN_MESSAGE;
  return null;
}

/** Every change to a room's settings, people or contents starts here: 409 while it only reads. */
export function assertRoomWritable(room: { archived: boolean; overPlan: boolean }): void {
  const reason = readOnlyReason(room);
  if (reason) throw new AppError("CONFLICT", reason);
}

/** The rights that change a room or its contents: refused while the room is archived. */
export const WRITE_PERMISSIONS: readonly DataroomPermission[] = ["upload", "edit", "delete", "share", "invite", "manage_members", "request_signatures", "redact"];

/** A member's effective permissions: the role's defaults with their overrides on top (the owner's cannot be lowered). */
export function effectivePermissions(role: DataroomRole, overrides: Readonly<Record<string, boolean>> = {}): Record<DataroomPermission, boolean> {
  const defaults = new Set<DataroomPermission>(ROLE_PERMISSIONS[role]);
  return Object.fromEntries(
    DATAROOM_PERMISSIONS.map((permission) => [permission, role === "owner" ? true : (overrides[permission] ?? defaults.has(permission))]),
  ) as Record<DataroomPermission, boolean>;
}

export function isDataroomPermission(value: unknown): value is DataroomPermission {
  return typeof value === "string" && (DATAROOM_PERMISSIONS as readonly string[]).includes(value);
}
