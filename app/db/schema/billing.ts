import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";

/**
 * A member's free trial of a paid tier (issue 43, ADR 043): one per member, ever (the primary key).
 * While `ends_at` is ahead and `ended_at` is empty, the member's access is the higher of this tier
 * and the tier they pay for; the morning job reminds them before the end and closes it after.
 */
export const memberTrials = sqliteTable(
  "member_trials",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    tier: text("tier").notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    endsAt: integer("ends_at", { mode: "timestamp_ms" }).notNull(),
    /** When the "your trial ends soon" e-mail went out (once). */
    remindedAt: integer("reminded_at", { mode: "timestamp_ms" }),
    /** When the trial was closed: by the morning job after `ends_at`, or early (a plan bought). */
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("member_trials_open_idx").on(table.endsAt).where(sql`ended_at IS NULL`)],
);
