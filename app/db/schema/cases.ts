import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { files, folders, spaces } from "./files";
import { datarooms } from "./datarooms";
import { forms } from "./forms";
import { receivePages } from "./receive";

/**
 * Cases (issue 41, ADR 036): everything about one matter. A case type says which fields its cases
 * carry, which folders their case file starts with and which workflow runs on what is filed there;
 * a case holds its field values, status, people, case file (a folder), tasks and milestones, and a
 * timeline. Every change goes through `app/features/cases/`.
 */
export const caseFieldTypes = ["text", "number", "date", "select"] as const;
export type CaseFieldType = (typeof caseFieldTypes)[number];
export type CaseField = { key: string; label: string; type: CaseFieldType; options: string[]; required: boolean };
export type CaseValues = Record<string, string | number | null>;

export const caseTypes = sqliteTable(
  "case_types",
  {
    id: text("id").primaryKey(),
    /** Whose files hold its cases' case files (the builder's own, for now). */
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    fields: text("fields", { mode: "json" }).$type<CaseField[]>().notNull(),
    /** The subfolders every new case file starts with. */
    folders: text("folders", { mode: "json" }).$type<string[]>().notNull(),
    /** Started on each case's file when the case opens (null: none). */
    defaultWorkflowId: text("default_workflow_id"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("case_types_owner_idx").on(table.createdBy, table.updatedAt)],
);

export const caseStatuses = ["open", "waiting", "closed"] as const;
export type CaseStatus = (typeof caseStatuses)[number];

export const cases = sqliteTable(
  "cases",
  {
    id: text("id").primaryKey(),
    typeId: text("type_id")
      .notNull()
      .references(() => caseTypes.id, { onDelete: "cascade" }),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** A short human reference, "CASE-0042" (per owner). */
    reference: text("reference").notNull(),
    title: text("title").notNull(),
    status: text("status", { enum: caseStatuses }).notNull().default("open"),
    values: text("values", { mode: "json" }).$type<CaseValues>().notNull(),
    /** The case file: a folder of the owner's files, or of the data room the case lives in. */
    folderId: text("folder_id").references(() => folders.id, { onDelete: "set null" }),
    /** The data room the case lives in (its case file a folder at the top of the room; its timeline also in the room's audit log), or null. */
    roomId: text("room_id").references(() => datarooms.id, { onDelete: "set null" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    assigneeId: text("assignee_id").references(() => users.id, { onDelete: "set null" }),
    dueAt: integer("due_at", { mode: "timestamp_ms" }),
    /** Where it was opened from: by hand, a workflow step, a form or receive page submission. */
    sourceKind: text("source_kind", { enum: ["manual", "workflow", "form", "receive"] }).notNull().default("manual"),
    sourceRef: text("source_ref"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    closedAt: integer("closed_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    index("cases_owner_idx").on(table.ownerId, table.updatedAt),
    index("cases_assignee_idx").on(table.assigneeId, table.status),
    index("cases_type_idx").on(table.typeId),
    index("cases_source_idx").on(table.sourceKind, table.sourceRef),
  ],
);

/** People of a case: members who may open it, and outsiders who act through a page bound to it. */
export const caseParticipants = sqliteTable(
  "case_participants",
  {
    caseId: text("case_id")
      .notNull()
      .references(() => cases.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    addedAt: integer("added_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.caseId, table.email] }), index("case_participants_user_idx").on(table.userId)],
);

/** A case's to-dos and milestones. */
export const caseTasks = sqliteTable(
  "case_tasks",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => cases.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["task", "milestone"] }).notNull(),
    title: text("title").notNull(),
    assigneeId: text("assignee_id").references(() => users.id, { onDelete: "set null" }),
    dueAt: integer("due_at", { mode: "timestamp_ms" }),
    doneAt: integer("done_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("case_tasks_case_idx").on(table.caseId, table.createdAt)],
);

/** What happened to a case (its own entries; the runs filed into it add theirs when it is read). */
export const caseEvents = sqliteTable(
  "case_events",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => cases.id, { onDelete: "cascade" }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    kind: text("kind").notNull(),
    actorId: text("actor_id"),
    fileId: text("file_id").references(() => files.id, { onDelete: "set null" }),
    detail: text("detail"),
  },
  (table) => [index("case_events_case_idx").on(table.caseId, table.at)],
);

/**
 * A form or a receive page sent to someone for an open case (issue 41: outsiders act on a case
 * through a form or receive page bound to it): the link carries a ticket (only its hash is kept);
 * their submission with it is filed into the case (its answers in the timeline, its files into the
 * case file), once.
 */
export const caseRequests = sqliteTable(
  "case_requests",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => cases.id, { onDelete: "cascade" }),
    /** What was sent: one of the owner's forms, or (migration 0058) one of their receive pages; exactly one is set. */
    formId: text("form_id").references(() => forms.id, { onDelete: "cascade" }),
    receivePageId: text("receive_page_id").references(() => receivePages.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    requestedBy: text("requested_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    /** The submission that answered it (the first with its ticket), or null while it waits. */
    submissionId: text("submission_id"),
    answeredAt: integer("answered_at", { mode: "timestamp_ms" }),
  },
  (table) => [uniqueIndex("case_requests_token_idx").on(table.tokenHash), index("case_requests_case_idx").on(table.caseId, table.createdAt), index("case_requests_submission_idx").on(table.submissionId)],
);
