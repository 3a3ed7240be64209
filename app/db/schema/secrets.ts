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
