import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { files, spaces } from "./files";
import { teams } from "./teams";

/**
 * Data rooms (spec §1, §2 "Data room"): a room is a space of kind "dataroom" (ADR 014) with this
 * row on top. Its id is the space's id, the 36-character identifier of /dataroom/{id}; its name is
 * the space's name. Archived rooms are read-only for everyone; trashed rooms are gone from every
 * list and page, and restorable by their owner for 30 days.
 */
export const datarooms = sqliteTable(
  "datarooms",
  {
    id: text("id")
      .primaryKey()
      .references(() => spaces.id, { onDelete: "cascade" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    description: text("description").notNull().default(""),
    /** The team whose workspace holds the room (issue 42, ADR 037): its people are in the room by their team role. Null: the owner's own. */
    teamId: text("team_id").references((): AnySQLiteColumn => teams.id, { onDelete: "set null" }),
    /** The room's logo in R2 (PNG, JPEG, WebP or GIF, sniffed; at most 512 KiB), or null. */
    logoKey: text("logo_key"),
    logoType: text("logo_type"),
    logoUpdatedAt: integer("logo_updated_at", { mode: "timestamp_ms" }),
    /** IP restrictions (issue 20): CIDR ranges the room may be opened from; null or empty means anywhere. */
    ipAllowlist: text("ip_allowlist", { mode: "json" }).$type<string[]>(),
    /** Watermarking, download and print protection (issue 20; app/features/datarooms/protection.ts), or null for none. */
    protection: text("protection", { mode: "json" }).$type<unknown>(),
    /** The 2FA requirement (issue 20): only sessions that passed a second factor open the room. */
    require2fa: integer("require_2fa", { mode: "boolean" }).notNull().default(false),
    /** The settings page's default role for new invitations (member, guest or admin). */
    defaultRole: text("default_role", { enum: ["admin", "member", "guest"] }).notNull().default("member"),
    /** The settings page's notification default: how members who did not choose hear about the room. */
    notificationDefault: text("notification_default", { enum: ["instant", "daily", "off"] }).notNull().default("instant"),
    archivedAt: integer("archived_at", { mode: "timestamp_ms" }),
    trashedAt: integer("trashed_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("datarooms_owner_idx").on(table.ownerId).where(sql`trashed_at IS NULL`),
    index("datarooms_trash_idx").on(table.trashedAt).where(sql`trashed_at IS NOT NULL`),
    index("datarooms_team_idx").on(table.teamId).where(sql`team_id IS NOT NULL`),
  ],
);

export const dataroomRoles = ["owner", "admin", "member", "guest"] as const;
export type DataroomRole = (typeof dataroomRoles)[number];

/**
 * Who is in a room, with their role and their per-member permission overrides (a JSON object of
 * permission name → true/false on top of the role's defaults). The room's Durable Object is the
 * authority for this state (issue 19); these rows are its copy for lists and joins.
 */
export const dataroomMembers = sqliteTable(
  "dataroom_members",
  {
    dataroomId: text("dataroom_id")
      .notNull()
      .references(() => datarooms.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: dataroomRoles }).notNull(),
    overrides: text("overrides", { mode: "json" }).$type<Record<string, boolean>>().notNull().default({}),
    joinedAt: integer("joined_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }),
    /** Time-limited access (issue 20): after this moment the person is refused everything in the room. */
    accessExpiresAt: integer("access_expires_at", { mode: "timestamp_ms" }),
  },
  (table) => [primaryKey({ columns: [table.dataroomId, table.userId] }), index("dataroom_members_user_idx").on(table.userId)],
);

/**
 * An invitation into a room (issue 19 "People"): sent to one e-mail address with a role and an
 * optional message; its link carries a token of which only the SHA-256 is stored. Single use,
 * valid 7 days; resending issues a new token (the old link stops working), revoking ends it.
 * At most one open invitation per room and address (the partial unique index).
 */
export const dataroomInvitations = sqliteTable(
  "dataroom_invitations",
  {
    id: text("id").primaryKey(),
    dataroomId: text("dataroom_id")
      .notNull()
      .references(() => datarooms.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: dataroomRoles }).notNull(),
    message: text("message").notNull().default(""),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }).notNull(),
    sendCount: integer("send_count").notNull().default(1),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    /** The access end the invitee gets on joining (time-limited access), or null. */
    accessExpiresAt: integer("access_expires_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    index("dataroom_invitations_room_idx").on(table.dataroomId, table.createdAt),
    uniqueIndex("dataroom_invitations_open_idx")
      .on(table.dataroomId, table.email)
      .where(sql`accepted_at IS NULL AND revoked_at IS NULL`),
    // The invitations waiting for one person (their dashboard's attention feed).
    index("dataroom_invitations_email_open_idx").on(table.email, table.expiresAt).where(sql`accepted_at IS NULL AND revoked_at IS NULL`),
  ],
);

export const auditOutcomes = ["allowed", "refused"] as const;
export type AuditOutcome = (typeof auditOutcomes)[number];

/**
 * A room's audit log (issue 20, QUALITY S22): append-only and hash-chained. Entry `seq` holds the
 * SHA-256 of the entry before it (`prev_hash`) and its own `hash` over every field, so an edited,
 * removed or inserted row breaks the chain where it happened. The room's Durable Object appends
 * (one at a time, so the chain has one order) and copies the entries here in batches. Triggers
 * refuse UPDATE, and DELETE while the room exists (the purge of a deleted room removes its log).
 * The actor's e-mail is kept as it was, so the record stays readable (never a secret).
 */
export const dataroomAuditLog = sqliteTable(
  "dataroom_audit_log",
  {
    dataroomId: text("dataroom_id").notNull(),
    seq: integer("seq").notNull(),
    at: integer("at").notNull(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    outcome: text("outcome", { enum: auditOutcomes }).notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    targetName: text("target_name"),
    detail: text("detail"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.dataroomId, table.seq] }),
    index("dataroom_audit_actor_idx").on(table.dataroomId, table.actorId, table.seq),
    index("dataroom_audit_action_idx").on(table.dataroomId, table.action, table.seq),
    index("dataroom_audit_target_idx").on(table.dataroomId, table.targetId, table.seq),
    index("dataroom_audit_at_idx").on(table.dataroomId, table.at),
  ],
);

