import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";

/**
 * Tier config (spec §3): one row per tier with its limits (-1 = unlimited). Seeded by migration
 * 0003 and editable by ops; `permissions` overrides the spec's default list when set (business
 * still always gets its guaranteed features).
 */
export const tiers = sqliteTable("tiers", {
  name: text("name").primaryKey(),
  label: text("label").notNull(),
  sortOrder: integer("sort_order").notNull(),
  maxDatarooms: integer("max_datarooms").notNull(),
  maxDataroomStorageMb: integer("max_dataroom_storage_mb").notNull(),
  maxDataroomFiles: integer("max_dataroom_files").notNull(),
  maxDataroomFolders: integer("max_dataroom_folders").notNull(),
  maxDataroomMembers: integer("max_dataroom_members").notNull(),
  maxDataroomGuests: integer("max_dataroom_guests").notNull(),
  /** People in one team (members and open invitations), issue 42. */
  maxTeamSeats: integer("max_team_seats").notNull().default(0),
  permissions: text("permissions", { mode: "json" }).$type<string[] | null>(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/** A member's addons (spec §3 "Addons"): one row per addon type with its quantity. */
export const userAddons = sqliteTable(
  "user_addons",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    addon: text("addon").notNull(),
    quantity: integer("quantity").notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.addon] })],
);

/**
 * Explicit grants and denials per scope (spec §3 "Dataroom permission payload": user_id,
 * permission, value): the permission matrix beyond what the tier gives. Scope is `global`, a
 * named scope, or `dataroom:<id>`.
 */
export const userPermissions = sqliteTable(
  "user_permissions",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    scope: text("scope").notNull(),
    permission: text("permission").notNull(),
    value: integer("value", { mode: "boolean" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.scope, table.permission] }), index("user_permissions_scope_idx").on(table.scope)],
);
