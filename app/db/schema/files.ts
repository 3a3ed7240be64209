import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./auth";

/**
 * Files and folders (spec §2 "Folders", §3 "Folder", §9 trash). Every file lives in a space: the
 * member's personal space or a data room (issue 6 adds the data-room row on top of its space).
 * The file manager, uploads, previews and the trash work on spaces, so every later module (data
 * rooms, receive pages, galleries, signatures) reuses them. See ADR 014.
 */
export const spaceKinds = ["personal", "dataroom", "team"] as const;
export type SpaceKind = (typeof spaceKinds)[number];

export const spaces = sqliteTable(
  "spaces",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: spaceKinds }).notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /**
     * Since when the space is read-only because it is over its owner's plan (issue 43, ADR 044):
     * a data room beyond the plan's number of rooms, or a space over its storage, files, folders,
     * members or guests. Written by `applyPlanLimits`; cleared when it fits again.
     */
    overPlanAt: integer("over_plan_at", { mode: "timestamp_ms" }),
    /** What is over, in words ("6 data rooms; Basic allows 5 data rooms"). */
    overPlanReason: text("over_plan_reason"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("spaces_owner_idx").on(table.ownerId),
    // One personal space per member.
    uniqueIndex("spaces_personal_owner_unique").on(table.ownerId).where(sql`kind = 'personal'`),
  ],
);

export const spaceRoles = ["owner", "editor", "viewer"] as const;
export type SpaceRole = (typeof spaceRoles)[number];

/** Who may use a space and how. Data rooms (issue 6) refine this per member in their Durable Object. */
export const spaceMembers = sqliteTable(
  "space_members",
  {
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: spaceRoles }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.spaceId, table.userId] }), index("space_members_user_idx").on(table.userId)],
);

/** "root" is the hidden top of a space's tree; the others are the spec's folder kinds. */
export const folderKinds = ["root", "regular", "inbox", "outbox", "gallery"] as const;
export type FolderKind = (typeof folderKinds)[number];

/** What a trashed item needs to go back where it was (the folder may be gone by then). */
export type OriginalPath = string[];

export const folders = sqliteTable(
  "folders",
  {
    /** The folder's uid (spec §3): a random UUID, used in URLs. */
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** Null only for the space's root. */
    parentId: text("parent_id"),
    kind: text("kind", { enum: folderKinds }).notNull().default("regular"),
    label: text("label").notNull(),
    /** Canonical hex text (#rrggbb or #rrggbbaa) or null. */
    color: text("color"),
    /** A Material icon name or null. */
    icon: text("icon"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    /** Set while in the trash. Everything trashed with a folder shares its time and `trashRootId`. */
    trashedAt: integer("trashed_at", { mode: "timestamp_ms" }),
    /** The item the member deleted (this folder itself, or the trashed ancestor it went with). */
    trashRootId: text("trash_root_id"),
    trashedBy: text("trashed_by"),
    originalParentId: text("original_parent_id"),
    originalPath: text("original_path", { mode: "json" }).$type<OriginalPath>(),
  },
  (table) => [
    index("folders_children_idx").on(table.spaceId, table.parentId, table.label, table.id).where(sql`trashed_at IS NULL`),
    index("folders_trash_idx").on(table.spaceId, table.trashedAt).where(sql`trashed_at IS NOT NULL`),
    index("folders_trash_root_idx").on(table.trashRootId).where(sql`trash_root_id IS NOT NULL`),
    index("folders_kind_idx").on(table.spaceId, table.kind),
    // One root, one default inbox and one default outbox per space.
    uniqueIndex("folders_space_special_unique").on(table.spaceId, table.kind).where(sql`kind IN ('root', 'inbox', 'outbox')`),
  ],
);

export const files = sqliteTable(
  "files",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    folderId: text("folder_id").notNull(),
    /** The display name the member gave (never used as a storage key, S14). */
    name: text("name").notNull(),
    size: integer("size").notNull(),
    /** Sniffed from the first bytes (S13); the browser's declared type is ignored. */
    contentType: text("content_type").notNull(),
    /** Hex SHA-256 of the content; null until the hashing job has read a multipart upload. */
    sha256: text("sha256"),
    /** A generated key in the FILES bucket (S14). */
    r2Key: text("r2_key").notNull(),
    version: integer("version").notNull().default(1),
    uploadedBy: text("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    isTemplate: integer("is_template", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    trashedAt: integer("trashed_at", { mode: "timestamp_ms" }),
    trashRootId: text("trash_root_id"),
    trashedBy: text("trashed_by"),
    originalFolderId: text("original_folder_id"),
    originalPath: text("original_path", { mode: "json" }).$type<OriginalPath>(),
  },
  (table) => [
    uniqueIndex("files_r2_key_unique").on(table.r2Key),
    // Keyset pagination per sort order (G2): each list reads its index in order, never OFFSET.
    index("files_folder_name_idx").on(table.folderId, table.name, table.id).where(sql`trashed_at IS NULL`),
    index("files_folder_created_idx").on(table.folderId, table.createdAt, table.id).where(sql`trashed_at IS NULL`),
    index("files_folder_size_idx").on(table.folderId, table.size, table.id).where(sql`trashed_at IS NULL`),
    index("files_space_created_idx").on(table.spaceId, table.createdAt, table.id).where(sql`trashed_at IS NULL`),
    index("files_space_sha_idx").on(table.spaceId, table.sha256).where(sql`trashed_at IS NULL AND sha256 IS NOT NULL`),
    index("files_space_template_idx").on(table.spaceId, table.name).where(sql`trashed_at IS NULL AND is_template = 1`),
    index("files_trash_idx").on(table.spaceId, table.trashedAt).where(sql`trashed_at IS NOT NULL`),
    index("files_trash_root_idx").on(table.trashRootId).where(sql`trash_root_id IS NOT NULL`),
    index("files_space_size_idx").on(table.spaceId, table.size),
  ],
);

/** Earlier contents of a file: a new upload with the same name in the same folder adds a version. */
export const fileVersions = sqliteTable(
  "file_versions",
  {
    id: text("id").primaryKey(),
    fileId: text("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    spaceId: text("space_id").notNull(),
    version: integer("version").notNull(),
    r2Key: text("r2_key").notNull(),
    size: integer("size").notNull(),
    contentType: text("content_type").notNull(),
    sha256: text("sha256"),
    createdBy: text("created_by"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [uniqueIndex("file_versions_file_version_unique").on(table.fileId, table.version), index("file_versions_space_idx").on(table.spaceId, table.size)],
);

export const fileTags = sqliteTable(
  "file_tags",
  {
    fileId: text("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    spaceId: text("space_id").notNull(),
    tag: text("tag").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.fileId, table.tag] }), index("file_tags_space_tag_idx").on(table.spaceId, table.tag, table.fileId)],
);

export const fileMetadata = sqliteTable(
  "file_metadata",
  {
    fileId: text("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: text("value").notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.fileId, table.key] })],
);

export const favoriteItemTypes = ["file", "folder"] as const;
export type FavoriteItemType = (typeof favoriteItemTypes)[number];

export const favorites = sqliteTable(
  "favorites",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    itemType: text("item_type", { enum: favoriteItemTypes }).notNull(),
    itemId: text("item_id").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.itemType, table.itemId] }), index("favorites_item_idx").on(table.itemId)],
);

