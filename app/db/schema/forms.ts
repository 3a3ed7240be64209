import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { teams } from "./teams";

/** A definition as stored; its shape is the forms feature's (`FormDefinition`), checked before every write. */
export type StoredDefinition = { fields: Record<string, unknown>[]; rules: Record<string, unknown>[] };
export type FormAnswerValue = string | string[];
/** A file a visitor sent as an answer: its upload, and the file it became once it arrived (null until then, or if it never did). */
export type FormSubmissionFile = { uploadId: string; fieldId: string; name: string; size: number; checkType: boolean; fileId: string | null };

/**
 * A form (issue 37, docs/forms.md): its draft (title, description, fields and rules, saved as the
 * member edits) and the settings of its public side. Publishing copies the draft into a frozen
 * `form_versions` row; the public form always answers the latest published version, and each
 * submission keeps the version it answered. A member's own template is a form with `is_template`.
 */
export const forms = sqliteTable(
  "forms",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The team whose workspace holds the form (issue 42, ADR 041): its people work on it by their team role. Null: the member's own. */
    teamId: text("team_id").references((): AnySQLiteColumn => teams.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    draft: text("draft", { mode: "json" }).notNull().$type<StoredDefinition>(),
    /** Bumped by every saved change: a save based on an older revision is refused (two tabs). */
    revision: integer("revision").notNull().default(1),
    /** The newest published version (null: never published) and the draft revision it froze. */
    publishedVersion: integer("published_version"),
    publishedRevision: integer("published_revision"),
    isTemplate: integer("is_template", { mode: "boolean" }).notNull().default(false),
    /** Accepting submissions (the owner closes and reopens a published form). */
    isOpen: integer("is_open", { mode: "boolean" }).notNull().default(true),
    closesAt: integer("closes_at", { mode: "timestamp_ms" }),
    maxSubmissions: integer("max_submissions"),
    thankYouMessage: text("thank_you_message").notNull().default(""),
    redirectUrl: text("redirect_url"),
    /** The sites (https origins) that may show this form's shared submissions in a frame. */
    embedOrigins: text("embed_origins", { mode: "json" }).notNull().$type<string[]>().default([]),
    /** The public form's password (scrypt, like an account's), or null. */
    passwordHash: text("password_hash"),
    /** Where the answers' files go (a folder of the owner's, or of a room): null until chosen. */
    fileFolderId: text("file_folder_id"),
    /** Each submission opens a case of this type (issue 41). */
    caseTypeId: text("case_type_id"),
    /** A subfolder per submission (named after the person when the form asks their name or e-mail). */
    filesPerSubmission: integer("files_per_submission", { mode: "boolean" }).notNull().default(false),
    /** "Map fields": the PDF (a file of the member's) its submissions fill, and which question fills which of its fields. */
    pdfMap: text("pdf_map", { mode: "json" }).$type<{ fileId: string; pairs: Record<string, string> }>(),
    /** One submission per e-mail address, proven by a code mailed to it. */
    verifyEmail: integer("verify_email", { mode: "boolean" }).notNull().default(false),
    /** Counted for the builder dashboard: the public form opened, and a first answer sent. */
    views: integer("views").notNull().default(0),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    /** In the trash since (30 days, then purged); null: live. */
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("forms_user_updated_idx").on(table.userId, table.updatedAt), index("forms_team_updated_idx").on(table.teamId, table.updatedAt).where(sql`team_id IS NOT NULL`)],
);

