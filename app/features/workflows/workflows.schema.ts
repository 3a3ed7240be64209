import { z } from "zod";
import { metadataEntrySchema, tagSchema } from "~/features/files/organize.schema";
import { webhookUrlSchema } from "~/lib/webhooks";

/** The engine's event when someone decides a task (the runner waits for it; deciding sends it). */
export const DECISION_EVENT = "task-decided";
/** The engine's event when an envelope a sign step sent is completed, declined, voided or expired. */
export const ENVELOPE_EVENT = "envelope-finished";
/** The engine's event when the person a form step asked answers the form. */
export const FORM_EVENT = "form-answered";

/** The id of a run's timeline entry or derived row ("{run}:step-2-moved"): one per run and what, so a step run again writes it once. */
export const runEventId = (runId: string, what: string) => `${runId}:${what}`;

/**
 * A step's slot: where one pass through a step keeps its tasks, timeline entries and links. The
 * first pass is the step's index; each round after a send-back adds 1000, so a step taken again
 * starts afresh (new tasks, a new envelope) while the first round's stay as they were.
 */
export const SLOT_STRIDE = 1000;
export const slotOf = (index: number, round: number) => (round - 1) * SLOT_STRIDE + index;
/** The step's index in the template for a slot. */
export const stepIndexOfSlot = (slot: number) => slot % SLOT_STRIDE;

