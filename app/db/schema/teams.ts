import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { users } from "./auth";

/**
 * Teams (issue 42, ADR 037): several people who work together under one owner's plan. A team has
 * members with a system role, single-use e-mail invitations (like a data room's), and its own
 * activity log. Seats (members plus open invitations) come from the owner's plan and add-ons.
 * Every change goes through `app/features/teams/`.
 */
export const teamRoles = ["owner", "admin", "member", "billing"] as const;
export type TeamRole = (typeof teamRoles)[number];

export const teams = sqliteTable(
  "teams",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** How long the team's activity and its rooms' audit logs are kept, in days; 0 = forever (issue 42, ADR 039). */
    logRetentionDays: integer("log_retention_days").notNull().default(0),
    /** A legal hold stops every log cleanup of the team while it is placed. */
    legalHoldAt: integer("legal_hold_at", { mode: "timestamp_ms" }),
    legalHoldBy: text("legal_hold_by").references(() => users.id, { onDelete: "set null" }),
    legalHoldReason: text("legal_hold_reason").notNull().default(""),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("teams_owner_idx").on(table.ownerId)],
);

export const teamMembers = sqliteTable(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: teamRoles }).notNull(),
    /** A custom role (members only): what they may do in the team's rooms comes from it. Deleting a role someone holds is refused. */
    customRoleId: text("custom_role_id").references((): AnySQLiteColumn => teamCustomRoles.id, { onDelete: "no action" }),
    joinedAt: integer("joined_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.teamId, table.userId] }), index("team_members_user_idx").on(table.userId)],
);

export const teamInvitations = sqliteTable(
  "team_invitations",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: teamRoles }).notNull(),
    /** Invited straight into a custom role (members only); a role deleted meanwhile leaves a plain member. */
    customRoleId: text("custom_role_id").references((): AnySQLiteColumn => teamCustomRoles.id, { onDelete: "set null" }),
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
  },
  (table) => [
    index("team_invitations_team_idx").on(table.teamId, table.createdAt),
    uniqueIndex("team_invitations_open_idx").on(table.teamId, table.email).where(sql`accepted_at IS NULL AND revoked_at IS NULL`),
  ],
);

/**
 * What happened in a team (its activity on the team page): who did what to whom. The actor's
 * e-mail is kept as it was, so the record stays readable after the account changes or is deleted.
 */
export const teamEvents = sqliteTable(
  "team_events",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetName: text("target_name"),
    detail: text("detail"),
  },
  (table) => [index("team_events_team_idx").on(table.teamId, table.at)],
);

/**
 * A team's custom roles (issue 42, ADR 038): a name and a set of permission strings from the
 * catalogue in `app/features/teams/team-roles.catalog.ts` (grouped by module, dependencies closed).
 * Given to members; their rooms' permissions follow it. Names are unique in a team, any case.
 */
export const teamCustomRoles = sqliteTable(
  "team_roles",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [uniqueIndex("team_roles_name_idx").on(table.teamId, sql`lower(${table.name})`)],
);
