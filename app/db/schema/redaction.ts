import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { files } from "./files";

/**
 * Redaction reports (issue 39): one per redaction applied, kept with the version it made (the
 * file's `version` after it). Marks per page, what was removed, and the app's own check.
 */
export const fileRedactions = sqliteTable(
  "file_redactions",
  {
    id: text("id").primaryKey(),
    fileId: text("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    spaceId: text("space_id").notNull(),
    /** The file's version this redaction produced; the one before it holds the original. */
    version: integer("version").notNull(),
    report: text("report", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdBy: text("created_by"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("file_redactions_file_idx").on(table.fileId, table.version)],
);
