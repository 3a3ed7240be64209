import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { teams } from "./teams";
import { spaces } from "./files";
import { forms } from "./forms";

export const receivePageKinds = ["simple", "form"] as const;
export type ReceivePageKind = (typeof receivePageKinds)[number];
export const receiveFieldTypes = ["text", "select", "checkbox", "date"] as const;
export type ReceiveField = { id: string; type: (typeof receiveFieldTypes)[number]; label: string; required: boolean; options?: string[] };

/**
 * A receive page (issue 24): a public address (/r/{slug or token}) where people without an
 * account drop files into a member's folder (their own, or a room's where they may upload).
 * The token (256 bits) is stored as SHA-256 (S1) and sealed for the owner's copy button; the
 * password is an account-style scrypt hash. A "simple" page is a drop zone; a "form" page asks its
 * fields first.
 */
export const receivePages = sqliteTable(
  "receive_pages",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The team whose workspace holds the page (issue 42): its people work on it by their team role. Null: the member's own. */
    teamId: text("team_id").references((): AnySQLiteColumn => teams.id, { onDelete: "set null" }),
    tokenHash: text("token_hash").notNull().unique(),
    tokenSealed: text("token_sealed").notNull(),
    /** A custom address (/r/{slug}): lower-case letters, digits and dashes, unique. */
    slug: text("slug").unique(),
    kind: text("kind", { enum: receivePageKinds }).notNull(),
    title: text("title").notNull(),
    message: text("message").notNull().default(""),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    folderId: text("folder_id").notNull(),
    deadlineAt: integer("deadline_at", { mode: "timestamp_ms" }),
    passwordHash: text("password_hash"),
    /** Allowed extensions, lower-case without the dot; empty: any. */
    allowedTypes: text("allowed_types", { mode: "json" }).notNull().$type<string[]>().default([]),
    maxFileMb: integer("max_file_mb"),
    maxFilesPerUploader: integer("max_files_per_uploader"),
    perUploaderFolders: integer("per_uploader_folders", { mode: "boolean" }).notNull().default(false),
    requireName: integer("require_name", { mode: "boolean" }).notNull().default(false),
    requireEmail: integer("require_email", { mode: "boolean" }).notNull().default(false),
    fields: text("fields", { mode: "json" }).notNull().$type<ReceiveField[]>().default([]),
    /** A form page may take its questions from one of the member's published forms instead (issue 37, "form receive page"). */
    formId: text("form_id").references(() => forms.id, { onDelete: "set null" }),
    /** Each submission opens a case of this type (issue 41; the page delivers into its owner's files). */
    caseTypeId: text("case_type_id"),
    brandColor: text("brand_color"),
    /** The page's logo (branding): its R2 key and sniffed image type, or null. */
    logoKey: text("logo_key"),
    logoType: text("logo_type"),
    isOpen: integer("is_open", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("receive_pages_user_created_idx").on(table.userId, table.createdAt), index("receive_pages_team_created_idx").on(table.teamId, table.createdAt).where(sql`team_id IS NOT NULL`)],
);

/** "Settings: receive page forms" (issue 24): sets of fields a member reuses on their form pages. */
export const receiveFieldSets = sqliteTable(
  "receive_field_sets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    fields: text("fields", { mode: "json" }).notNull().$type<ReceiveField[]>(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("receive_field_sets_user_idx").on(table.userId, table.name)],
);

/**
 * A visitor's submission to a receive page (issue 24): who they said they are, their answers to
 * the page's fields, the files it declared (created as uploads at once, so a submission that does
 * not fit is refused whole) and the grant its uploads run with (256 bits, stored as SHA-256). It
 * is the "received via" record of every file it delivers; it outlives its page (the title is kept).
 */
export const receiveSubmissions = sqliteTable(
  "receive_submissions",
  {
    id: text("id").primaryKey(),
    pageId: text("page_id").references(() => receivePages.id, { onDelete: "set null" }),
    /** The page's owner: the files are uploaded in their name. */
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    pageTitle: text("page_title").notNull(),
    uploaderName: text("uploader_name"),
    uploaderEmail: text("uploader_email"),
    /** The answers as the page asked them: [{ label, value }]. */
    answers: text("answers", { mode: "json" }).notNull().$type<{ label: string; value: string }[]>().default([]),
    grantHash: text("grant_hash").notNull().unique(),
    /** The per-uploader folder the files go in, or null (straight into the page's folder). */
    folderLabel: text("folder_label"),
    fileCount: integer("file_count").notNull(),
    /** The files delivered so far ({ fileId, name }), added once each as they complete. */
    delivered: text("delivered", { mode: "json" }).notNull().$type<{ fileId: string; name: string }[]>().default([]),
    bytes: integer("bytes").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    /** When the owner was told (once every file is in). */
    notifiedAt: integer("notified_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("receive_submissions_page_idx").on(table.pageId, table.createdAt), index("receive_submissions_user_idx").on(table.userId, table.createdAt)],
);
