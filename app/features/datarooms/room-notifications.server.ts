import { z } from "zod";
import type { NotificationMode } from "~/db/schema";
import { listRoomNotificationsFor, markRoomNotifications, notificationModeSchema, type NotificationPage } from "~/features/notifications/notifications.server";
import { findNotificationMode, saveNotificationMode, saveRoomNotificationDefault } from "~/features/notifications/notifications.queries.server";
import { NOTIFICATION_MODE_LABELS } from "~/features/notifications/notifications.constants";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { auditRoom } from "./audit-record.server";
import { assertRoomWritable } from "./datarooms.permissions";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";

/**
 * A room's notifications (spec §2 "notifications"): each member's own list (read and unread) and
 * their choice of how to hear about the room (instant, daily digest, off, or the room's default),
 * and the room's default on its settings page (`manage_settings`). Everyone with `view` has a
 * list; nobody sees anyone else's.
 */

export type NotificationSettings = { own: NotificationMode | null; roomDefault: NotificationMode; effective: NotificationMode };
export type RoomNotifications = NotificationPage & { room: DataroomSummary; settings: NotificationSettings };

async function settingsOf(ctx: ServiceContext, roomId: string, userId: string): Promise<NotificationSettings> {
  const found = await findNotificationMode(ctx.db, roomId, userId);
  const roomDefault = found?.roomDefault ?? "instant";
  return { own: found?.own ?? null, roomDefault, effective: found?.own ?? roomDefault };
}

/** The settings page: the room (manage_settings) and its notification default. */
export async function getRoomNotificationDefault(ctx: ServiceContext, userId: string, roomId: unknown): Promise<{ room: DataroomSummary; mode: NotificationMode }> {
  const room = await requireDataroom(ctx, userId, roomId, "manage_settings");
  return { room, mode: (await settingsOf(ctx, room.id, userId)).roomDefault };
}

/** /dataroom/{id}/notifications and GET /api/datarooms/{id}/notifications?filter=&cursor=. */
export async function getRoomNotifications(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<RoomNotifications> {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  const [page, settings] = await Promise.all([listRoomNotificationsFor(ctx, userId, room.id, rawQuery), settingsOf(ctx, room.id, userId)]);
  return { ...page, room, settings };
}

/** POST /api/datarooms/{id}/notifications/read: { ids: [...] | "all", read?: false }. */
export async function markMyRoomNotifications(ctx: ServiceContext, userId: string, roomId: unknown, input: unknown) {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  return markRoomNotifications(ctx, userId, room.id, input);
}

const ownModeSchema = z.object({ mode: z.union([notificationModeSchema, z.literal("default")], { error: "Choose instant, daily, off or default." }) });

/** PUT /api/datarooms/{id}/notifications/preference: { mode: instant | daily | off | default }. Anyone in the room, archived or not. */
export async function setMyNotificationMode(ctx: ServiceContext, userId: string, roomId: unknown, input: unknown): Promise<NotificationSettings> {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  const { mode } = parseInput(ownModeSchema, input);
  await saveNotificationMode(ctx.db, { dataroomId: room.id, userId, mode: mode === "default" ? null : mode, now: ctx.now() });
  return settingsOf(ctx, room.id, userId);
}

/** PUT /api/datarooms/{id}/settings/notifications: { mode } for members who did not choose (manage_settings). */
export async function setRoomNotificationDefault(ctx: ServiceContext, userId: string, roomId: unknown, input: unknown): Promise<NotificationMode> {
  const room = await requireDataroom(ctx, userId, roomId, "manage_settings");
  assertRoomWritable(room);
  const { mode } = parseInput(z.object({ mode: notificationModeSchema }), input);
  await saveRoomNotificationDefault(ctx.db, { dataroomId: room.id, mode, now: ctx.now() });
  await auditRoom(ctx, room.id, userId, { action: "room.update", target: { type: "room", id: room.id, name: room.name }, detail: `Notification default: ${NOTIFICATION_MODE_LABELS[mode].label}` });
  return mode;
}
