import { checkFeature as hasFeature } from "~/features/access/access-check";
import { loadMemberAccess, requireFeature } from "~/features/access/access.server";
import { requireFileAccess, requireFolderAccess } from "~/features/files/spaces.server";
import { findIsDataroomSpace, findSpaceKind, listSpaceTeams } from "~/features/files/space-role.queries.server";
import { workspaceFilter } from "~/features/teams/workspace.server";
import { findCaseType, findFormSubmissionForCase, findReceiveSubmissionForCase } from "~/features/cases/cases.queries.server";
import { signaturesAccess } from "~/features/signatures/envelopes.server";
import type { WorkflowStepDefinition } from "~/db/schema";
import { encryptSecret } from "~/features/auth/secrets.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import { newWebhookSecret } from "~/lib/webhooks.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { createWorkflowSchema, DECISION_EVENT, decideTaskSchema, SLOT_STRIDE, stepIndexOfSlot } from "./workflows.schema";
import { auditRun, builderStillManages, mayRunWorkflow, workflowsFor, workflowSpace, type WorkflowSpace } from "./workflow-room.server";
import { tellRun } from "./run-events.jobs";
import {
  countExistingUsers,
  decideOpenTask,
  endRun,
  findEnvelopeForTrigger,
  findLinkByRef,
  findLiveFile,
  findRun,
  findRunByTrigger,
  findUsersByEmails,
  findTask,
  findTemplate,
  insertRun,
  insertTemplate,
  listOpenTasksOf,
  listRunEvents,
  listTasksOfIn,
  listLiveFilesIn,
  listEnvelopeTriggered,
  listLiveFilesInFolder,
  listRunningSubjects,
  listScheduledTemplates,
  listSourceTriggered,
  listTriggerSources,
  type TriggerSource,
  listUploadTriggered,
  type WorkflowRunRow,
  type WorkflowTemplateRow,
} from "./workflows.queries.server";

/**
 * Workflows, the members' side (issue 41, step 1): build a template of ordered steps (approve by
 * one, all or a quorum; move the document to a folder), start a run on a document, decide a task,
 * cancel a run. Every state change of a run goes through here or through the engine's steps
 * (workflow-engine.server.ts), never around them. Workflows are a Business feature
 * (`workflows`, docs/plans.md), checked on the server at every entry point.
 */

/** A step's name for a task or a run's slot (a step taken again after a send-back is the same step). */
const stepName = (steps: WorkflowTemplateRow["definition"]["steps"], slot: number) => steps[stepIndexOfSlot(slot)]?.name ?? `Step ${stepIndexOfSlot(slot) + 1}`;
const templateNotFound = () => new AppError("NOT_FOUND", "This workflow does not exist or you don't have access to it.");
const runNotFound = () => new AppError("NOT_FOUND", "This workflow run does not exist or you don't have access to it.");
const taskNotFound = () => new AppError("NOT_FOUND", "This task does not exist or is not yours.");

/** Workflows and cases are the Business plan's (`workflows`): every entry point of both modules checks it here. */
export async function requireWorkflows(ctx: ServiceContext, userId: string): Promise<void> {
  requireFeature(await loadMemberAccess(ctx, userId), "workflows");
}

export type WorkflowTrigger =
  | { type: "manual" }
  | { type: "upload"; folderId: string }
  | { type: "envelope" }
  | { type: "form"; formId: string }
  | { type: "receive"; pageId: string }
  | { type: "schedule"; folderId: string; everyDays: number };
function triggerOf(row: WorkflowTemplateRow): WorkflowTrigger {
  if (row.triggerKind === "upload" && row.triggerFolderId) return { type: "upload", folderId: row.triggerFolderId };
  if (row.triggerKind === "schedule" && row.triggerFolderId) return { type: "schedule", folderId: row.triggerFolderId, everyDays: row.definition.schedule?.everyDays ?? 1 };
  if (row.triggerKind === "form" && row.triggerSourceId) return { type: "form", formId: row.triggerSourceId };
  if (row.triggerKind === "receive" && row.triggerSourceId) return { type: "receive", pageId: row.triggerSourceId };
  return row.triggerKind === "envelope" ? { type: "envelope" } : { type: "manual" };
}
/** A template's steps as they leave the server: a webhook step's sealed secret stays in (the builder reads the secret on the workflow's page). */
export const stepsShown = (steps: WorkflowStepDefinition[]) => steps.map((step) => (step.type === "webhook" ? { type: step.type, name: step.name, url: step.url } : step));
/** `mine`: the caller built it (only their own become a case type's default); `inRoom`: it works in a data room, not in the caller's own files. */
export type WorkflowView = { id: string; name: string; steps: ReturnType<typeof stepsShown>; trigger: WorkflowTrigger; createdAt: string; mine: boolean; inRoom: boolean };
const viewOf = (row: WorkflowTemplateRow, userId: string, inRoom: boolean): WorkflowView => ({
  id: row.id,
  name: row.name,
  steps: stepsShown(row.definition.steps),
  trigger: triggerOf(row),
  createdAt: row.createdAt.toISOString(),
  mine: row.createdBy === userId,
  inRoom,
});

