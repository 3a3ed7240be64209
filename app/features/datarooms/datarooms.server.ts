import { reapplyPlanLimitsIfOver } from "~/features/billing/plan-limits.server";
import { assertWithinLimit, loadMemberAccess, requireFeature, requirePermission } from "~/features/access/access.server";
import { checkFeature } from "~/features/access/access-check";
import { UNLIMITED } from "~/features/access/access.constants";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { TRASH_RETENTION_DAYS, TRASH_RETENTION_MS } from "~/features/files/files.constants";
import { assertRoomWritable, effectivePermissions, type DataroomPermission } from "./datarooms.permissions";
import {
  countOwnedDatarooms,
  findDataroomForMember,
  insertDataroom,
  deleteTrashedDataroom,
  findExpiredTrashedDatarooms,
  listDataroomsForMember,
  setDataroomDefaultRole,
  setDataroomArchived,
  setDataroomTrashed,
  updateDataroomProfile,
  type DataroomMemberRow,
} from "./datarooms.queries.server";
import { auditRefusal, auditRoom } from "./audit-record.server";
import { touchDataroomMember } from "./members.queries.server";
import { enterRoom } from "./room-entry.server";
import { createDataroomSchema, dataroomIdSchema, defaultRoleSchema, listDataroomsQuerySchema, updateDataroomSchema } from "./datarooms.schema";

/**
 * Data rooms, part 1 (issue 19): create, list, open, rename and describe, archive and unarchive.
 * Every use case starts from `requireDataroom`: someone not in the room gets 404 exactly as if it
 * did not exist; a member without the right gets 403 naming what is missing.
 */

export type DataroomSummary = {
  id: string;
  name: string;
  description: string;
  owner: { id: string; name: string };
  role: DataroomMemberRow["role"];
  isOwner: boolean;
  archived: boolean;
  archivedAt: string | null;
  /** Read-only because it is over its owner's plan (issue 43), with what is over. */
  overPlan: boolean;
  overPlanReason: string | null;
  /** When it went to the trash (its owner's trash view only), and the day it is deleted for good. */
  trashedAt: string | null;
  purgeAt: string | null;
  createdAt: string;
  updatedAt: string;
  permissions: Record<DataroomPermission, boolean>;
  /** The logo's address (changes with the logo), or null. */
  logoUrl: string | null;
  /** The role new invitations start with (the settings page). */
  defaultRole: "admin" | "member" | "guest";
  /** The team whose workspace holds the room (issue 42), or null. */
  team: { id: string; name: string } | null;
};

const PERMISSION_MESSAGES: Record<DataroomPermission, string> = {
  view: "You don't have permission to view this data room.",
  download: "You don't have permission to download from this data room.",
  upload: "You don't have permission to upload to this data room.",
  edit: "You don't have permission to change files in this data room.",
  delete: "You don't have permission to delete in this data room.",
  share: "You don't have permission to share from this data room.",
  invite: "You don't have permission to invite people to this data room.",
  manage_members: "You don't have permission to manage this data room's members.",
  manage_settings: "You don't have permission to change this data room's settings.",
  comment: "You don't have permission to comment in this data room.",
  view_analytics: "You don't have permission to see this data room's analytics.",
  view_audit_log: "You don't have permission to see this data room's audit log.",
  request_signatures: "You don't have permission to request signatures in this data room.",
  redact: "You don't have permission to redact documents in this data room.",
};

export const dataroomNotFound = () => new AppError("NOT_FOUND", "This data room does not exist or you don't have access to it.");

function toSummary(row: Omit<DataroomMemberRow, "rootFolderId" | "lastSeenAt">, userId: string): DataroomSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    owner: { id: row.ownerId, name: row.ownerName },
    role: row.role,
    isOwner: row.ownerId === userId,
    archived: row.archivedAt !== null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    overPlan: row.overPlanAt !== null,
    overPlanReason: row.overPlanReason,
    trashedAt: row.trashedAt?.toISOString() ?? null,
    purgeAt: row.trashedAt ? new Date(row.trashedAt.getTime() + TRASH_RETENTION_MS).toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    permissions: effectivePermissions(row.role, row.overrides),
    logoUrl: row.logoKey && row.logoUpdatedAt ? `/api/datarooms/${row.id}/logo?v=${row.logoUpdatedAt.getTime()}` : null,
    defaultRole: row.defaultRole,
    team: row.teamId ? { id: row.teamId, name: row.teamName ?? "" } : null,
  };
}

/**
 * The room as the caller sees it, or 404 (not in it, trashed, malformed id); 403 without
 * `permission`. Role and permissions come from the room's Durable Object (the authority).
 */
export async function requireDataroom(ctx: ServiceContext, userId: string, rawId: unknown, permission: DataroomPermission = "view") {
  return (await openDataroom(ctx, userId, rawId, permission)).room;
}

