import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const jobStatuses = ["pending", "processing", "paused", "completed", "failed", "cancelled"] as const;
export type JobStatus = (typeof jobStatuses)[number];

export type JobItemError = { itemId: string; message: string; retryable: boolean };

/**
 * Every background job (spec §3 "Batch operation"): the row is written by the producer before
 * the message is sent, and every consumer transition is a conditional update, so a message
 * delivered twice cannot run a finished job again.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    status: text("status", { enum: jobStatuses }).notNull().default("pending"),
    priority: integer("priority").notNull().default(1),
    totalItems: integer("total_items").notNull().default(0),
    processedItems: integer("processed_items").notNull().default(0),
    successCount: integer("success_count").notNull().default(0),
    failureCount: integer("failure_count").notNull().default(0),
    errors: text("errors", { mode: "json" }).$type<JobItemError[]>().notNull().default(sql`'[]'`),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    retryCount: integer("retry_count").notNull().default(0),
    lastError: text("last_error"),
    userId: text("user_id"),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("jobs_status_updated_idx").on(table.status, table.updatedAt),
    index("jobs_user_created_idx").on(table.userId, table.createdAt),
  ],
);
