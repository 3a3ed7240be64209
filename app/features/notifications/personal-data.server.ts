import { definePersonalDataSource } from "~/features/personal-data/personal-data-source";
import { findUserForMail, eraseNotificationsOf, listNotificationPrefsForExport, listNotificationsForExport } from "./notifications.queries.server";

/**
 * Notifications are the member's own rows: the export lists them and their per-room e-mail
 * choices; erasure deletes both and takes their name out of the notices they caused for others.
 */
export const notificationsPersonalData = definePersonalDataSource({
  name: "notifications",
  async export(ctx, userId) {
    const [rows, prefs] = await Promise.all([listNotificationsForExport(ctx.db, userId), listNotificationPrefsForExport(ctx.db, userId)]);
    const records = [];
    if (rows.length > 0) {
      records.push({
        path: "notifications/notifications.json",
        description: "Your notifications (in data rooms and about your share links): what happened, where, when, and when you read it.",
        data: rows.map((row) => ({ kind: row.kind, title: row.title, excerpt: row.excerpt, link: row.link, createdAt: row.createdAt.toISOString(), readAt: row.readAt?.toISOString() ?? null })),
      });
    }
    if (prefs.length > 0) {
      records.push({
        path: "notifications/preferences.json",
        description: "How you chose to hear about each data room, and (dataroom null) about your own share links: instant, daily or off.",
        data: prefs.map((row) => ({ dataroom: row.roomName, mode: row.mode, updatedAt: row.updatedAt.toISOString() })),
      });
    }
    return records;
  },
  async erase(ctx, userId) {
    const user = await findUserForMail(ctx.db, userId);
    await eraseNotificationsOf(ctx.db, userId, user?.name ?? "\u0000");
    return { r2Keys: [] };
  },
});