/**
 * Where a room's audit log starts after retention removed its oldest entries (issue 42, ADR 039):
 * the last removed entry's seq and hash, from which the rest of the chain verifies. The pruning
 * itself is an entry of the chain that names this seq and hash, so a checkpoint nobody recorded
 * does not verify.
 */
export const dataroomAuditCheckpoints = sqliteTable("dataroom_audit_checkpoints", {
  dataroomId: text("dataroom_id").primaryKey(),
  seq: integer("seq").notNull(),
  hash: text("hash").notNull(),
  prunedAt: integer("pruned_at", { mode: "timestamp_ms" }).notNull(),
  /** Entries older than this were removed. */
  cutoffAt: integer("cutoff_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Time per PDF page (issue 20 analytics): how long each person had each page of a room's PDF on
 * screen, as their viewer reported it (added up; the viewer reports every 15 seconds and when it
 * is left). Goes with the room, the file and the person.
 */
export const dataroomPageTime = sqliteTable(
  "dataroom_page_time",
  {
    dataroomId: text("dataroom_id")
      .notNull()
      .references(() => datarooms.id, { onDelete: "cascade" }),
    fileId: text("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    page: integer("page").notNull(),
    ms: integer("ms").notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.dataroomId, table.fileId, table.userId, table.page] }), index("dataroom_page_time_file_idx").on(table.fileId)],
);

/**
 * Comments on a room's files (issue 20 "comments"): threads of a root comment and its replies.
 * A root's `thread_id` is its own id; replies carry their root's. The root holds the thread's
 * state (resolved, last activity, reply count) for the room's comments page. `mentions` holds the
 * ids of the people the comment names (each in the room with view when it was written). A deleted
 * comment keeps its place in the thread with its text removed.
 */
export const dataroomComments = sqliteTable(
  "dataroom_comments",
  {
    id: text("id").primaryKey(),
    dataroomId: text("dataroom_id")
      .notNull()
      .references(() => datarooms.id, { onDelete: "cascade" }),
    fileId: text("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    threadId: text("thread_id").notNull(),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    mentions: text("mentions", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    /** On a thread's root: when and by whom it was resolved (null while open), its replies and latest activity. */
    resolvedAt: integer("resolved_at", { mode: "timestamp_ms" }),
    resolvedBy: text("resolved_by").references(() => users.id, { onDelete: "set null" }),
    replyCount: integer("reply_count").notNull().default(0),
    lastActivityAt: integer("last_activity_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("dataroom_comments_file_idx").on(table.fileId, table.threadId, table.createdAt),
    index("dataroom_comments_room_idx").on(table.dataroomId, table.lastActivityAt).where(sql`id = thread_id`),
  ],
);

export const notificationModes = ["instant", "daily", "off"] as const;
export type NotificationMode = (typeof notificationModes)[number];

/**
 * How one member hears about one room (issue 20 "notifications"): instant e-mail, a daily digest,
 * or no e-mail (the in-app list keeps everything either way). No row: the room's default.
 */
export const dataroomNotificationPrefs = sqliteTable(
  "dataroom_notification_prefs",
  {
    dataroomId: text("dataroom_id")
      .notNull()
      .references(() => datarooms.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: notificationModes }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.dataroomId, table.userId] })],
);