/**
 * The people of the approval steps as member ids: each entry is a member's id or e-mail address
 * (what the builder's page sends). Someone without an account cannot approve: the builder is told
 * which address to invite first.
 */
async function resolveAssignees(ctx: ServiceContext, entries: readonly string[]): Promise<Map<string, string>> {
  const emails = [...new Set(entries.filter((entry) => entry.includes("@")).map((entry) => entry.trim().toLowerCase()))];
  const ids = [...new Set(entries.filter((entry) => !entry.includes("@")))];
  const byEmail = new Map((await findUsersByEmails(ctx.db, emails)).map((row) => [row.email, row.id]));
  const unknownEmail = emails.find((email) => !byEmail.has(email));
  if (unknownEmail) throw new AppError("VALIDATION_ERROR", `steps: ${unknownEmail} is not a Strongroom member yet. Invite them first, then ask them to approve.`);
  if ((await countExistingUsers(ctx.db, ids)) !== ids.length) throw new AppError("VALIDATION_ERROR", "steps: Someone asked to approve is not a Strongroom member. Choose people from your contacts.");
  const resolved = new Map(ids.map((id) => [id, id]));
  for (const entry of entries) if (entry.includes("@")) resolved.set(entry, byEmail.get(entry.trim().toLowerCase())!);
  return resolved;
}

/** A folder of the space the workflow works in (the builder's own files, or its data room) that the builder may edit: a move's or a copy's target. */
async function requireWorkflowFolder(ctx: ServiceContext, userId: string, space: WorkflowSpace, folderId: string, what: string): Promise<void> {
  const folder = await requireFolderAccess(ctx, userId, folderId, "files.edit");
  if (folder.spaceId === space.id) return;
  if (space.isRoom) throw new AppError("VALIDATION_ERROR", `${what} is outside the data room this workflow works in: its documents stay in the room. Choose one of the room's folders.`);
  if (space.isTeamDrive) throw new AppError("VALIDATION_ERROR", `${what} is outside the team's files this workflow works in: its documents stay the team's. Choose one of the team's folders.`);
  throw new AppError("VALIDATION_ERROR", `${what} is outside your own files. Choose one of your folders.`);
}