/** requireDataroom's check, with the row it read (its top folder and the caller's last visit come with it). */
async function openDataroom(ctx: ServiceContext, userId: string, rawId: unknown, permission: DataroomPermission) {
  const parsed = dataroomIdSchema.safeParse(rawId);
  if (!parsed.success) throw dataroomNotFound();
  const row = await findDataroomForMember(ctx.db, parsed.data.toLowerCase(), userId);
  if (!row || row.trashedAt !== null) throw dataroomNotFound();
  // The room's authority decides (one call per request): D1's role and overrides are its copy.
  const decision = await enterRoom(ctx, row.id, userId);
  if (!decision) throw dataroomNotFound();
  const room = toSummary({ ...row, role: decision.role, overrides: decision.overrides }, userId);
  if (!room.permissions[permission]) {
    await auditRefusal(ctx, room.id, userId, PERMISSION_MESSAGES[permission]);
    throw new AppError("FORBIDDEN", PERMISSION_MESSAGES[permission]);
  }
  return { room, row };
}

/** A new room owned by the caller: needs `dataroom_create` and room under the plan's `max_datarooms` (plus add-ons). */
export async function createDataroom(ctx: ServiceContext, userId: string, input: unknown, options: { teamId?: string } = {}): Promise<DataroomSummary> {
  const { name, description } = parseInput(createDataroomSchema, input);
  const access = await loadMemberAccess(ctx, userId);
  requireFeature(access, "dataroom_create");
  assertWithinLimit(access, "max_datarooms", await countOwnedDatarooms(ctx.db, userId));
  const id = crypto.randomUUID();
  await insertDataroom(ctx.db, { id, rootId: crypto.randomUUID(), ownerId: userId, name, description, now: ctx.now(), teamId: options.teamId ?? null });
  ctx.logger.info("data room created", { dataroomId: id });
  return requireDataroom(ctx, userId, id);
}

/** Whether the member may create one more room now, and how many are left (null: no limit), for pages that offer a new room elsewhere (a case's own room). */
export async function newRoomAllowance(ctx: ServiceContext, userId: string): Promise<{ allowed: boolean; left: number | null }> {
  const access = await loadMemberAccess(ctx, userId);
  if (!checkFeature(access, "dataroom_create")) return { allowed: false, left: 0 };
  const limit = access.limits.max_datarooms;
  if (limit === UNLIMITED) return { allowed: true, left: null };
  const left = Math.max(0, limit - (await countOwnedDatarooms(ctx.db, userId)));
  return { allowed: left > 0, left };
}

export type DataroomListItem = DataroomSummary & { fileCount: number; memberCount: number };

/** GET /api/datarooms and /datarooms: mine and shared with me, searched and sorted. */
/**
 * The member's rooms, searched, filtered and sorted. `workspace` narrows them to one workspace (a
 * team's id, or null for the member's own: rooms of no team, issue 42); left out, every room.
 */
export async function listDatarooms(ctx: ServiceContext, userId: string, rawQuery: unknown = {}, workspace?: string | null) {
  const access = await loadMemberAccess(ctx, userId);
  requirePermission(access, "core_access");
  const query = parseInput(listDataroomsQuerySchema, rawQuery ?? {});
  const dir = query.dir ?? (query.sort === "name" ? "asc" : "desc");
  const rows = await listDataroomsForMember(ctx.db, { userId, filter: query.filter, q: query.q, sort: query.sort, dir, limit: 500, teamId: workspace });
  const owned = await countOwnedDatarooms(ctx.db, userId);
  return {
    datarooms: rows.map((row): DataroomListItem => ({ ...toSummary(row, userId), fileCount: row.fileCount, memberCount: row.memberCount })),
    query: { q: query.q ?? "", filter: query.filter, sort: query.sort, dir },
    /** What the index needs to offer "New data room" or explain why not. */
    quota: { owned, limit: access.limits.max_datarooms },
  };
}

/** "Last seen" in the users overview moves at most every five minutes. */
const LAST_SEEN_EVERY_MS = 5 * 60 * 1000;

/** One room and the root folder of its file manager; opening it notes the member's visit. */
export async function getDataroom(ctx: ServiceContext, userId: string, rawId: unknown) {
  // The top folder's id and the caller's last visit are read with the room (G3: one query, not
  // three); they are only returned once the check has passed.
  const { room, row } = await openDataroom(ctx, userId, rawId, "view");
  if (!row.rootFolderId) throw new AppError("INTERNAL_ERROR");
  return { dataroom: room, rootFolderId: row.rootFolderId, lastVisitAt: row.lastSeenAt };
}

/** When the member last opened the room (the people page shows it), written at most every few minutes. */
export async function recordRoomVisit(ctx: ServiceContext, userId: string, room: { dataroom: { id: string }; lastVisitAt: Date | null }): Promise<void> {
  // Most page loads come within minutes of the last one: no write at all then (G3).
  if (room.lastVisitAt && ctx.now().getTime() - room.lastVisitAt.getTime() < LAST_SEEN_EVERY_MS) return;
  await touchDataroomMember(ctx.db, room.dataroom.id, userId, ctx.now(), LAST_SEEN_EVERY_MS);
}

