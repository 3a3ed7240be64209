import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { datarooms } from "./datarooms";
import { spaces } from "./files";

/** A field placed on a page, as stored; its shape is the signatures feature's (`SignField`), checked before every write. */
export type StoredSignField = {
  id: string;
  type: string;
  roleId: string;
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  required: boolean;
  label: string;
  options: string[];
};
export type StoredSignRole = { id: string; name: string };

/**
 * A reusable e-signature template (issue 38, docs/signatures.md): a PDF of the member's (its
 * bytes copied into the template's own object, so later edits of the file never move a field),
 * recipient roles and the fields placed for each. Deleting sends it to the trash.
 */
export const signatureTemplates = sqliteTable(
  "signature_templates",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The space whose key seals the document object (the member's own, or the room the PDF came from). */
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    sourceFileId: text("source_file_id"),
    documentName: text("document_name").notNull(),
    documentKey: text("document_key").notNull(),
    documentSize: integer("document_size").notNull(),
    pageCount: integer("page_count").notNull(),
    roles: text("roles", { mode: "json" }).notNull().$type<StoredSignRole[]>(),
    fields: text("fields", { mode: "json" }).notNull().$type<StoredSignField[]>(),
    revision: integer("revision").notNull().default(1),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("signature_templates_user_idx").on(table.userId, table.updatedAt)],
);

export const envelopeStatuses = ["draft", "sent", "sealing", "completed", "declined", "voided", "expired"] as const;
export type EnvelopeStatus = (typeof envelopeStatuses)[number];

/**
 * One document sent for signature (an "envelope"): its own copy of the PDF, the fields, who signs
 * in which order, and its life from draft to sealed. In a data room it also writes the room's
 * audit log. The sealed PDF is a new file next to the original (`sealed_file_id`), and its
 * SHA-256 lets the verify page find the envelope again.
 */
export const signatureEnvelopes = sqliteTable(
  "signature_envelopes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dataroomId: text("dataroom_id").references(() => datarooms.id, { onDelete: "cascade" }),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    templateId: text("template_id"),
    title: text("title").notNull(),
    message: text("message").notNull().default(""),
    status: text("status", { enum: envelopeStatuses }).notNull().default("draft"),
    /** "parallel": everyone at once; "sequential": one after another, in `position` order. */
    signingOrder: text("signing_order", { enum: ["parallel", "sequential"] }).notNull().default("parallel"),
    /** The original file (it may change or go later; the envelope keeps its own copy below). */
    sourceFileId: text("source_file_id"),
    sourceFolderId: text("source_folder_id"),
    documentName: text("document_name").notNull(),
    documentKey: text("document_key").notNull(),
    documentSize: integer("document_size").notNull(),
    documentSha256: text("document_sha256").notNull(),
    pageCount: integer("page_count").notNull(),
    fields: text("fields", { mode: "json" }).notNull().$type<StoredSignField[]>(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    /** Reminders: the first after N days, then every M days (null: none). */
    reminderFirstDays: integer("reminder_first_days"),
    reminderEveryDays: integer("reminder_every_days"),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
    sealedFileId: text("sealed_file_id"),
    sealedSha256: text("sealed_sha256"),
    sealedKey: text("sealed_key"),
    sealedSize: integer("sealed_size"),
    voidedAt: integer("voided_at", { mode: "timestamp_ms" }),
    voidReason: text("void_reason"),
    revision: integer("revision").notNull().default(1),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    index("signature_envelopes_user_idx").on(table.userId, table.updatedAt, table.id),
    index("signature_envelopes_room_idx").on(table.dataroomId, table.updatedAt, table.id).where(sql`dataroom_id IS NOT NULL`),
    index("signature_envelopes_sealed_idx").on(table.sealedSha256).where(sql`sealed_sha256 IS NOT NULL`),
    index("signature_envelopes_due_idx").on(table.status, table.expiresAt),
  ],
);

export const recipientKinds = ["signer", "approver", "viewer"] as const;
export const recipientStatuses = ["waiting", "sent", "opened", "signed", "declined"] as const;
export type RecipientStatus = (typeof recipientStatuses)[number];

/**
 * A person an envelope goes to. Their link's token (256 bits) is kept as a hash to find them and
 * sealed for resending the same link (reminders, "Send again"); it opens only their own fields.
 */
export const signatureRecipients = sqliteTable(
  "signature_recipients",
  {
    id: text("id").primaryKey(),
    envelopeId: text("envelope_id")
      .notNull()
      .references(() => signatureEnvelopes.id, { onDelete: "cascade" }),
    roleId: text("role_id").notNull(),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    kind: text("kind", { enum: recipientKinds }).notNull(),
    requireCode: integer("require_code", { mode: "boolean" }).notNull().default(false),
    tokenHash: text("token_hash"),
    tokenSealed: text("token_sealed"),
    status: text("status", { enum: recipientStatuses }).notNull().default("waiting"),
    values: text("values", { mode: "json" }).$type<Record<string, string>>(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    openedAt: integer("opened_at", { mode: "timestamp_ms" }),
    signedAt: integer("signed_at", { mode: "timestamp_ms" }),
    declinedAt: integer("declined_at", { mode: "timestamp_ms" }),
    declineReason: text("decline_reason"),
    consentedAt: integer("consented_at", { mode: "timestamp_ms" }),
    verification: text("verification"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    remindersSent: integer("reminders_sent").notNull().default(0),
    lastRemindedAt: integer("last_reminded_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    uniqueIndex("signature_recipients_token_unique").on(table.tokenHash),
    index("signature_recipients_envelope_idx").on(table.envelopeId, table.position),
    index("signature_recipients_email_idx").on(table.email, table.status),
  ],
);

/** What happened to an envelope, in order: its page's history and the certificate's audit trail. */
export const signatureEvents = sqliteTable(
  "signature_events",
  {
    id: text("id").primaryKey(),
    envelopeId: text("envelope_id")
      .notNull()
      .references(() => signatureEnvelopes.id, { onDelete: "cascade" }),
    recipientId: text("recipient_id"),
    type: text("type").notNull(),
    actor: text("actor").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    detail: text("detail"),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("signature_events_envelope_idx").on(table.envelopeId, table.at)],
);