/** POST /api/workflows: a template in the member's own files or in a data room they manage (its trigger's folder, or where its form or page files); its people must be members, its folders theirs to edit. */
export async function createWorkflow(ctx: ServiceContext, userId: string, input: unknown): Promise<WorkflowView> {
  await requireWorkflows(ctx, userId);
  const data = parseInput(createWorkflowSchema, input);
  // Forms and receive pages a step or the trigger names must be the builder's (read once, when any is named).
  const formSteps = data.steps.filter((step) => step.type === "form");
  const trigger = data.trigger;
  let source: TriggerSource | undefined;
  if (formSteps.length > 0 || trigger.type === "form" || trigger.type === "receive") {
    const sources = await listTriggerSources(ctx.db, userId);
    const isOwnForm = (formId: string) => sources.forms.some((form) => form.id === formId);
    for (const step of formSteps) if (!isOwnForm(step.formId)) throw new AppError("VALIDATION_ERROR", `steps: “${step.name}” asks for a form that is not yours. Choose one of your forms.`);
    source = trigger.type === "form" ? sources.forms.find((form) => form.id === trigger.formId) : trigger.type === "receive" ? sources.pages.find((page) => page.id === trigger.pageId) : undefined;
    if ((trigger.type === "form" || trigger.type === "receive") && !source) throw new AppError("VALIDATION_ERROR", trigger.type === "form" ? "trigger: Choose one of your forms." : "trigger: Choose one of your receive pages.");
  }
  const space = await workflowSpace(ctx, userId, { folderId: "folderId" in trigger ? trigger.folderId : undefined, deliversInto: source?.spaceId });
  const people = await resolveAssignees(
    ctx,
    data.steps.flatMap((step) => (step.type === "approve" ? [...step.assignees, ...(step.escalation?.action === "reassign" ? [step.escalation.to] : [])] : [])),
  );
  // A sign step sends through the e-signature module, as the builder: their plan must include it.
  if (data.steps.some((step) => step.type === "sign") || data.trigger.type === "envelope") await signaturesAccess(ctx, userId);
  for (const step of data.steps) if (step.type === "move") await requireWorkflowFolder(ctx, userId, space, step.folderId, `steps: “${step.name}” moves into a folder that`);
  for (const step of data.steps) if (step.type === "copy") await requireWorkflowFolder(ctx, userId, space, step.folderId, `steps: “${step.name}” copies into a folder that`);
  for (const step of data.steps) {
    if (step.type === "approve" && step.roles.length > 0 && !space.isRoom) throw new AppError("VALIDATION_ERROR", `steps: “${step.name}” asks everyone with a room role, and this workflow does not work in a data room. Name the people instead, or start it from a room's folder.`);
    if (step.type !== "case") continue;
    const type = await findCaseType(ctx.db, step.caseTypeId);
    if (!type || type.createdBy !== userId) throw new AppError("VALIDATION_ERROR", `steps: “${step.name}” files into a case type that is not yours. Choose one of your case types.`);
  }
  // Each webhook step signs with its own secret, kept sealed; the builder reads it on the workflow's page.
  const appSecret = readConfig(ctx.env).SESSION_SECRET;
  const steps: WorkflowStepDefinition[] = await Promise.all(
    data.steps.map(async (step) =>
      step.type === "approve"
        ? {
            ...step,
            assignees: [...new Set(step.assignees.map((entry) => people.get(entry)!))],
            quorumPercent: step.mode === "quorum" ? step.quorumPercent : null,
            escalation: step.escalation?.action === "reassign" ? { action: "reassign" as const, to: people.get(step.escalation.to)! } : step.escalation,
          }
        : step.type === "webhook"
          ? { ...step, secretSealed: await encryptSecret(appSecret, new TextEncoder().encode(newWebhookSecret()), "workflow-webhook") }
          : step,
    ),
  );
  const now = ctx.now();
  const row: WorkflowTemplateRow = {
    id: crypto.randomUUID(),
    spaceId: space.id,
    name: data.name,
    definition: data.trigger.type === "schedule" ? { steps, schedule: { everyDays: data.trigger.everyDays } } : { steps },
    triggerKind: data.trigger.type,
    triggerFolderId: data.trigger.type === "upload" || data.trigger.type === "schedule" ? data.trigger.folderId : null,
    triggerSourceId: data.trigger.type === "form" ? data.trigger.formId : data.trigger.type === "receive" ? data.trigger.pageId : null,
    createdBy: userId,
    createdAt: now,
    updatedAt: now,
  };
  await insertTemplate(ctx.db, row);
  return viewOf(row, userId, space.isRoom);
}

/** GET /api/workflows[?workspace=personal|{teamId}]: the workflows the caller built and those of the data rooms they manage and team drives they own, newest first (the plan is checked: lower tiers are refused). */
export async function listWorkflows(ctx: ServiceContext, userId: string, workspace?: string | null): Promise<WorkflowView[]> {
  await requireWorkflows(ctx, userId);
  const templates = await workflowsFor(ctx, userId);
  const [spaces, inWorkspace] = await Promise.all([listSpaceTeams(ctx.db, templates.map((row) => row.spaceId)), workspace === undefined ? null : workspaceFilter(ctx, userId, workspace)]);
  return templates.filter((row) => !inWorkspace || inWorkspace(spaces.get(row.spaceId)?.teamId ?? null)).map((row) => viewOf(row, userId, spaces.get(row.spaceId)?.kind === "dataroom"));
}

/** The template, if the caller built it or manages the data room it works in (404 otherwise). */
async function requireRunnableTemplate(ctx: ServiceContext, userId: string, templateId: unknown): Promise<WorkflowTemplateRow> {
  const template = typeof templateId === "string" && templateId.length <= 64 ? await findTemplate(ctx.db, templateId) : undefined;
  if (!template || !(await mayRunWorkflow(ctx, userId, template))) throw templateNotFound();
  return template;
}

