import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { spaces } from "./files";

export const shareTargetTypes = ["file", "folder", "room"] as const;
export type ShareTargetType = (typeof shareTargetTypes)[number];
export const shareDownloadModes = ["original", "watermarked"] as const;
/** How a link shows what it shares: the document viewer (/s/{key}) or a public gallery (/public-gallery/{key}, issue 40). */
export const sharePresentations = ["document", "gallery"] as const;
export type SharePresentation = (typeof sharePresentations)[number];
/** What a gallery's downloads are: the original files, or the screen size (web size, at most 2048 px a side). */
export const shareDownloadSizes = ["original", "web"] as const;

/**
 * A share link (issue 21): a file, a folder or a whole room (personal files too) opened by people
 * without an account, under the link's own rules. The token (256 bits) is looked up by its SHA-256
 * (`token_hash`); `token_sealed` keeps it AES-GCM encrypted for the owner's copy button, so a copy
 * of the database alone opens nothing. The password is an account-style scrypt hash. The room's
 * rules always win over the link's options (applied when the link is opened).
 */
export const shareLinks = sqliteTable(
  "share_links",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    tokenSealed: text("token_sealed").notNull(),
    /** A custom address (/s/{slug}): lower-case letters, digits and dashes, unique. */
    slug: text("slug").unique(),
    name: text("name").notNull().default(""),
    targetType: text("target_type", { enum: shareTargetTypes }).notNull(),
    targetId: text("target_id").notNull(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    passwordHash: text("password_hash"),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    maxViews: integer("max_views"),
    viewCount: integer("view_count").notNull().default(0),
    requireEmail: integer("require_email", { mode: "boolean" }).notNull().default(false),
    verifyEmail: integer("verify_email", { mode: "boolean" }).notNull().default(false),
    allowList: text("allow_list", { mode: "json" }).$type<string[]>().notNull().default([]),
    denyList: text("deny_list", { mode: "json" }).$type<string[]>().notNull().default([]),
    /** The agreement (NDA) a visitor accepts before viewing, or null for none. */
    agreement: text("agreement"),
    allowDownload: integer("allow_download", { mode: "boolean" }).notNull().default(true),
    downloadMode: text("download_mode", { enum: shareDownloadModes }).notNull().default("original"),
    printProtection: integer("print_protection", { mode: "boolean" }).notNull().default(false),
    watermark: integer("watermark", { mode: "boolean" }).notNull().default(false),
    /** A public gallery (ADR 034) is a share link of a folder shown as a gallery. */
    presentation: text("presentation", { enum: sharePresentations }).notNull().default("document"),
    /** A gallery's downloads when allowed: originals, or the screen size. */
    downloadSize: text("download_size", { enum: shareDownloadSizes }).notNull().default("original"),
    /** Whether a gallery shows what the pictures' EXIF says (date, camera, place). */
    showExif: integer("show_exif", { mode: "boolean" }).notNull().default(false),
    /** Whether a gallery's visitors may order prints of its pictures (issue 43). */
    allowPrints: integer("allow_prints", { mode: "boolean" }).notNull().default(false),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    lastViewedAt: integer("last_viewed_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("share_links_space_idx").on(table.spaceId, table.createdAt), index("share_links_target_idx").on(table.targetId).where(sql`revoked_at IS NULL`)],
);

/**
 * Agreements accepted on a share link (issue 21): who (the name typed, the e-mail given or
 * verified), when, and from where, as the owner's record of the NDA. Goes with the link.
 */
export const shareLinkAgreements = sqliteTable(
  "share_link_agreements",
  {
    id: text("id").primaryKey(),
    linkId: text("link_id")
      .notNull()
      .references(() => shareLinks.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email"),
    ip: text("ip"),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("share_link_agreements_link_idx").on(table.linkId, table.acceptedAt)],
);

/**
 * A link's visits (issue 21 analytics): one row per counted visit (the visit cookie's id), with the
 * address the visitor gave or verified, where from (the IP as the link owner's privacy setting
 * keeps it) and when. Written by the server when the visit is counted, so views cannot be forged.
 */
export const shareLinkVisits = sqliteTable(
  "share_link_visits",
  {
    id: text("id").primaryKey(),
    linkId: text("link_id")
      .notNull()
      .references(() => shareLinks.id, { onDelete: "cascade" }),
    email: text("email"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("share_link_visits_link_idx").on(table.linkId, table.startedAt)],
);

/**
 * What a visit did with each file: openings and downloads counted by the server as the bytes
 * leave, and the page count of a PDF the viewer showed (for completion).
 */
export const shareVisitFiles = sqliteTable(
  "share_visit_files",
  {
    visitId: text("visit_id")
      .notNull()
      .references(() => shareLinkVisits.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
    opens: integer("opens").notNull().default(0),
    downloads: integer("downloads").notNull().default(0),
    pageCount: integer("page_count"),
    lastAt: integer("last_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.visitId, table.fileId] })],
);

/** Time per PDF page of a visit, reported by the viewer (bounded per report, like a room's). */
export const shareVisitPages = sqliteTable(
  "share_visit_pages",
  {
    visitId: text("visit_id")
      .notNull()
      .references(() => shareLinkVisits.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
    page: integer("page").notNull(),
    ms: integer("ms").notNull(),
  },
  (table) => [primaryKey({ columns: [table.visitId, table.fileId, table.page] })],
);

export const shareIpModes = ["full", "truncated", "none"] as const;
export type ShareIpMode = (typeof shareIpModes)[number];

/**
 * How a space's share links treat their visitors' data (issue 21): keep the IP address whole,
 * truncated (IPv4 /24, IPv6 /48) or not at all, and how many days visits are kept (null: as long
 * as the link). Applied when a visit or an agreement is written, and by the nightly job to what
 * is already stored. No row: the defaults (truncated, 365 days). Set by the room's managers, or
 * by the owner of personal files.
 */
export const sharePrivacy = sqliteTable("share_privacy", {
  spaceId: text("space_id")
    .primaryKey()
    .references(() => spaces.id, { onDelete: "cascade" }),
  ipMode: text("ip_mode", { enum: shareIpModes }).notNull().default("truncated"),
  retentionDays: integer("retention_days"),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * A gallery visitor's favourites (issue 40, proofing): the pictures a visit marked. The owner sees
 * each visitor's selection on the link's page; it goes with the visit (and its retention).
 */
export const galleryFavourites = sqliteTable(
  "gallery_favourites",
  {
    visitId: text("visit_id")
      .notNull()
      .references(() => shareLinkVisits.id, { onDelete: "cascade" }),
    fileId: text("file_id").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.visitId, table.fileId] })],
);