/** Name and description (manage_settings); refused while archived. */
export async function updateDataroom(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<DataroomSummary> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_settings");
  const change = parseInput(updateDataroomSchema, input);
  assertRoomWritable(room);
  await updateDataroomProfile(ctx.db, room.id, change, ctx.now());
  const changed = [change.name !== undefined && change.name !== room.name ? `name “${change.name}”` : null, change.description !== undefined && change.description !== room.description ? "description" : null].filter(Boolean);
  if (changed.length > 0) await auditRoom(ctx, room.id, userId, { action: "room.update", target: { type: "room", id: room.id, name: change.name ?? room.name }, detail: changed.join(", ") });
  return requireDataroom(ctx, userId, room.id);
}

/** The settings page: the role new invitations start with (manage_settings; not while archived). */
export async function setDefaultRole(ctx: ServiceContext, userId: string, rawId: unknown, input: unknown): Promise<DataroomSummary> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_settings");
  const { default_role: role } = parseInput(defaultRoleSchema, input);
  assertRoomWritable(room);
  if (role !== room.defaultRole) {
    await setDataroomDefaultRole(ctx.db, room.id, role, ctx.now());
    await auditRoom(ctx, room.id, userId, { action: "room.update", target: { type: "room", id: room.id, name: room.name }, detail: `default role for new invitations: ${role}` });
  }
  return requireDataroom(ctx, userId, room.id);
}

/** Archive (read-only for everyone) or unarchive; manage_settings. Doing it twice changes nothing. */
export async function setArchived(ctx: ServiceContext, userId: string, rawId: unknown, archived: boolean): Promise<DataroomSummary> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_settings");
  if (room.archived !== archived) {
    await setDataroomArchived(ctx.db, room.id, archived ? ctx.now() : null, ctx.now());
    ctx.logger.info(archived ? "data room archived" : "data room unarchived", { dataroomId: room.id });
    await auditRoom(ctx, room.id, userId, { action: archived ? "room.archive" : "room.unarchive", target: { type: "room", id: room.id, name: room.name } });
  }
  return requireDataroom(ctx, userId, room.id);
}

/**
 * Deletes a room to the trash: only its owner may, it disappears from every list and page for
 * everyone, and it can be restored for 30 days, then the nightly purge deletes it for good.
 */
export async function trashDataroom(ctx: ServiceContext, userId: string, rawId: unknown): Promise<DataroomSummary> {
  const room = await requireDataroom(ctx, userId, rawId, "manage_settings");
  if (!room.isOwner) throw new AppError("FORBIDDEN", "Only the owner can delete this data room.");
  await setDataroomTrashed(ctx.db, room.id, ctx.now(), ctx.now());
  ctx.logger.info("data room moved to the trash", { dataroomId: room.id });
  await auditRoom(ctx, room.id, userId, { action: "room.delete", target: { type: "room", id: room.id, name: room.name } });
  // One room fewer: a room read-only over the plan may fit again.
  await reapplyPlanLimitsIfOver(ctx, userId);
  return toSummary((await findDataroomForMember(ctx.db, room.id, userId))!, userId);
}

/** Brings the owner's room back from the trash, if their plan still has room for it. */
export async function restoreDataroom(ctx: ServiceContext, userId: string, rawId: unknown): Promise<DataroomSummary> {
  const parsed = dataroomIdSchema.safeParse(rawId);
  if (!parsed.success) throw dataroomNotFound();
  const row = await findDataroomForMember(ctx.db, parsed.data.toLowerCase(), userId);
  if (!row || row.ownerId !== userId) throw dataroomNotFound();
  if (row.trashedAt === null) return toSummary(row, userId);
  const access = await loadMemberAccess(ctx, userId);
  assertWithinLimit(access, "max_datarooms", await countOwnedDatarooms(ctx.db, userId));
  await setDataroomTrashed(ctx.db, row.id, null, ctx.now());
  ctx.logger.info("data room restored", { dataroomId: row.id });
  await auditRoom(ctx, row.id, userId, { action: "room.restore", target: { type: "room", id: row.id, name: row.name } });
  return requireDataroom(ctx, userId, row.id);
}

/** Nightly, with the files' purge: rooms in the trash longer than 30 days are deleted for good. */
export async function purgeExpiredDatarooms(ctx: ServiceContext): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  let purged = 0;
  for (let round = 0; round < 20; round++) {
    const ids = await findExpiredTrashedDatarooms(ctx.db, cutoff, 10);
    for (const id of ids) await deleteTrashedDataroom(ctx.db, id, ctx.now());
    purged += ids.length;
    if (ids.length < 10) break;
  }
  if (purged > 0) ctx.logger.info("data rooms purged", { purged });
  return purged;
}