/** Where a workflow's documents must be, in words, for a refusal. */
async function whereItRuns(ctx: ServiceContext, template: WorkflowTemplateRow): Promise<string> {
  const kind = await findSpaceKind(ctx.db, template.spaceId);
  return kind === "dataroom" ? "its data room" : kind === "team" ? "the team's files" : "your own files";
}

/** `stepIndex`: the template's step the run is at; `round`: 1, or more once a send-back step took it round again. */
export type RunView = { id: string; templateId: string; status: WorkflowRunRow["status"]; stepIndex: number; round: number; subjectFileId: string | null; startedAt: string; endedAt: string | null };
const runViewOf = (run: WorkflowRunRow): RunView => ({
  id: run.id,
  templateId: run.templateId,
  status: run.status,
  stepIndex: stepIndexOfSlot(run.stepIndex),
  round: Math.floor(run.stepIndex / SLOT_STRIDE) + 1,
  subjectFileId: run.subjectFileId,
  startedAt: run.startedAt.toISOString(),
  endedAt: run.endedAt?.toISOString() ?? null,
});

/** POST /api/workflows/{id}/runs { fileId }: starts one run of the caller's workflow on a document of its space. */
export async function startRun(ctx: ServiceContext, userId: string, templateId: unknown, input: { fileId?: unknown }): Promise<RunView> {
  const template = await requireRunnableTemplate(ctx, userId, templateId);
  await requireWorkflows(ctx, userId);
  if (typeof input.fileId !== "string" || input.fileId.length > 64) throw new AppError("VALIDATION_ERROR", "fileId: Choose the document the workflow runs on.");
  const { file } = await requireFileAccess(ctx, userId, input.fileId, "files.view");
  if (file.spaceId !== template.spaceId) throw new AppError("VALIDATION_ERROR", `fileId: This workflow runs on documents in ${await whereItRuns(ctx, template)}.`);
  return runViewOf(await beginRun(ctx, template, documentSubject(file), { startedBy: userId, triggerKind: "manual", triggerRef: null }));
}

/** At most this many documents are started on at once from a selection. */
export const SELECTION_MAX = 50;

/**
 * "Start a workflow" on a selection of documents (the file manager): one run per document, each
 * checked like a run by hand. The page's one-time key makes a second press (or a resent form)
 * start nothing more: each run's trigger is the key and the document.
 */
export async function startRunsOnSelection(ctx: ServiceContext, userId: string, templateId: unknown, input: { fileIds?: unknown; key?: unknown }): Promise<{ started: number; workflowId: string }> {
  const template = await requireRunnableTemplate(ctx, userId, templateId);
  await requireWorkflows(ctx, userId);
  const fileIds = Array.isArray(input.fileIds) ? [...new Set(input.fileIds.filter((id): id is string => typeof id === "string" && id.length > 0 && id.length <= 64))] : [];
  if (fileIds.length === 0) throw new AppError("VALIDATION_ERROR", "fileIds: Choose at least one document.");
  if (fileIds.length > SELECTION_MAX) throw new AppError("VALIDATION_ERROR", `fileIds: Start on at most ${SELECTION_MAX} documents at once.`);
  if (typeof input.key !== "string" || !/^[A-Za-z0-9-]{8,64}$/.test(input.key)) throw new AppError("VALIDATION_ERROR", "The page is out of date. Reload it and try again.");
  const files = [];
  for (const fileId of fileIds) {
    const { file } = await requireFileAccess(ctx, userId, fileId, "files.view");
    if (file.spaceId !== template.spaceId) throw new AppError("VALIDATION_ERROR", `fileIds: “${file.name}” is not in ${await whereItRuns(ctx, template)}; this workflow runs on documents there.`);
    files.push(file);
  }
  for (const file of files) await beginRun(ctx, template, documentSubject(file), { startedBy: userId, triggerKind: "manual", triggerRef: `${input.key}:${file.id}` });
  return { started: files.length, workflowId: template.id };
}

/** What a run is about: a document, or a submission with the documents it brought (its first PDF, else its first file, is the one a sign step sends). */
type RunSubject = { fileId: string | null; submissionId: string | null; label: string };
const documentSubject = (file: { id: string; name: string }): RunSubject => ({ fileId: file.id, submissionId: null, label: `“${file.name}”` });

/**
 * Writes a run and starts its engine instance (same id). A triggered run is written once per
 * trigger (`triggerRef`): delivered again, the run already written is returned and its instance
 * made sure of, so a trigger starts exactly one run.
 */
