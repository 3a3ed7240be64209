import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";

export const secretEventKinds = ["created", "viewed", "failed", "changed", "burned", "expired"] as const;
export type SecretEventKind = (typeof secretEventKinds)[number];
export const secretBurnReasons = ["owner", "attempts"] as const;

/**
 * A one-time secret (issue 23, docs/secrets.md). The server holds only what it cannot read: the
 * browser's ciphertext (`ciphertext`, null once the last view, the expiry, a burn or the purge
 * removed it), SHA-256 of the link's token (S1) and of the reveal proof, and the passphrase's
 * argon2id parameters. The key lives only in the link's #fragment.
 */
export const secrets = sqliteTable(
  "secrets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** The owner's own note to tell secrets apart (not encrypted; never shown to visitors). */
    label: text("label").notNull().default(""),
    ciphertext: text("ciphertext"),
    /** The plaintext's size in bytes as the browser reported it (for the owner's list). */
    size: integer("size").notNull().default(0),
    proofHash: text("proof_hash").notNull(),
    /** argon2id parameters (JSON) when a passphrase is needed. */
    kdf: text("kdf", { mode: "json" }).$type<{ alg: "argon2id"; salt: string; m: number; t: number; p: number }>(),
    maxViews: integer("max_views").notNull(),
    viewCount: integer("view_count").notNull().default(0),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    lastViewedAt: integer("last_viewed_at", { mode: "timestamp_ms" }),
    burnedAt: integer("burned_at", { mode: "timestamp_ms" }),
    burnReason: text("burn_reason", { enum: secretBurnReasons }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("secrets_user_created_idx").on(table.userId, table.createdAt),
    index("secrets_live_expiry_idx").on(table.expiresAt).where(sql`ciphertext IS NOT NULL`),
  ],
);

/** What happened to a secret, for its receipt and the owner's activity (never content, never an address). */
export const secretEvents = sqliteTable(
  "secret_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    secretId: text("secret_id")
      .notNull()
      .references(() => secrets.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: secretEventKinds }).notNull(),
    detail: text("detail"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("secret_events_secret_idx").on(table.secretId, table.createdAt), index("secret_events_user_idx").on(table.userId, table.createdAt)],
);

/**
 * A request for a secret (issue 23): a link that carries a public key (ECDH P-256) made in the
 * member's browser. Visitors seal their answers to it in their browser; only the member opens
 * them, with the private key, which is stored here only wrapped by a key derived (argon2id) from
 * a passphrase the server never sees.
 */
export const secretRequests = sqliteTable(
  "secret_requests",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** The token, AES-GCM sealed for the owner's copy button (like a share link's). */
    tokenSealed: text("token_sealed").notNull(),
    /** What the member asks for, shown to visitors (not secret). */
    message: text("message").notNull(),
    label: text("label").notNull().default(""),
    publicKey: text("public_key").notNull(),
    wrappedKey: text("wrapped_key").notNull(),
    kdf: text("kdf", { mode: "json" }).notNull().$type<{ alg: "argon2id"; salt: string; m: number; t: number; p: number }>(),
    maxResponses: integer("max_responses").notNull(),
    responseCount: integer("response_count").notNull().default(0),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    closedAt: integer("closed_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("secret_requests_user_created_idx").on(table.userId, table.createdAt), index("secret_requests_expiry_idx").on(table.expiresAt)],
);

/** One visitor's sealed answer to a request: their ephemeral public key and the ciphertext. */
export const secretRequestResponses = sqliteTable(
  "secret_request_responses",
  {
    id: text("id").primaryKey(),
    requestId: text("request_id")
      .notNull()
      .references(() => secretRequests.id, { onDelete: "cascade" }),
    ephemeralKey: text("ephemeral_key").notNull(),
    ciphertext: text("ciphertext").notNull(),
    size: integer("size").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("secret_request_responses_request_idx").on(table.requestId, table.createdAt)],
);

export const secretFileStatuses = ["pending", "ready"] as const;

/**
 * A file attached to a secret: sealed in the browser (the segment format of ADR 021, under a key
 * from the link's key) and uploaded through the file manager's tus path to `r2_key`. Its name,
 * type and size are inside the secret's sealed payload; here only the stored size.
 */
export const secretFiles = sqliteTable(
  "secret_files",
  {
    id: text("id").primaryKey(),
    secretId: text("secret_id")
      .notNull()
      .references(() => secrets.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    storedSize: integer("stored_size").notNull(),
    r2Key: text("r2_key").notNull(),
    status: text("status", { enum: secretFileStatuses }).notNull().default("pending"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("secret_files_secret_idx").on(table.secretId, table.seq)],
);

/**
 * A file sent with an answer to a request (issue 23): sealed in the visitor's browser to the
 * request's key and uploaded through the tus path by a visitor without an account, who holds a
 * grant for exactly this file (`upload_token_hash`: SHA-256 of a 256-bit token, S1).
 */
export const secretAnswerFiles = sqliteTable(
  "secret_answer_files",
  {
    id: text("id").primaryKey(),
    responseId: text("response_id")
      .notNull()
      .references(() => secretRequestResponses.id, { onDelete: "cascade" }),
    requestId: text("request_id").notNull(),
    seq: integer("seq").notNull(),
    storedSize: integer("stored_size").notNull(),
    r2Key: text("r2_key").notNull(),
    status: text("status", { enum: secretFileStatuses }).notNull().default("pending"),
    uploadTokenHash: text("upload_token_hash").notNull().unique(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("secret_answer_files_response_idx").on(table.responseId, table.seq), index("secret_answer_files_request_idx").on(table.requestId)],
);
