import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { spaces } from "./files";

/**
 * Workflows (issue 41, ADR 035). Cloudflare Workflows holds where an execution stands; these
 * tables hold what members see: the templates, each run with its status and current step, the
 * tasks people act on, and the run's timeline. Every change to them goes through
 * `app/features/workflows/` (the engine's steps call the same services), so they cannot drift.
 */
/**
 * What happens when a human step is overdue: remind the people again, hand it to someone else (an
 * approval: a member's id; a form: an e-mail address), or take a path (approve or reject; a form
 * step "approved" goes on without the answer).
 */
export type WorkflowEscalation = { action: "remind" } | { action: "reassign"; to: string } | { action: "approve" } | { action: "reject" };
/** When a step runs: always (the default), or only while the run is on the approved or the rejected path. */
export type WorkflowStepWhen = "always" | "approved" | "rejected";
export type WorkflowStepDefinition = { when?: WorkflowStepWhen } & (
  | { type: "approve"; name: string; assignees: string[]; roles?: ("admin" | "member" | "guest")[]; mode: "one" | "all" | "quorum"; quorumPercent: number | null; dueInHours?: number | null; escalation?: WorkflowEscalation | null }
  | { type: "move"; name: string; folderId: string }
  | { type: "sign"; name: string; signers: { name: string; email: string }[]; dueInHours?: number | null; escalation?: { action: "remind" } | { action: "reject" } | null }
  | { type: "case"; name: string; caseTypeId: string }
  | { type: "copy"; name: string; folderId: string }
  | { type: "tag"; name: string; tags: string[] }
  | { type: "metadata"; name: string; entries: { key: string; value: string }[] }
  | { type: "email"; name: string; to: string[]; subject: string; message: string }
  | { type: "share"; name: string; to: string[]; expiresInDays: number | null; allowDownload: boolean; message: string }
  | { type: "webhook"; name: string; url: string; secretSealed: string }
  | { type: "form"; name: string; formId: string; to: string; dueInHours?: number | null; escalation?: WorkflowEscalation | null }
  /** Back to step `to` (its number, 1 the first) at most `times` times: a loop; then the run goes on past it. */
  | { type: "back"; name: string; to: number; times: number }
);
/** A scheduled workflow's rhythm (trigger `schedule`): every so many days, counted from the day it was made. */
export type WorkflowDefinition = { steps: WorkflowStepDefinition[]; schedule?: { everyDays: number } };
/**
 * What starts a run: a member by hand on a document, a file arriving in a folder, a document the
 * builder sent for signature signed by everyone, a form of theirs submitted, files arriving
 * through one of their receive pages, or a schedule (each document of a folder, every so many days).
 */
export const workflowTriggerKinds = ["manual", "upload", "envelope", "form", "receive", "schedule"] as const;
export type WorkflowTriggerKind = (typeof workflowTriggerKinds)[number];

export const workflowTemplates = sqliteTable(
  "workflow_templates",
  {
    id: text("id").primaryKey(),
    /** Where its runs' documents live (a member's personal space for now; later a room or a team). */
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    definition: text("definition", { mode: "json" }).$type<WorkflowDefinition>().notNull(),
    triggerKind: text("trigger_kind", { enum: workflowTriggerKinds }).notNull().default("manual"),
    /** The folder whose new files start a run (trigger `upload`), or whose documents a scheduled run reviews (trigger `schedule`). */
    triggerFolderId: text("trigger_folder_id"),
    /** The form (trigger `form`) or receive page (trigger `receive`) whose submissions start a run. */
    triggerSourceId: text("trigger_source_id"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("workflow_templates_space_idx").on(table.spaceId, table.updatedAt), index("workflow_templates_trigger_folder_idx").on(table.triggerFolderId), index("workflow_templates_trigger_source_idx").on(table.triggerSourceId)],
);

export const workflowRunStatuses = ["running", "completed", "rejected", "cancelled", "failed"] as const;
export type WorkflowRunStatus = (typeof workflowRunStatuses)[number];

/** One run of a template on a document; its id is the engine instance's id. */
export const workflowRuns = sqliteTable(
  "workflow_runs",
  {
    id: text("id").primaryKey(),
    templateId: text("template_id")
      .notNull()
      .references(() => workflowTemplates.id, { onDelete: "cascade" }),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** The document the steps act on (for a submission: its first PDF, else its first file; null when it brought none). */
    subjectFileId: text("subject_file_id"),
    /** The form or receive page submission the run is about (triggers `form`, `receive`); its files are the run's documents. */
    subjectSubmissionId: text("subject_submission_id"),
    /** What started it: a member (manual) or an upload into the trigger folder (then the upload's id, so one upload starts one run). */
    triggerKind: text("trigger_kind", { enum: workflowTriggerKinds }).notNull().default("manual"),
    triggerRef: text("trigger_ref"),
    /** The case the run's document was filed into (its timeline shows the run's). */
    caseId: text("case_id"),
    status: text("status", { enum: workflowRunStatuses }).notNull(),
    /** The step under way (0-based), or the last one once the run ended. */
    stepIndex: integer("step_index").notNull().default(0),
    startedBy: text("started_by").references(() => users.id, { onDelete: "set null" }),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    index("workflow_runs_space_idx").on(table.spaceId, table.startedAt),
    index("workflow_runs_template_idx").on(table.templateId, table.startedAt),
    index("workflow_runs_case_idx").on(table.caseId),
    // One trigger (an upload) starts one run of a workflow, however often it is delivered.
    uniqueIndex("workflow_runs_trigger_idx").on(table.templateId, table.triggerRef),
  ],
);

export const workflowTaskStatuses = ["open", "approved", "rejected", "closed"] as const;
export type WorkflowTaskStatus = (typeof workflowTaskStatuses)[number];

/** A person's part in a human step: open until they decide, closed when the step ended without them. */
export const workflowTasks = sqliteTable(
  "workflow_tasks",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => workflowRuns.id, { onDelete: "cascade" }),
    stepIndex: integer("step_index").notNull(),
    assigneeId: text("assignee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: workflowTaskStatuses }).notNull(),
    comment: text("comment"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    /** When the step wants a decision by (its due time), or null. */
    dueAt: integer("due_at", { mode: "timestamp_ms" }),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
  },
  (table) => [uniqueIndex("workflow_tasks_step_person_idx").on(table.runId, table.stepIndex, table.assigneeId), index("workflow_tasks_assignee_idx").on(table.assigneeId, table.status)],
);

/** A run's timeline: what happened, when, by whom (null: the engine). */
export const workflowEvents = sqliteTable(
  "workflow_events",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => workflowRuns.id, { onDelete: "cascade" }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    kind: text("kind").notNull(),
    actorId: text("actor_id"),
    detail: text("detail"),
  },
  (table) => [index("workflow_events_run_idx").on(table.runId, table.at)],
);

/**
 * What a run's step made in another module and waits on (an envelope sent for signature): one per
 * step, so a step run again finds what it made instead of making it twice, and the other module's
 * outcome finds the run to tell.
 */
export const workflowLinks = sqliteTable(
  "workflow_links",
  {
    runId: text("run_id")
      .notNull()
      .references(() => workflowRuns.id, { onDelete: "cascade" }),
    stepIndex: integer("step_index").notNull(),
    kind: text("kind", { enum: ["envelope", "share", "form"] }).notNull(),
    refId: text("ref_id").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.stepIndex] }), uniqueIndex("workflow_links_ref_idx").on(table.kind, table.refId)],
);