async function beginRun(
  ctx: ServiceContext,
  template: WorkflowTemplateRow,
  subject: RunSubject,
  start: { startedBy: string | null; triggerKind: WorkflowTemplateRow["triggerKind"]; triggerRef: string | null },
): Promise<WorkflowRunRow> {
  const now = ctx.now();
  const id = crypto.randomUUID();
  const fresh: WorkflowRunRow = {
    id,
    templateId: template.id,
    spaceId: template.spaceId,
    subjectFileId: subject.fileId,
    subjectSubmissionId: subject.submissionId,
    status: "running",
    stepIndex: 0,
    startedBy: start.startedBy,
    startedAt: now,
    endedAt: null,
    triggerKind: start.triggerKind,
    triggerRef: start.triggerRef,
    caseId: null,
  };
  const how = { upload: " (uploaded into its folder)", envelope: " (signed by everyone)", form: "", receive: "", manual: "", schedule: " (on schedule)" }[start.triggerKind];
  const isNew = await insertRun(ctx.db, fresh, { id: `${id}:run-started`, runId: id, at: now, kind: "run.started", actorId: start.startedBy, detail: `${template.name} on ${subject.label}${how}` });
  const run = isNew ? fresh : start.triggerRef ? await findRunByTrigger(ctx.db, template.id, start.triggerRef) : undefined;
  if (!run) throw new AppError("CONFLICT", "The workflow run could not be recorded. Please try again.");
  if (isNew) await auditRun(ctx, template.spaceId, start.startedBy, { action: "workflow.start", target: subject.fileId ? { type: "file", id: subject.fileId, name: subject.label.slice(1, -1) } : undefined, detail: `${template.name}${how}` });
  // Delivered again: the instance exists already, unless the first delivery failed before making it.
  if (!isNew && (await instanceExists(ctx, run.id))) return run;
  await ctx.env.WORKFLOW_RUNS.create({ id: run.id, params: { runId: run.id } });
  return run;
}

async function instanceExists(ctx: ServiceContext, runId: string): Promise<boolean> {
  try {
    await ctx.env.WORKFLOW_RUNS.get(runId);
    return true;
  } catch {
    return false;
  }
}

/** A triggered run starts only while its workflow's builder is still there and still has the plan (workflows act with their rights). */
async function builderMayStart(ctx: ServiceContext, template: WorkflowTemplateRow): Promise<boolean> {
  return template.createdBy !== null && hasFeature(await loadMemberAccess(ctx, template.createdBy), "workflows") && (await builderStillManages(ctx, template));
}

/**
 * A file finished uploading into a folder: each workflow triggered by uploads there starts one run
 * on it (the upload's id is the trigger, so a second delivery starts nothing). A workflow whose
 * builder lost the plan, or whose folder moved out of its space, starts nothing (logged).
 */
export async function startRunsForUpload(ctx: ServiceContext, upload: { uploadId: string; fileId: string; folderId: string; uploadedBy: string }): Promise<number> {
  const templates = await listUploadTriggered(ctx.db, upload.folderId);
  const file = templates.length > 0 ? await findLiveFile(ctx.db, upload.fileId) : undefined;
  let started = 0;
  for (const template of templates) {
    if (!file || file.spaceId !== template.spaceId || !(await builderMayStart(ctx, template))) {
      ctx.logger.info("workflows.trigger_skipped", { templateId: template.id, fileId: upload.fileId });
      continue;
    }
    await beginRun(ctx, template, documentSubject(file), { startedBy: upload.uploadedBy, triggerKind: "upload", triggerRef: upload.uploadId });
    started += 1;
  }
  return started;
}

/**
 * A document the builder sent for signature was signed by everyone: each of their workflows
 * triggered by that starts one run on the signed copy (the envelope's id is the trigger). An
 * envelope a workflow's sign step sent starts nothing (a workflow never starts itself).
 */
export async function startRunsForEnvelope(ctx: ServiceContext, envelopeId: string): Promise<number> {
  const envelope = await findEnvelopeForTrigger(ctx.db, envelopeId);
  if (!envelope || envelope.status !== "completed" || !envelope.sealedFileId) return 0;
  if (await findLinkByRef(ctx.db, "envelope", envelopeId)) return 0;
  const file = await findLiveFile(ctx.db, envelope.sealedFileId);
  if (!file) return 0;
  let started = 0;
  for (const template of await listEnvelopeTriggered(ctx.db, file.spaceId)) {
    if (template.createdBy !== envelope.userId || !(await builderMayStart(ctx, template))) continue;
    await beginRun(ctx, template, documentSubject(file), { startedBy: envelope.userId, triggerKind: "envelope", triggerRef: envelopeId });
    started += 1;
  }
  return started;
}

