import { encodeBase64urlNoPadding, decodeBase64urlIgnorePadding } from "@oslojs/encoding";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { ARCHIVED_MESSAGE, OVER_PLAN_MESSAGE, type DataroomPermission } from "~/features/datarooms/datarooms.permissions";
import { auditRefusal, auditRoom, type AuditEvent } from "~/features/datarooms/audit-record.server";
import { roomAuthority } from "~/features/datarooms/room-authority.server";
import { enterRoom } from "~/features/datarooms/room-entry.server";
import { DOWNLOAD_PROTECTED_MESSAGE, protectionAppliesTo } from "~/features/datarooms/protection";
import { roleHasRight, type EffectiveSpaceRole, type SpaceRight } from "./files.permissions";
import { findFileWithRole, findFolderAccess, findPersonalSpace, findSpaceRole, insertPersonalSpace, type Keyset, type SpaceRow } from "./folders.queries.server";
import { findIsDataroomSpace } from "./space-role.queries.server";

/**
 * Spaces and the permission layer of the file manager. Every file and folder use case starts
 * here: an outsider (not a member of the space) gets 404, exactly as if nothing were there; a
 * member without the right gets 403 naming what is missing.
 */

const RIGHT_MESSAGES: Record<SpaceRight, string> = {
  "files.view": "You don't have permission to view these files.",
  "files.download": "You don't have permission to download these files.",
  "files.upload": "You don't have permission to upload here.",
  "files.edit": "You don't have permission to change these files and folders.",
  "files.delete": "You don't have permission to delete these files and folders.",
};

export function assertRight(role: EffectiveSpaceRole, right: SpaceRight): void {
  if (roleHasRight(role, right)) return;
  throw new AppError("FORBIDDEN", role === "archived" ? ARCHIVED_MESSAGE : role === "over_plan" ? OVER_PLAN_MESSAGE : RIGHT_MESSAGES[right]);
}

export const folderNotFound = () => new AppError("NOT_FOUND", "This folder does not exist or you don't have access to it.");
export const fileNotFound = () => new AppError("NOT_FOUND", "This file does not exist or you don't have access to it.");

/** The member's personal space, created (with its root, inbox and outbox) on first use. */
export async function ensurePersonalSpace(ctx: ServiceContext, userId: string): Promise<SpaceRow> {
  const existing = await findPersonalSpace(ctx.db, userId);
  if (existing) return existing;
  try {
    await insertPersonalSpace(ctx.db, {
      spaceId: crypto.randomUUID(),
      userId,
      name: "My files",
      rootId: crypto.randomUUID(),
      inboxId: crypto.randomUUID(),
      outboxId: crypto.randomUUID(),
      now: ctx.now(),
    });
  } catch (error) {
    // Two first requests at once: the other one created the space (the batch is atomic, so this
    // one left nothing behind). Anything else is a real failure.
    ctx.logger.info("personal space created concurrently", { userId, error: error instanceof Error ? error.message : String(error) });
  }
  const created = await findPersonalSpace(ctx.db, userId);
  if (!created) throw new AppError("INTERNAL_ERROR");
  return created;
}

/** The file rights of a space and the data-room permission that governs each inside a room. */
const ROOM_PERMISSION_FOR: Record<SpaceRight, DataroomPermission> = {
  "files.view": "view",
  "files.download": "download",
  "files.upload": "upload",
  "files.edit": "edit",
  "files.delete": "delete",
};

export type RoomPermissions = Record<DataroomPermission, boolean>;

/** Where the caller stands in a space: their (effective) role, and whether the space is a data room. */
export type SpaceStanding = { spaceId: string; role: EffectiveSpaceRole; isDataroom?: number | boolean };

/**
 * The one check behind every file right: the caller's role in the space allows it, and, in a data
 * room, the room's authority (its Durable Object, one call per request) says they are still in it
 * (else 404) and hold the room permission (else 403). Returns the room permissions (null outside
 * a room) so pages can show only the controls that will work.
 */
export async function assertSpaceRight(ctx: ServiceContext, userId: string, standing: SpaceStanding, right: SpaceRight): Promise<RoomPermissions | null> {
  assertRight(standing.role, right);
  const isRoom = standing.isDataroom === undefined ? await findIsDataroomSpace(ctx.db, standing.spaceId) : Boolean(standing.isDataroom);
  if (!isRoom) return null;
  const decision = await enterRoom(ctx, standing.spaceId, userId);
  if (!decision) throw new AppError("NOT_FOUND", "This data room does not exist or you don't have access to it.");
  if (!decision.permissions[ROOM_PERMISSION_FOR[right]]) {
    const message = right === "files.download" && decision.protection.downloadProtection && protectionAppliesTo(decision.permissions) ? DOWNLOAD_PROTECTED_MESSAGE : RIGHT_MESSAGES[right];
    await auditRefusal(ctx, standing.spaceId, userId, message);
    throw new AppError("FORBIDDEN", message);
  }
  return decision.permissions;
}