/** A published version of a form, frozen: submissions point at it. */
export const formVersions = sqliteTable(
  "form_versions",
  {
    formId: text("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    definition: text("definition", { mode: "json" }).notNull().$type<StoredDefinition>(),
    publishedAt: integer("published_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.formId, table.version] })],
);

/**
 * One submission: the answers to the fields that were shown (never a hidden one), keyed by field
 * id, with the version they answered. Test submissions (the preview's) are kept apart from the
 * real ones and their counts. Deleting sends a submission to the trash.
 */
export const formSubmissions = sqliteTable(
  "form_submissions",
  {
    id: text("id").primaryKey(),
    formId: text("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    answers: text("answers", { mode: "json" }).notNull().$type<Record<string, FormAnswerValue>>(),
    isTest: integer("is_test", { mode: "boolean" }).notNull().default(false),
    /** The pages the visitor went through (for drop-off per page). */
    pagesSeen: integer("pages_seen").notNull().default(1),
    /** The files sent with it (issue 37); their uploads run with the grant whose hash is kept here. */
    files: text("files", { mode: "json" }).notNull().$type<FormSubmissionFile[]>().default([]),
    grantHash: text("grant_hash"),
    /** The address the visitor proved (forms that take one submission per verified address). */
    verifiedEmail: text("verified_email"),
    /** When every file had arrived (or was given up) and the owner was told; null while files are on their way. */
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("form_submissions_form_created_idx").on(table.formId, table.isTest, table.createdAt), index("form_submissions_grant_idx").on(table.grantHash), index("form_submissions_verified_email_idx").on(table.formId, table.verifiedEmail)],
);

/**
 * How far each visit gets (the builder dashboard): a visit is made by the public form at the
 * visitor's first answer (a "start", with a random id of the browser's), then moved on as "Next"
 * leads to later pages, and marked completed by its submission. Test visits are not recorded.
 */
export const formVisits = sqliteTable(
  "form_visits",
  {
    id: text("id").notNull(),
    formId: text("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    furthestPage: integer("furthest_page").notNull().default(0),
    completed: integer("completed", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.formId, table.id] }), index("form_visits_version_idx").on(table.formId, table.version)],
);

/**
 * One submission shared with someone outside (/submissions/shared/{token}): the token (256 bits)
 * is stored as SHA-256 only and shown to the owner once; it ends at its expiry or when revoked,
 * at once. Every opening is written to `form_share_openings`.
 */
export const formSubmissionShares = sqliteTable(
  "form_submission_shares",
  {
    id: text("id").primaryKey(),
    formId: text("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    submissionId: text("submission_id")
      .notNull()
      .references(() => formSubmissions.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** Whom it was for, in the owner's words ("our accountant"). */
    note: text("note").notNull().default(""),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    opens: integer("opens").notNull().default(0),
    lastOpenedAt: integer("last_opened_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("form_submission_shares_submission_idx").on(table.submissionId, table.createdAt)],
);

/** Every opening of a shared submission (the share's audit trail): when, from where, how (embedded or not). */
export const formShareOpenings = sqliteTable(
  "form_share_openings",
  {
    id: text("id").primaryKey(),
    shareId: text("share_id")
      .notNull()
      .references(() => formSubmissionShares.id, { onDelete: "cascade" }),
    openedAt: integer("opened_at", { mode: "timestamp_ms" }).notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    embedded: integer("embedded", { mode: "boolean" }).notNull().default(false),
  },
  (table) => [index("form_share_openings_share_idx").on(table.shareId, table.openedAt)],
);

/**
 * A form's webhook (issue 37): each real submission is POSTed as JSON to `url`, signed with the
 * webhook's own secret (HMAC-SHA256 over the timestamp and the body; the secret is sealed with the
 * app's key so the owner can read it again). Delivery goes through Queues with retries; after
 * `WEBHOOK_DISABLE_AFTER` failed attempts in a row it is disabled and the owner told.
 */
export const formWebhooks = sqliteTable(
  "form_webhooks",
  {
    id: text("id").primaryKey(),
    formId: text("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    secretSealed: text("secret_sealed").notNull(),
    isEnabled: integer("is_enabled", { mode: "boolean" }).notNull().default(true),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    disabledAt: integer("disabled_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("form_webhooks_form_idx").on(table.formId)],
);

/**
 * One delivery attempt: its id is derived from the webhook, the submission and the attempt number,
 * so a queue message delivered twice records (and sends) that attempt once. `eventId` is the
 * payload's id, the same for every attempt of one submission: receivers drop duplicates by it.
 */
export const formWebhookDeliveries = sqliteTable(
  "form_webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => formWebhooks.id, { onDelete: "cascade" }),
    submissionId: text("submission_id").notNull(),
    eventId: text("event_id").notNull(),
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: ["sending", "succeeded", "failed"] }).notNull(),
    responseCode: integer("response_code"),
    error: text("error"),
    durationMs: integer("duration_ms"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("form_webhook_deliveries_webhook_idx").on(table.webhookId, table.createdAt)],
);