export const uploadStatuses = ["active", "completing", "completed"] as const;
export type UploadStatus = (typeof uploadStatuses)[number];

/**
 * A tus upload in progress (creation → PATCHes → completion) on top of an R2 multipart upload.
 * Its declared length counts against the quota from creation on, so parallel uploads cannot
 * overrun it; an abandoned upload expires and the nightly purge aborts it.
 */
export const uploads = sqliteTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    folderId: text("folder_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Folder path inside a dropped folder ("Reports/2026"), created on completion; "" for none. */
    relativePath: text("relative_path").notNull().default(""),
    length: integer("length").notNull(),
    partSize: integer("part_size").notNull(),
    offset: integer("offset").notNull().default(0),
    r2Key: text("r2_key").notNull(),
    /** Null for uploads that fit one part (a single put, no multipart). */
    r2UploadId: text("r2_upload_id"),
    status: text("status", { enum: uploadStatuses }).notNull().default("active"),
    fileId: text("file_id"),
    /** Set when the upload is a secret's sealed file (issue 23): it completes into that, not into a folder. */
    secretFileId: text("secret_file_id"),
    /** Set when a visitor sends the file through a receive page (issue 24): the submission it belongs to. */
    receiveSubmissionId: text("receive_submission_id"),
    /** Set when a visitor sends the file as a form's answer (issue 37): the form submission it belongs to. */
    formSubmissionId: text("form_submission_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("uploads_space_status_idx").on(table.spaceId, table.status),
    index("uploads_expires_idx").on(table.expiresAt),
    index("uploads_receive_submission_idx").on(table.receiveSubmissionId),
    index("uploads_form_submission_idx").on(table.formSubmissionId),
  ],
);

export const uploadParts = sqliteTable(
  "upload_parts",
  {
    uploadId: text("upload_id")
      .notNull()
      .references(() => uploads.id, { onDelete: "cascade" }),
    partNumber: integer("part_number").notNull(),
    etag: text("etag").notNull(),
    size: integer("size").notNull(),
  },
  (table) => [primaryKey({ columns: [table.uploadId, table.partNumber] })],
);

/**
 * R2 keys whose D1 rows are already gone (purge, permanent delete): the object deletions still
 * owed. Written in the same batch that deletes the rows, so a crash in between loses nothing;
 * the purge job deletes the objects and then these rows, any number of times.
 */
export const r2Deletions = sqliteTable("r2_deletions", {
  key: text("key").primaryKey(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * A space's encryption key (ADR 021): 32 random bytes, stored only wrapped (AES-GCM, the space id
 * as authenticated data) by the environment's key-encryption key, which `kek_id` names. Rotating
 * that key re-wraps these rows; no file is re-encrypted. Goes with its space.
 */
export const spaceKeys = sqliteTable("space_keys", {
  spaceId: text("space_id")
    .primaryKey()
    .references(() => spaces.id, { onDelete: "cascade" }),
  wrappedKey: text("wrapped_key").notNull(),
  kekId: text("kek_id").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});
