import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { spaces } from "./files";

export const shareTargetTypes = ["file", "folder", "room"] as const;
export type ShareTargetType = (typeof shareTargetTypes)[number];
export const shareDownloadModes = ["original", "watermarked"] as const;

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
