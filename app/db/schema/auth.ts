import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Accounts (spec §3 "Auth session", §4 "Authentication"). Every secret here is stored derived:
 * the password as an scrypt hash with its parameters, session ids and link tokens as SHA-256,
 * e-mail codes and recovery codes as HMACs, the TOTP key encrypted with a key derived from
 * SESSION_SECRET.
 */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Lower-cased and trimmed: the login identifier. */
    email: text("email").notNull(),
    emailVerifiedAt: integer("email_verified_at", { mode: "timestamp_ms" }),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** Subscription tier (free, basic, pro, business, custom). */
    tier: text("tier").notNull().default("free"),
    /** AES-GCM ciphertext of the TOTP key; null while authenticator-app 2FA is off. */
    totpSecret: text("totp_secret"),
    totpEnabledAt: integer("totp_enabled_at", { mode: "timestamp_ms" }),
    /** The 30-second step of the last accepted authenticator code: each code works once (RFC 6238 §5.2). */
    totpLastUsedStep: integer("totp_last_used_step"),
    email2faEnabledAt: integer("email_2fa_enabled_at", { mode: "timestamp_ms" }),
    /** Security level: the member's own policy. */
    require2fa: integer("require_2fa", { mode: "boolean" }).notNull().default(false),
    sessionLifetimeHours: integer("session_lifetime_hours"),
    /** The workspace's side navigation is folded to icons (remembered per member, issue 36). */
    sidebarCollapsed: integer("sidebar_collapsed", { mode: "boolean" }).notNull().default(false),
    /** The dashboard's widgets in the member's order (JSON list of widget ids); null: the default layout. */
    dashboardLayout: text("dashboard_layout", { mode: "json" }).$type<string[]>(),
    /** The newest release note the member has opened What's new since (its file name); null: never. */
    whatsNewSeen: text("whats_new_seen"),
    /** The welcome checklist was hidden from the dashboard. */
    welcomeDismissedAt: integer("welcome_dismissed_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [uniqueIndex("users_email_unique").on(table.email)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 (hex) of the token in the cookie; the token itself is never stored. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Null until the second factor is verified (or at once when the account has none). */
    verifiedAt: integer("verified_at", { mode: "timestamp_ms" }),
    /** Which second factor this session still owes: email, totp, or null. */
    pendingSecondFactor: text("pending_second_factor", { enum: ["email", "totp"] }),
    /** When this session passed a second factor (sign-in with a code, or turning on the authenticator app); null if it never did. */
    secondFactorAt: integer("second_factor_at", { mode: "timestamp_ms" }),
    /** Last time the password was confirmed in this session (re-authentication). */
    reauthenticatedAt: integer("reauthenticated_at", { mode: "timestamp_ms" }),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
    /** Idle expiry: slides forward with use. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    /** Absolute expiry: never moves. */
    absoluteExpiresAt: integer("absolute_expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("sessions_user_idx").on(table.userId, table.lastSeenAt)],
);

export const authTokenPurposes = ["verify_email", "reset_password", "change_email", "email_2fa"] as const;
export type AuthTokenPurpose = (typeof authTokenPurposes)[number];

/** Single-use, short-lived secrets sent by e-mail: links (≥128 bits) and 6-digit codes. */
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: authTokenPurposes }).notNull(),
    /** SHA-256 of a link token, or HMAC of a code bound to its session. */
    tokenHash: text("token_hash").notNull(),
    /** For e-mail codes: the session (hash) the code was issued to. */
    sessionId: text("session_id"),
    /** For an e-mail change: the new address. */
    newEmail: text("new_email"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    uniqueIndex("auth_tokens_hash_unique").on(table.tokenHash),
    index("auth_tokens_user_purpose_idx").on(table.userId, table.purpose),
  ],
);

export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("recovery_codes_user_idx").on(table.userId)],
);

export const authEventTypes = [
  "sign_in",
  "sign_in_failed",
  "sign_in_locked",
  "sign_out",
  "two_factor_passed",
  "two_factor_failed",
  "two_factor_enabled",
  "two_factor_disabled",
  "recovery_code_used",
  "recovery_codes_regenerated",
  "password_changed",
  "password_reset",
  "email_verified",
  "email_changed",
  "profile_updated",
  "security_level_changed",
  "session_revoked",
  "other_sessions_revoked",
  "data_exported",
  "account_created",
] as const;
export type AuthEventType = (typeof authEventTypes)[number];

/** The member's own account activity (profile activity dashboard). Never holds a secret. */
export const authEvents = sqliteTable(
  "auth_events",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: authEventTypes }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    detail: text("detail"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("auth_events_user_created_idx").on(table.userId, table.createdAt)],
);

export const mailStatuses = ["stored", "queued", "sent", "failed"] as const;

/**
 * Every message the mailer sends. With the `outbox` driver this table is the mailbox
 * (/dev/mail); with the `http` driver it is the delivery queue and its record.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    toAddress: text("to_address").notNull(),
    /** Null when the recipient is not (or no longer) a member. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    template: text("template").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    status: text("status", { enum: mailStatuses }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("mail_outbox_created_idx").on(table.createdAt), index("mail_outbox_to_idx").on(table.toAddress)],
);
