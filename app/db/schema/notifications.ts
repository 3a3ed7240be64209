import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { datarooms, notificationModes } from "./datarooms";

export const notificationEmailStates = ["none", "pending", "sent"] as const;
export type NotificationEmailState = (typeof notificationEmailStates)[number];

/**
 * A member's in-app notifications (issue 20 "notifications"; later share links, forms and
 * signatures add their kinds): what happened, who did it, where to look, read or unread. The
 * e-mail state says whether it still waits for the daily digest (`pending`), went out (`sent`) or
 * is not e-mailed (`none`). Goes with the member and the room.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dataroomId: text("dataroom_id").references(() => datarooms.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull().default(""),
    link: text("link").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    readAt: integer("read_at", { mode: "timestamp_ms" }),
    emailState: text("email_state", { enum: notificationEmailStates }).notNull().default("none"),
    /**
     * Grouped notices (files added): while one is unread and recent, the next of the same group
     * adds to it (`count`) instead of making another; `subject_id` is the last thing counted, so
     * the same message delivered twice counts once.
     */
    groupKey: text("group_key"),
    subjectId: text("subject_id"),
    count: integer("count").notNull().default(1),
  },
  (table) => [
    index("notifications_user_idx").on(table.userId, table.dataroomId, table.createdAt),
    index("notifications_group_idx").on(table.userId, table.groupKey).where(sql`group_key IS NOT NULL AND read_at IS NULL`),
    index("notifications_subject_idx").on(table.groupKey, table.subjectId).where(sql`group_key IS NOT NULL`),
    index("notifications_digest_idx").on(table.userId, table.createdAt).where(sql`email_state = 'pending'`),
  ],
);

/**
 * A member's choice for notices outside any room (the first opening of a share link of their own
 * files; later forms and signatures): instant, daily digest or off. No row: instant.
 */
export const memberNotificationPrefs = sqliteTable("member_notification_prefs", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  mode: text("mode", { enum: notificationModes }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});