/** A due time in words: "1 day", "3 days", "5 hours". */
export const durationText = (hours: number) => (hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? "" : "s"}` : `${hours} hour${hours === 1 ? "" : "s"}`);

/** Limits of a workflow template (issue 41). */
export const WORKFLOW_NAME_MAX = 100;
export const WORKFLOW_STEPS_MAX = 20;
export const WORKFLOW_ASSIGNEES_MAX = 20;
/** The room roles an approval step in a data room's workflow may name: everyone with the role when the step starts. */
export const WORKFLOW_ROOM_ROLES = ["admin", "member", "guest"] as const;
export type WorkflowRoomRole = (typeof WORKFLOW_ROOM_ROLES)[number];
export const WORKFLOW_ROOM_ROLE_LABELS: Record<WorkflowRoomRole, string> = { admin: "the room's owner and admins", member: "the room's members", guest: "the room's guests" };
/** At most this many people get a task from a step's room roles (the first by when they joined). */
export const WORKFLOW_ROLE_PEOPLE_MAX = 100;
/** A step is due within a year at most (the engine waits up to 365 days for a decision). */
export const WORKFLOW_DUE_HOURS_MAX = 24 * 364;

/**
 * When a step runs: always, or only on one path (branching, forward only). A rejection ends the run
 * unless a later step is for the rejected path; then the run goes on along it (ending "rejected").
 */
export const STEP_WHEN = ["always", "approved", "rejected"] as const;
const stepWhen = z.enum(STEP_WHEN, { error: "when is always, approved or rejected." }).default("always");
const stepName = z.string({ error: "Each step needs a name." }).trim().min(1, "Each step needs a name.").max(100, "A step's name is at most 100 characters.");

/** An optional due time for a human step (an approval, a form to fill in); when it passes, the step's escalation happens once. */
const dueInHours = z
  .number({ error: "dueInHours is a number of hours." })
  .int("dueInHours is a whole number of hours.")
  .min(1, `A step is due in 1 to ${WORKFLOW_DUE_HOURS_MAX} hours.`)
  .max(WORKFLOW_DUE_HOURS_MAX, `A step is due in 1 to ${WORKFLOW_DUE_HOURS_MAX} hours.`)
  .nullable()
  .default(null);
/** What happens once when a human step is overdue; `to` is who takes it over (an approval: a member; a form: any address). */
const escalationOf = (to: z.ZodType<string>, what: string) =>
  z
    .discriminatedUnion(
      "action",
      [z.object({ action: z.literal("remind") }), z.object({ action: z.literal("reassign"), to }), z.object({ action: z.literal("approve") }), z.object({ action: z.literal("reject") })],
      { error: `escalation is remind, reassign (with to), ${what}.` },
    )
    .nullable()
    .default(null);
const hasDueForEscalation = (step: { dueInHours: number | null; escalation: unknown }) => step.escalation === null || step.dueInHours !== null;
const escalationNeedsDue = () => ({ message: "An escalation happens when a step is overdue: give it a due time (dueInHours).", path: ["dueInHours"] });
/** Overdue without an escalation chosen: the people are reminded. */
const remindByDefault = <T extends { dueInHours: number | null; escalation: unknown }>(step: T): T => (step.dueInHours !== null && step.escalation === null ? { ...step, escalation: { action: "remind" as const } } : step);

const approveStep = z
  .object({
    type: z.literal("approve"),
    name: stepName, when: stepWhen,
    assignees: z
      .array(z.string().min(1).max(64), { error: "An approval step names the people who approve." })
      .max(WORKFLOW_ASSIGNEES_MAX, `An approval step has at most ${WORKFLOW_ASSIGNEES_MAX} people.`)
      .transform((ids) => [...new Set(ids)]),
    /** In a data room's workflow: everyone in the room with these roles when the step starts ("admin" includes the owner). */
    roles: z
      .array(z.enum(WORKFLOW_ROOM_ROLES, { error: "roles are admin, member or guest." }), { error: "roles is a list of room roles." })
      .max(WORKFLOW_ROOM_ROLES.length)
      .default([])
      .transform((roles) => WORKFLOW_ROOM_ROLES.filter((role) => roles.includes(role))),
    mode: z.enum(["one", "all", "quorum"], { error: "mode is one (any of them), all, or quorum." }),
    quorumPercent: z.number().int().min(1, "A quorum is 1 to 100 percent.").max(100, "A quorum is 1 to 100 percent.").nullable().default(null),
    dueInHours,
    escalation: escalationOf(z.string({ error: "A reassignment names who takes the task over (to)." }).trim().min(1, "A reassignment names who takes the task over (to).").max(320), "approve or reject"),
  })
  .refine((step) => step.assignees.length + step.roles.length > 0, { message: "An approval step needs at least one person to approve.", path: ["assignees"] })
  .refine((step) => step.mode !== "quorum" || step.quorumPercent !== null, { message: "A quorum step says how many percent must approve (quorumPercent).", path: ["quorumPercent"] })
  .refine(hasDueForEscalation, escalationNeedsDue())
  .transform(remindByDefault);

const moveStep = z.object({ type: z.literal("move"), name: stepName, when: stepWhen, folderId: z.string({ error: "A move step names the folder (folderId)." }).min(1).max(64) });

/** Filed into a new case of one of the builder's case types (the document moves into its case file). */
const caseStep = z.object({ type: z.literal("case"), name: stepName, when: stepWhen, caseTypeId: z.string({ error: "A case step names the case type (caseTypeId)." }).min(1, "Choose the case type.").max(64) });

/** Sent for signature (the e-signature module): the people who sign, members or not. */
export const WORKFLOW_SIGNERS_MAX = 10;
const signStep = z
  .object({
    type: z.literal("sign"),
    name: stepName, when: stepWhen,
    signers: z
      .array(
        z.object({
          name: z.string({ error: "Each signer needs a name." }).trim().min(1, "Each signer needs a name.").max(120, "A signer's name is at most 120 characters."),
          email: z.email("Enter each signer's e-mail address, like name@example.com.").max(254).transform((email) => email.toLowerCase()),
        }),
        { error: "A sign step names its signers (signers: name and email)." },
      )
      .min(1, "A sign step needs at least one signer.")
      .max(WORKFLOW_SIGNERS_MAX, `A sign step has at most ${WORKFLOW_SIGNERS_MAX} signers.`),
    dueInHours,
    /** Overdue, the signers still to sign are reminded, or the envelope is voided and the step rejected (a signature cannot be handed on or assumed). */
    escalation: z
      .discriminatedUnion("action", [z.object({ action: z.literal("remind") }), z.object({ action: z.literal("reject") })], { error: "A sign step, when overdue, reminds its signers or ends rejected (escalation remind or reject)." })
      .nullable()
      .default(null),
  })
  .refine(hasDueForEscalation, escalationNeedsDue())
  .transform(remindByDefault);

/** Copied into a folder of the builder's own files (the copy stays there; later steps act on the original). */
const copyStep = z.object({ type: z.literal("copy"), name: stepName, when: stepWhen, folderId: z.string({ error: "A copy step names the folder (folderId)." }).min(1).max(64) });

/** Tags added to the documents (those they have stay). */
const tagStep = z.object({
  type: z.literal("tag"),
  name: stepName, when: stepWhen,
  tags: z.array(tagSchema, { error: "A tag step names its tags (tags)." }).min(1, "A tag step adds at least one tag.").max(10, "A tag step adds at most 10 tags.").transform((tags) => [...new Set(tags)]),
});

/** Metadata set on the documents (a key they have takes the new value; other keys stay). */
const metadataStep = z.object({
  type: z.literal("metadata"),
  name: stepName, when: stepWhen,
  entries: z.array(metadataEntrySchema, { error: "A metadata step names its fields (entries: key and value)." }).min(1, "A metadata step sets at least one field.").max(10, "A metadata step sets at most 10 fields."),
});

export const WORKFLOW_RECIPIENTS_MAX = 10;
const recipients = (what: string) =>
  z
    .array(z.email("Enter each address like name@example.com.").max(254).transform((email) => email.toLowerCase()), { error: `${what} names the addresses it goes to (to).` })
    .min(1, `${what} goes to at least one address.`)
    .max(WORKFLOW_RECIPIENTS_MAX, `${what} goes to at most ${WORKFLOW_RECIPIENTS_MAX} addresses.`)
    .transform((emails) => [...new Set(emails)]);
const message = z.string({ error: "The message must be text." }).trim().max(2_000, "A message is at most 2,000 characters.").default("");

/** An e-mail about the run (the workflow, the step and the document's name; never the document itself). */
const emailStep = z.object({
  type: z.literal("email"),
  name: stepName, when: stepWhen,
  to: recipients("An e-mail step"),
  subject: z.string({ error: "An e-mail step needs a subject." }).trim().min(1, "An e-mail step needs a subject.").max(150, "A subject is at most 150 characters."),
  message,
});

/** A share link on the run's document, e-mailed to the people named (the link's gates are the sharing module's). */
const shareStep = z.object({
  type: z.literal("share"),
  name: stepName, when: stepWhen,
  to: recipients("A share step"),
  expiresInDays: z.number({ error: "expiresInDays is a number of days." }).int("expiresInDays is a whole number of days.").min(1, "A link lasts 1 to 365 days.").max(365, "A link lasts 1 to 365 days.").nullable().default(null),
  allowDownload: z.boolean({ error: "allowDownload is true or false." }).default(false),
  message,
});

/**
 * Someone (a member or not) fills in one of the builder's forms; the run waits for their answer.
 * Overdue (an optional due time): remind them, ask someone else (their link is the step's too),
 * go on without the answer ("approve") or reject.
 */
const formStep = z
  .object({
    type: z.literal("form"),
    name: stepName,
    when: stepWhen,
    formId: z.string({ error: "A form step names the form (formId)." }).min(1, "Choose the form to fill in.").max(64),
    to: z.email("Enter the address of the person who fills in the form, like name@example.com.").max(254).transform((email) => email.toLowerCase()),
    dueInHours,
    escalation: escalationOf(z.email("Enter the address of the person who is asked instead, like name@example.com.").max(254).transform((email) => email.toLowerCase()), "approve (go on without the answer) or reject"),
  })
  .refine(hasDueForEscalation, escalationNeedsDue())
  .transform(remindByDefault);

/** A signed POST to an address the builder controls, like a form's webhooks. */
const webhookStep = z.object({ type: z.literal("webhook"), name: stepName, when: stepWhen, url: webhookUrlSchema });

/**
 * What starts a run: by hand on a document (manual), every file uploaded into a folder, every
 * document the builder sent for signature once everyone signed (envelope), every submission of one
 * of their forms (form) or of one of their receive pages (receive).
 */
const triggerSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("manual") }),
    z.object({ type: z.literal("upload"), folderId: z.string({ error: "An upload trigger names its folder (folderId)." }).min(1, "Choose the folder whose new files start a run.").max(64) }),
    z.object({ type: z.literal("envelope") }),
    z.object({ type: z.literal("form"), formId: z.string({ error: "A form trigger names its form (formId)." }).min(1, "Choose the form whose submissions start a run.").max(64) }),
    z.object({
      type: z.literal("schedule"),
      folderId: z.string({ error: "A schedule names the folder whose documents it starts runs on (folderId)." }).min(1, "Choose the folder whose documents are reviewed.").max(64),
      everyDays: z.number({ error: "everyDays is a number of days." }).int("everyDays is a whole number of days.").min(1, "A schedule repeats every 1 to 365 days.").max(365, "A schedule repeats every 1 to 365 days."),
    }),
    z.object({ type: z.literal("receive"), pageId: z.string({ error: "A receive page trigger names its page (pageId)." }).min(1, "Choose the receive page whose submissions start a run.").max(64) }),
  ],
  { error: "trigger is manual, upload (with folderId), envelope, form (with formId), receive (with pageId) or schedule (with folderId and everyDays)." },
);

/** Sent back at most this many times by one step (then the run goes on past it). */
export const WORKFLOW_BACK_TIMES_MAX = 5;
/**
 * Back to an earlier step (a loop): typically "only when rejected", so a rejected contract goes back
 * to its drafting step and round again. `to` is the step's number (1 is the first); after `times`
 * rounds the run goes on past it.
 */
const backStep = z.object({
  type: z.literal("back"),
  name: stepName,
  when: stepWhen,
  to: z.number({ error: "A send-back step names the step it goes back to (to: its number)." }).int("to is a step's number.").min(1, "to is a step's number."),
  times: z
    .number({ error: "times is how many times it sends back." })
    .int("times is a whole number.")
    .min(1, `A send-back step sends back 1 to ${WORKFLOW_BACK_TIMES_MAX} times.`)
    .max(WORKFLOW_BACK_TIMES_MAX, `A send-back step sends back 1 to ${WORKFLOW_BACK_TIMES_MAX} times.`),
});

/** POST /api/workflows: a template, what starts it, its ordered steps. */
export const createWorkflowSchema = z.object({
  trigger: triggerSchema.default({ type: "manual" }),
  name: z.string({ error: "Give the workflow a name." }).trim().min(1, "Give the workflow a name.").max(WORKFLOW_NAME_MAX, `A workflow's name is at most ${WORKFLOW_NAME_MAX} characters.`),
  steps: z
    .array(z.discriminatedUnion("type", [approveStep, formStep, moveStep, signStep, caseStep, copyStep, tagStep, metadataStep, emailStep, shareStep, webhookStep, backStep], { error: "A step is approve, form, sign, move, copy, tag, metadata, email, share, webhook, case or back." }), {
      error: "steps is the list of the workflow's steps.",
    })
    .min(1, "A workflow needs at least one step.")
    .max(WORKFLOW_STEPS_MAX, `A workflow has at most ${WORKFLOW_STEPS_MAX} steps.`)
    .superRefine((steps, context) => {
      // A path exists once a step before has decided (an approval or a signature).
      // A form step decides too when it is overdue and its escalation takes a path.
      const decides = (step: (typeof steps)[number]) => step.type === "approve" || step.type === "sign" || (step.type === "form" && (step.escalation?.action === "approve" || step.escalation?.action === "reject"));
      steps.forEach((step, index) => {
        if (step.type === "back" && step.to > index) context.addIssue({ code: "custom", path: [index, "to"], message: `“${step.name}” goes back to step ${step.to}: choose a step before it (1 to ${index}).` });
        if (step.type === "back" && steps.slice(step.to - 1, index).every((earlier) => !decides(earlier))) {
          context.addIssue({ code: "custom", path: [index, "to"], message: `“${step.name}” would go round without anyone deciding: send it back to an approval, a signature or a form, or to a step before one.` });
        }
        if (step.when === "always" || steps.slice(0, index).some(decides)) return;
        context.addIssue({ code: "custom", path: [index, "when"], message: `“${step.name}” runs only when ${step.when}, but no step before it decides: put an approval or a signature before it.` });
      });
    }),
});

export const decideTaskSchema = z.object({
  decision: z.enum(["approve", "reject"], { error: "decision is approve or reject." }),
  comment: z.string({ error: "The comment must be text." }).trim().max(2_000, "A comment is at most 2,000 characters.").nullable().default(null),
});