export type SubmissionKind = "form" | "receive";
/** A submission as workflows see it: whose form or page, which, a label, whether it is a test, the files it brought (ids, as delivered). */
type SubmissionFacts = { ownerId: string; sourceId: string; label: string; title: string; isTest: boolean; fileIds: string[] };

export async function readSubmission(ctx: ServiceContext, kind: SubmissionKind, submissionId: string): Promise<SubmissionFacts | null> {
  if (kind === "form") {
    const found = await findFormSubmissionForCase(ctx.db, submissionId);
    if (!found) return null;
    const who = (typeof found.answers.name === "string" && found.answers.name.trim() ? found.answers.name.trim() : null) ?? found.verifiedEmail ?? "Someone";
    return { ownerId: found.ownerId, sourceId: found.formId, label: `${who}'s answers to “${found.formTitle}”`, title: `${who}: ${found.formTitle}`.slice(0, 200), isTest: found.isTest, fileIds: found.files.flatMap((file) => (file.fileId ? [file.fileId] : [])) };
  }
  const found = await findReceiveSubmissionForCase(ctx.db, submissionId);
  if (!found?.pageId) return null;
  const who = found.uploaderName ?? found.uploaderEmail ?? "Someone";
  return { ownerId: found.ownerId, sourceId: found.pageId, label: `the files ${who} sent through “${found.pageTitle}”`, title: `${who}: ${found.pageTitle}`.slice(0, 200), isTest: false, fileIds: found.delivered.map((file) => file.fileId) };
}

