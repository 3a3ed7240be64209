import { z } from "zod";
import { caseFieldTypes, caseStatuses } from "~/db/schema";

/** Limits and checks of cases (issue 41). Shared by the server and the pages (no bindings). */
export const CASE_TYPE_FIELDS_MAX = 30;
export const CASE_TYPE_FOLDERS_MAX = 20;
export const CASE_TITLE_MAX = 200;
export const CASE_VALUE_MAX = 2_000;

export const CASE_STATUS_LABELS: Record<(typeof caseStatuses)[number], string> = { open: "Open", waiting: "Waiting", closed: "Closed" };

const label = (what: string, max = 100) => z.string({ error: `${what} is required.` }).trim().min(1, `${what} is required.`).max(max, `${what} is at most ${max} characters.`);
const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "A date is written YYYY-MM-DD.");

/** A field's key from its label: "Claim amount" → "claim_amount". */
export const fieldKey = (text: string) =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40) || "field";

export const caseFieldSchema = z
  .object({
    label: label("Each field's label", 80),
    type: z.enum(caseFieldTypes, { error: `A field is one of: ${caseFieldTypes.join(", ")}.` }),
    options: z.array(z.string().trim().min(1).max(80)).max(30, "A choice has at most 30 options.").default([]),
    required: z.boolean().default(false),
  })
  .refine((field) => field.type !== "select" || field.options.length >= 2, { message: "A choice field needs at least two options.", path: ["options"] })
  .transform((field) => ({ ...field, key: fieldKey(field.label), options: field.type === "select" ? field.options : [] }));

/** POST /api/case-types, and PATCH /api/case-types/{id} (the whole type again). */
export const createCaseTypeSchema = z
  .object({
    name: label("The case type's name"),
    description: z.string().trim().max(500, "A description is at most 500 characters.").default(""),
    fields: z.array(caseFieldSchema).max(CASE_TYPE_FIELDS_MAX, `A case type has at most ${CASE_TYPE_FIELDS_MAX} fields.`).default([]),
    folders: z
      .array(label("Each folder's name", 100))
      .max(CASE_TYPE_FOLDERS_MAX, `A case file starts with at most ${CASE_TYPE_FOLDERS_MAX} folders.`)
      .default([])
      .transform((names) => [...new Set(names)]),
    defaultWorkflowId: z.string().max(64).nullable().default(null),
  })
  .refine((type) => new Set(type.fields.map((field) => field.key)).size === type.fields.length, { message: "Two fields have the same label. Give each its own.", path: ["fields"] });

/** POST /api/cases: a case of a type, its values checked against the type's fields (cases.server.ts). */
export const openCaseSchema = z.object({
  typeId: z.string({ error: "Choose the case type." }).min(1, "Choose the case type.").max(64),
  title: label("The case's title", CASE_TITLE_MAX),
  values: z.record(z.string(), z.union([z.string().max(CASE_VALUE_MAX), z.number(), z.null()])).default({}),
  assignee: z.string().trim().max(320).nullable().default(null),
  dueDate: dateText.nullable().default(null),
  /** A data room the member manages: the case lives there (its case file at the top of the room). Null: in the member's own files. */
  roomId: z.string({ error: "roomId names a data room." }).min(1).max(64).nullable().default(null),
  /** A data room of the case's own, made for it under the member's plan (a room more): the whole room is the case file. */
  newRoom: z.boolean({ error: "newRoom is true or false." }).default(false),
}).refine((data) => !(data.newRoom && data.roomId), { message: "A case lives in one place: a data room you manage or a data room of its own, not both.", path: ["roomId"] });

/** PATCH /api/cases/{id}: what changes (anything left out stays as it is; null clears an assignee or a due date). */
export const updateCaseSchema = z.object({
  title: label("The case's title", CASE_TITLE_MAX).optional(),
  values: z.record(z.string(), z.union([z.string().max(CASE_VALUE_MAX), z.number(), z.null()])).optional(),
  assignee: z.string().trim().max(320).nullable().optional(),
  dueDate: dateText.nullable().optional(),
});

export const caseStatusSchema = z.object({ status: z.enum(caseStatuses, { error: "status is open, waiting or closed." }) });

export const addParticipantSchema = z.object({
  email: z.email("Enter the person's e-mail address, like name@example.com.").max(254).transform((email) => email.toLowerCase()),
  name: z.string().trim().max(120).default(""),
});

export const addCaseTaskSchema = z.object({
  kind: z.enum(["task", "milestone"], { error: "kind is task or milestone." }).default("task"),
  title: label("The task's title", 200),
  assignee: z.string().trim().max(320).nullable().default(null),
  dueDate: dateText.nullable().default(null),
});

export const caseListQuerySchema = z.object({
  type: z.string().max(64).optional().catch(undefined),
  status: z.enum([...caseStatuses, "all"]).optional().catch(undefined),
  assignee: z.enum(["me", "anyone", "nobody"]).optional().catch(undefined),
  due: z.enum(["overdue", "week", "any"]).optional().catch(undefined),
});
export type CaseListQuery = z.output<typeof caseListQuerySchema>;

/** A type's fields as the form's lines again (what `parseFieldLines` reads), to edit them. */
export function fieldLines(fields: readonly { label: string; type: string; options: readonly string[]; required: boolean }[]): string {
  return fields.map((field) => `${field.label}${field.required ? "*" : ""}${field.type === "text" ? "" : field.type === "select" ? `: choice: ${field.options.join(" | ")}` : `: ${field.type}`}`).join("\n");
}

/**
 * The case type form's field lines, one field per line: "Label", "Label: number", "Label: date",
 * "Label: choice: A | B | C"; a "*" after the label makes it required ("Claim amount*: number").
 * Anything the server refuses is named by its checks (createCaseTypeSchema).
 */
export function parseFieldLines(text: string): { label: string; type: string; options: string[]; required: boolean }[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [rawLabel = "", rawType = "text", ...rest] = line.split(":").map((part) => part.trim());
      const required = rawLabel.endsWith("*");
      const label = required ? rawLabel.slice(0, -1).trim() : rawLabel;
      const type = rawType.toLowerCase() === "choice" ? "select" : rawType.toLowerCase() || "text";
      const options = type === "select" ? rest.join(":").split("|").map((option) => option.trim()).filter(Boolean) : [];
      return { label, type, options, required };
    });
}

/** POST /api/cases/{id}/comments: a note in the case's timeline. */
export const CASE_COMMENT_MAX = 2_000;
export const caseCommentSchema = z.object({
  text: z.string({ error: "Write the comment (text)." }).trim().min(1, "Write the comment first.").max(CASE_COMMENT_MAX, `A comment is at most ${CASE_COMMENT_MAX.toLocaleString("en-US")} characters.`),
});

/** POST /api/cases/{id}/requests: one of the member's forms, or one of their receive pages, sent to someone for the case. */
export const sendCaseRequestSchema = z
  .object({
    formId: z.string({ error: "Choose the form to send." }).min(1, "Choose the form to send.").max(64).optional(),
    receivePageId: z.string({ error: "Choose the receive page to send." }).min(1, "Choose the receive page to send.").max(64).optional(),
    email: z.email("Enter the person's e-mail address, like name@example.com.").max(254).transform((email) => email.toLowerCase()),
    name: z.string().trim().max(120, "A name is at most 120 characters.").default(""),
    message: z.string({ error: "The message must be text." }).trim().max(1_000, "A message is at most 1,000 characters.").default(""),
  })
  .refine((data) => (data.formId === undefined) !== (data.receivePageId === undefined), { message: "Choose one form or one receive page to send.", path: ["formId"] });