/** What happened to a room's files, as `files.changed` events name it. */
export type FilesChangedAction = "added" | "removed" | "restored" | "moved" | "renamed" | "changed";

/**
 * Tells the people who have a data room open that its files changed (an upload finished, items
 * went to the trash or came back, were moved or renamed, a folder was made or edited), so their
 * pages refresh, and puts what happened in the room's audit log (`audit`: who, and the entries of
 * each room). Personal spaces have no audience and no log. Never fails the change that happened:
 * a lost event only means a page shows the change on its next load.
 */
export async function announceFilesChanged(
  ctx: ServiceContext,
  spaceIds: Iterable<string>,
  action: FilesChangedAction,
  audit?: { userId: string; events: (spaceId: string) => AuditEvent[] },
  /** More to do for each data room among the spaces (telling its people about new files). */
  inRoom?: (roomId: string) => Promise<unknown>,
): Promise<void> {
  for (const spaceId of new Set(spaceIds)) {
    try {
      if (!(await findIsDataroomSpace(ctx.db, spaceId))) continue;
      if (audit) await auditRoom(ctx, spaceId, audit.userId, audit.events(spaceId));
      await roomAuthority(ctx, spaceId).publish({ name: "files.changed", data: { action } });
      if (inRoom) await inRoom(spaceId);
    } catch (error) {
      ctx.logger.warn("room event not delivered", { spaceId, action, error: error instanceof Error ? error.message : String(error) });
    }
  }
}

/** Whether a right is there, given the role and (in a data room) the room permissions of a check. */
export function canDo(role: EffectiveSpaceRole, roomPermissions: RoomPermissions | null, right: SpaceRight): boolean {
  return roleHasRight(role, right) && (roomPermissions === null || roomPermissions[ROOM_PERMISSION_FOR[right]]);
}

/** The caller's role in a space, or 404 for an outsider. */
export async function requireSpaceRole(ctx: ServiceContext, userId: string, spaceId: string, right: SpaceRight): Promise<EffectiveSpaceRole> {
  const found = await findSpaceRole(ctx.db, spaceId, userId);
  if (!found) throw new AppError("NOT_FOUND", "This space does not exist or you don't have access to it.");
  await assertSpaceRight(ctx, userId, { spaceId, ...found }, right);
  return found.role;
}

/** A live folder the caller may act on: its space and kind, the caller's role and room permissions. */
export async function requireFolderAccess(ctx: ServiceContext, userId: string, folderId: string, right: SpaceRight) {
  const access = await findFolderAccess(ctx.db, folderId, userId);
  if (!access) throw folderNotFound();
  const roomPermissions = await assertSpaceRight(ctx, userId, access, right);
  return { ...access, roomPermissions };
}

/** A live file the caller may act on, with the caller's role; 404 for outsiders and unknown ids. */
export async function requireFileAccess(ctx: ServiceContext, userId: string, fileId: string, right: SpaceRight) {
  const found = await findFileWithRole(ctx.db, fileId, userId);
  if (!found) throw fileNotFound();
  const roomPermissions = await assertSpaceRight(ctx, userId, { spaceId: found.file.spaceId, role: found.role, isDataroom: found.isDataroom }, right);
  return { ...found, roomPermissions };
}

// ---- keyset cursors ----------------------------------------------------------------------------

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An opaque cursor for the next page: the last row's sort value and id. */
export function encodeCursor(keyset: Keyset): string {
  return encodeBase64urlNoPadding(encoder.encode(JSON.stringify([keyset.value, keyset.id])));
}

/** A cursor from the URL; anything malformed is treated as "first page" rather than an error. */
export function decodeCursor(cursor: string | undefined | null): Keyset | null {
  if (!cursor) return null;
  try {
    const parsed: unknown = JSON.parse(decoder.decode(decodeBase64urlIgnorePadding(cursor)));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [value, id] = parsed as unknown[];
    if ((typeof value !== "string" && typeof value !== "number") || typeof id !== "string" || id.length > 64) return null;
    return { value, id };
  } catch {
    return null;
  }
}