/** The documents among these ids that are live in a space (a submission's files in a data room's folder stay out of a personal workflow), in the order given. */
export async function liveDocumentsIn(ctx: ServiceContext, spaceId: string, fileIds: readonly string[]): Promise<{ id: string; name: string; contentType: string }[]> {
  const byId = new Map((await listLiveFilesIn(ctx.db, spaceId, fileIds)).map((file) => [file.id, file]));
  return fileIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/**
 * A form was submitted, or files arrived through a receive page: each workflow of its owner
 * started by that form or page starts one run about the submission (its id is the trigger, so a
 * second delivery starts nothing). The run's documents are the files it brought into the owner's
 * own files; a sign step sends the first PDF among them. Test submissions start nothing; a
 * workflow whose builder lost the plan starts nothing (logged).
 */
export async function startRunsForSubmission(ctx: ServiceContext, kind: SubmissionKind, submissionId: string): Promise<number> {
  const submission = await readSubmission(ctx, kind, submissionId);
  if (!submission || submission.isTest) return 0;
  const templates = await listSourceTriggered(ctx.db, kind, submission.sourceId);
  let started = 0;
  for (const template of templates) {
    if (template.createdBy !== submission.ownerId || !(await builderMayStart(ctx, template))) {
      ctx.logger.info("workflows.trigger_skipped", { templateId: template.id, submissionId });
      continue;
    }
    const documents = await liveDocumentsIn(ctx, template.spaceId, submission.fileIds);
    const main = documents.find((file) => file.contentType === "application/pdf") ?? documents[0] ?? null;
    await beginRun(ctx, template, { fileId: main?.id ?? null, submissionId, label: submission.label }, { startedBy: null, triggerKind: kind, triggerRef: `${kind}:${submissionId}` });
    started += 1;
  }
  return started;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Documents a scheduled workflow starts on at most per day (the newest first); more wait for the next time. */
export const SCHEDULED_DOCUMENTS_MAX = 200;

/** Whether a scheduled workflow is due on a day (UTC): every so many days after the day it was made. */
export function isScheduledOn(template: Pick<WorkflowTemplateRow, "createdAt" | "definition">, day: Date): boolean {
  const every = template.definition.schedule?.everyDays ?? 1;
  const days = Math.floor(day.getTime() / DAY_MS) - Math.floor(template.createdAt.getTime() / DAY_MS);
  return days > 0 && days % every === 0;
}

/**
 * The morning's schedule (the 07:00 cron, by a job): each scheduled workflow due that day starts
 * one run on each document of its folder (not its subfolders), unless the document's last run of
 * it is still going. The day and the document are the trigger, so the job delivered twice starts
 * nothing more. A workflow whose builder lost the plan starts nothing (logged).
 */
export async function startScheduledRuns(ctx: ServiceContext, day: Date): Promise<number> {
  const dayKey = day.toISOString().slice(0, 10);
  let started = 0;
  for (const template of await listScheduledTemplates(ctx.db)) {
    if (!template.triggerFolderId || !isScheduledOn(template, day)) continue;
    if (!(await builderMayStart(ctx, template))) {
      ctx.logger.info("workflows.trigger_skipped", { templateId: template.id, dayKey });
      continue;
    }
    const busy = new Set(await listRunningSubjects(ctx.db, template.id));
    for (const file of await listLiveFilesInFolder(ctx.db, template.spaceId, template.triggerFolderId, SCHEDULED_DOCUMENTS_MAX)) {
      const triggerRef = `schedule:${dayKey}:${file.id}`;
      if (busy.has(file.id) && !(await findRunByTrigger(ctx.db, template.id, triggerRef))) continue;
      await beginRun(ctx, template, documentSubject(file), { startedBy: null, triggerKind: "schedule", triggerRef });
      started += 1;
    }
  }
  return started;
}

/** Whether a form or a receive page starts workflows (one indexed read per submission, so the job is only queued when one does). */
export async function sourceHasTriggers(ctx: ServiceContext, kind: SubmissionKind, sourceId: string): Promise<boolean> {
  return (await listSourceTriggered(ctx.db, kind, sourceId)).length > 0;
}

/** Whether a member's space has workflows started by completed envelopes (one indexed read, so the job is only queued when one does). */
export async function spaceHasEnvelopeTriggers(ctx: ServiceContext, spaceId: string): Promise<boolean> {
  return (await listEnvelopeTriggered(ctx.db, spaceId)).length > 0;
}

/** Whether a folder starts workflows (one indexed read on every upload, so the job is only queued when one does). */
export async function folderHasUploadTriggers(ctx: ServiceContext, folderId: string): Promise<boolean> {
  return (await listUploadTriggered(ctx.db, folderId)).length > 0;
}

/** The run (404 if there is none) and whether the caller manages it: started it, built its workflow, or manages the data room it works in. */
async function requireVisibleRun(ctx: ServiceContext, userId: string, runId: unknown): Promise<{ run: WorkflowRunRow; template: WorkflowTemplateRow; isManager: boolean }> {
  const run = typeof runId === "string" && runId.length <= 64 ? await findRun(ctx.db, runId) : undefined;
  if (!run) throw runNotFound();
  const template = (await findTemplate(ctx.db, run.templateId))!;
  const isManager = run.startedBy === userId || (await mayRunWorkflow(ctx, userId, template));
  return { run, template, isManager };
}

/** POST /api/workflow-tasks/{id}/decision { decision, comment }: the assignee approves or rejects; the engine is told. */
export async function decideTask(ctx: ServiceContext, userId: string, taskId: unknown, input: unknown): Promise<{ status: "approved" | "rejected" }> {
  const task = typeof taskId === "string" && taskId.length <= 64 ? await findTask(ctx.db, taskId) : undefined;
  if (!task || task.assigneeId !== userId) throw taskNotFound();
  const data = parseInput(decideTaskSchema, input);
  const run = await findRun(ctx.db, task.runId);
  if (!run || run.status !== "running") throw new AppError("CONFLICT", "This workflow run has ended: the task needs nothing more from you.");
  const status = data.decision === "approve" ? "approved" : "rejected";
  const now = ctx.now();
  const decided = await decideOpenTask(ctx.db, task.id, { status, comment: data.comment, at: now }, { id: crypto.randomUUID(), runId: run.id, at: now, kind: `task.${status}`, actorId: userId, detail: data.comment });
  if (!decided) throw new AppError("CONFLICT", "This task was already decided, or its step ended without it.");
  await auditRun(ctx, run.spaceId, userId, async () => {
    const template = await findTemplate(ctx.db, run.templateId);
    const step = template ? stepName(template.definition.steps, task.stepIndex) : "A step";
    return { action: "workflow.decide", target: run.subjectFileId ? { type: "file", id: run.subjectFileId } : undefined, detail: `${template?.name ?? "A workflow"}: ${step} ${status}${data.comment ? `: ${data.comment}` : ""}` };
  });
  await tellRun(ctx, run.id, { type: DECISION_EVENT, payload: { taskId: task.id } }, task.id);
  return { status };
}

/** POST /api/workflow-runs/{id}/cancel: whoever started the run, built its workflow or manages its data room stops it, even while it waits for people. */
export async function cancelRun(ctx: ServiceContext, userId: string, runId: unknown): Promise<RunView> {
  const { run, template, isManager } = await requireVisibleRun(ctx, userId, runId);
  if (!isManager) throw runNotFound();
  const now = ctx.now();
  if (await endRun(ctx.db, run.id, "cancelled", now, { id: `${run.id}:run-cancelled`, runId: run.id, at: now, kind: "run.cancelled", actorId: userId, detail: null })) {
    await auditRun(ctx, run.spaceId, userId, { action: "workflow.end", target: run.subjectFileId ? { type: "file", id: run.subjectFileId } : undefined, detail: `${template.name}: cancelled` });
    try {
      await (await ctx.env.WORKFLOW_RUNS.get(run.id)).terminate();
    } catch (error) {
      // It may have ended on its own meanwhile; our row says cancelled either way.
      ctx.logger.info("workflows.terminate_skipped", { runId: run.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return runViewOf((await findRun(ctx.db, run.id))!);
}

/** GET /api/workflow-runs/{id}: where a run stands and its timeline, for whoever may see it. */
export async function getRun(ctx: ServiceContext, userId: string, runId: unknown) {
  const { run, template, isManager } = await requireVisibleRun(ctx, userId, runId);
  const [events, mine] = await Promise.all([listRunEvents(ctx.db, run.id), listTasksOfIn(ctx.db, run.id, userId)]);
  if (!isManager && mine.length === 0) throw runNotFound();
  const myTask = run.status === "running" ? (mine.find((task) => task.status === "open") ?? null) : null;
  // A task shows nobody a document they may not open: the link, and its name in the timeline, are for those with access to it.
  const document = run.subjectFileId ? await visibleDocument(ctx, userId, run.subjectFileId) : null;
  const submission = run.subjectSubmissionId ? await visibleSubmission(ctx, userId, run) : null;
  return {
    document,
    /** The submission the run is about, for its form's or page's owner (null for anyone else, or a run about a document). */
    submission,
    isAboutSubmission: run.subjectSubmissionId !== null,
    run: runViewOf(run),
    workflow: viewOf(template, userId, await findIsDataroomSpace(ctx.db, run.spaceId)),
    canCancel: isManager && run.status === "running",
    myTask: myTask ? { id: myTask.id, step: stepName(template.definition.steps, myTask.stepIndex) } : null,
    timeline: events.map((event) => ({ id: event.id, at: event.at.toISOString(), kind: event.kind, detail: event.kind === "run.started" && !document && !submission ? template.name : event.detail, actor: event.actorName })),
  };
}

/** The submission a run is about, with a link to it, for the owner of its form or page only (who it came from is theirs to know). */
async function visibleSubmission(ctx: ServiceContext, userId: string, run: WorkflowRunRow): Promise<{ label: string; link: string } | null> {
  const kind = run.triggerKind as SubmissionKind;
  const found = await readSubmission(ctx, kind, run.subjectSubmissionId!);
  if (!found || found.ownerId !== userId) return null;
  return { label: found.label.charAt(0).toUpperCase() + found.label.slice(1), link: kind === "form" ? `/forms/${found.sourceId}/submissions/${run.subjectSubmissionId}` : `/receive-pages/${found.sourceId}` };
}

/** The run's document if the viewer may open it (null otherwise: gone, or not theirs to see). */
async function visibleDocument(ctx: ServiceContext, userId: string, fileId: string): Promise<{ id: string; name: string } | null> {
  try {
    const { file } = await requireFileAccess(ctx, userId, fileId, "files.view");
    return { id: file.id, name: file.name };
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 403)) return null;
    throw error;
  }
}

/** GET /api/workflow-tasks: the caller's open tasks ("My tasks"), oldest first. */
export async function listMyTasks(ctx: ServiceContext, userId: string) {
  const tasks = await listOpenTasksOf(ctx.db, userId);
  return tasks.map((task) => ({ id: task.id, runId: task.runId, workflow: task.templateName, step: stepName(task.definition.steps, task.stepIndex), since: task.createdAt.toISOString(), due: task.dueAt?.toISOString() ?? null }));
}
