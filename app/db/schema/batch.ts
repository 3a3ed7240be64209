import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jobs } from "./jobs";

export const batchItemStates = ["pending", "done", "failed"] as const;
export type BatchItemState = (typeof batchItemStates)[number];

/**
 * The items of a batch operation (issue 22; the operation itself is its `jobs` row): in request
 * order (`seq`), each pending until a chunk message handles it, then done or failed with the
 * reason. Every transition is conditional on `pending`, and the operation's counters are counted
 * from these rows, so a message delivered twice changes nothing.
 */
export const batchItems = sqliteTable(
  "batch_items",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    itemType: text("item_type", { enum: ["file", "folder"] }).notNull(),
    itemId: text("item_id").notNull(),
    state: text("state", { enum: batchItemStates }).notNull().default("pending"),
    error: text("error"),
  },
  (table) => [primaryKey({ columns: [table.jobId, table.seq] }), index("batch_items_state_idx").on(table.jobId, table.state)],
);
