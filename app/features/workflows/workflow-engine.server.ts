import { NonRetryableError } from "cloudflare:workflows";
import type { WorkflowStepDefinition } from "~/db/schema";
import { requireFileAccess } from "~/features/files/spaces.server";
import { countPdfPages, createEnvelope, readObjectBytes, voidEnvelope } from "~/features/signatures/envelopes.server";
import { remindUnsigned } from "~/features/signatures/reminders.server";
import { SIGN_PDF_MAX_BYTES } from "~/features/signatures/signatures.constants";
import { AppError } from "~/lib/errors";
import { notifyMember } from "~/features/notifications/notifications.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { durationText, runEventId as eventId, WORKFLOW_ROLE_PEOPLE_MAX } from "./workflows.schema";
import { asStep, recordEscalation } from "./workflow-actions.server";
import { auditRun } from "./workflow-room.server";
import {
  closeOpenTasks,
  endRun,
  findEnvelopeState,
  findPeople,
  findRun,
  findStepLink,
  findTemplate,
  findUnlinkedEnvelope,
  insertEvent,
  insertStepLink,
  insertTasks,
  listRoomPeopleWithRoles,
  listRunEvents,
  listStepTasks,
  reopenTaskOf,
  setRunStep,
  setRunSubject,
} from "./workflows.queries.server";

/**
 * What the engine's steps do (issue 41, ADR 035). Each function is one `step.do` of the
 * `WorkflowRunner`: it may run again after a failure or a restart, so each is idempotent. Rows it
 * adds have ids derived from the run and the step, written with ON CONFLICT DO NOTHING; a run that
 * ended (cancelled meanwhile) is never moved on.
 */

export type RunPlan = { steps: WorkflowStepDefinition[] } | null;
export type ApprovalOutcome = "pending" | "approved" | "rejected";


/** The run's steps as its template had them when it started (null: the run is gone or ended). */
export async function runPlan(ctx: ServiceContext, runId: string): Promise<RunPlan> {
  const run = await findRun(ctx.db, runId);
  if (!run || run.status !== "running") return null;
  const template = await findTemplate(ctx.db, run.templateId);
  return template ? { steps: template.definition.steps } : null;
}

type ApproveStep = Extract<WorkflowStepDefinition, { type: "approve" }>;
const HOUR_MS = 60 * 60 * 1000;

/**
 * A step begins: the run says which, and a human step's people get their tasks, due when the step
 * says. Returns the step's due time (ms since the epoch) or null; as a step's result it is kept,
 * so the engine's wait for people ends there however often the run is replayed.
 */
export async function startStep(ctx: ServiceContext, runId: string, index: number, step: WorkflowStepDefinition): Promise<number | null> {
  await setRunStep(ctx.db, runId, index);
  const now = ctx.now();
  const dueInHours = step.type === "approve" || step.type === "form" || step.type === "sign" ? (step.dueInHours ?? null) : null;
  const dueAt = dueInHours ? new Date(now.getTime() + dueInHours * HOUR_MS) : null;
  let note: string | null = null;
  if (step.type === "approve") {
    const approvers = await approversOf(ctx, runId, step);
    note = approvers.note;
    await insertTasks(
      ctx.db,
      approvers.people.map((assigneeId) => ({ id: crypto.randomUUID(), runId, stepIndex: index, assigneeId, status: "open" as const, comment: null, createdAt: now, dueAt, decidedAt: null })),
    );
  }
  const said = [dueInHours ? `due in ${durationText(dueInHours)}` : null, note].filter(Boolean).join("; ");
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-started`), runId, at: now, kind: "step.started", actorId: null, detail: said ? `${step.name} (${said})` : step.name });
  return dueAt?.getTime() ?? null;
}


/**
 * Who approves: the people the step names, and in a data room's workflow everyone with the roles
 * it names when the step starts (the room's members list, access not ended; "admin" includes the
 * owner). When the roles find nobody and no one is named, the workflow's builder decides, and the
 * timeline says so: a document never waits for nobody.
 */
async function approversOf(ctx: ServiceContext, runId: string, step: ApproveStep): Promise<{ people: string[]; note: string | null }> {
  const roles = step.roles ?? [];
  if (roles.length === 0) return { people: step.assignees, note: null };
  const run = await findRun(ctx.db, runId);
  if (!run) return { people: step.assignees, note: null };
  const roomRoles = roles.flatMap((role) => (role === "admin" ? (["owner", "admin"] as const) : [role]));
  const fromRoles = await listRoomPeopleWithRoles(ctx.db, run.spaceId, roomRoles, ctx.now(), WORKFLOW_ROLE_PEOPLE_MAX);
  const people = [...new Set([...step.assignees, ...fromRoles])];
  if (people.length > 0) return { people, note: null };
  const builder = (await findTemplate(ctx.db, run.templateId))?.createdBy;
  return { people: builder ? [builder] : [], note: `nobody in the room is ${roles.map((role) => ({ admin: "its owner or an admin", member: "a member", guest: "a guest" })[role]).join(" or ")}, so the workflow's builder decides` };
}

/**
 * An approval step is overdue (its wait for people timed out): its escalation happens once.
 * Remind: the people still to decide hear again. Reassign: their tasks close and the named member
 * gets one (already in the step, nothing new). Approve or reject: the step takes that path, the
 * open tasks close. Returns where the step stands afterwards.
 */
export async function escalateStep(ctx: ServiceContext, runId: string, index: number, step: ApproveStep): Promise<ApprovalOutcome> {
  const run = await findRun(ctx.db, runId);
  if (!run || run.status !== "running") return "rejected";
  const escalation = step.escalation ?? { action: "remind" as const };
  const overdue = `${step.name}: no decision after ${durationText(step.dueInHours ?? 0)}`;
  if (escalation.action === "approve" || escalation.action === "reject") {
    const outcome = escalation.action === "approve" ? "approved" : "rejected";
    await closeOpenTasks(ctx.db, runId, index);
    await recordEscalation(ctx, runId, index, `${overdue}, ${outcome} as the workflow says`, { outcome, detail: `${step.name}: ${outcome} when overdue` });
    return outcome;
  }
  if (escalation.action === "reassign") {
    const people = await findPeople(ctx.db, [escalation.to]);
    await closeOpenTasks(ctx.db, runId, index);
    await insertTasks(ctx.db, [{ id: crypto.randomUUID(), runId, stepIndex: index, assigneeId: escalation.to, status: "open", comment: null, createdAt: ctx.now(), dueAt: null, decidedAt: null }]);
    await reopenTaskOf(ctx.db, runId, index, escalation.to);
    await recordEscalation(ctx, runId, index, `${overdue}, handed to ${people[0]?.name ?? "a former member"}`);
    await notifyAssignees(ctx, runId, index, step, "Task handed to you");
    return tallyApproval(ctx, runId, index, step);
  }
  const told = await notifyAssignees(ctx, runId, index, step, "Overdue");
  await recordEscalation(ctx, runId, index, `${overdue}, ${told} ${told === 1 ? "person" : "people"} reminded`);
  return "pending";
}

/**
 * The people of a human step hear that a task waits for them: in their notifications, live in
 * their open tabs, and by e-mail as they chose. The notice names the step and the workflow, not
 * the document (an approver may not have access to it).
 */
export async function notifyAssignees(ctx: ServiceContext, runId: string, index: number, step: ApproveStep, prefix = "Task waiting"): Promise<number> {
  const run = await findRun(ctx.db, runId);
  if (!run || run.status !== "running") return 0;
  const template = await findTemplate(ctx.db, run.templateId);
  const open = (await listStepTasks(ctx.db, runId, index)).filter((task) => task.status === "open");
  let told = 0;
  for (const task of open) {
    const isTold = await notifyMember(ctx, {
      userId: task.assigneeId,
      actorId: null,
      kind: "workflow.task",
      title: `${prefix}: ${step.name}: ${template?.name ?? "a workflow"}`,
      excerpt: "Open it to approve or reject.",
      link: `/workflow-runs/${runId}`,
    });
    if (isTold) told += 1;
  }
  return told;
}

/** How many approvals a step needs: one, all, or its quorum (rounded up) of the people asked. */
export function approvalsNeeded(step: ApproveStep, people: number): number {
  if (step.mode === "all") return people;
  if (step.mode === "one") return 1;
  return Math.max(1, Math.ceil((people * (step.quorumPercent ?? 100)) / 100));
}

/**
 * Where an approval step stands after a decision. One: the first decision decides. All: every
 * approval, and one rejection rejects. Quorum: approved once enough approve, rejected once too
 * many rejected for the quorum to be reached. A decided step closes the tasks left open.
 */
export async function tallyApproval(ctx: ServiceContext, runId: string, index: number, step: ApproveStep): Promise<ApprovalOutcome> {
  // A task closed without a decision (handed to someone else) counts for nothing.
  const tasks = (await listStepTasks(ctx.db, runId, index)).filter((task) => task.status !== "closed");
  const decided = tasks.filter((task) => task.status === "approved" || task.status === "rejected").sort((a, b) => (a.decidedAt?.getTime() ?? 0) - (b.decidedAt?.getTime() ?? 0));
  const approvals = decided.filter((task) => task.status === "approved").length;
  const rejections = decided.length - approvals;
  const needed = approvalsNeeded(step, tasks.length);
  let outcome: ApprovalOutcome = "pending";
  if (step.mode === "one" && decided[0]) outcome = decided[0].status === "approved" ? "approved" : "rejected";
  else if (approvals >= needed) outcome = "approved";
  else if (tasks.length - rejections < needed) outcome = "rejected";
  if (outcome !== "pending") {
    await closeOpenTasks(ctx.db, runId, index);
    await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-${outcome}`), runId, at: ctx.now(), kind: `step.${outcome}`, actorId: null, detail: `${step.name}: ${approvals} of ${tasks.length} approved` });
  }
  return outcome;
}

type SignStep = Extract<WorkflowStepDefinition, { type: "sign" }>;

/** Where each signer signs: a signature box on the last page, stacked from the bottom right (the builder places nothing). */
function signatureFields(signers: number, lastPage: number) {
  return Array.from({ length: signers }, (_, index) => ({
    id: `workflow-signature-${index + 1}`,
    type: "signature" as const,
    roleId: `signer-${index + 1}`,
    page: lastPage,
    x: 0.55,
    y: 0.86 - index * 0.075,
    w: 0.38,
    h: 0.06,
    required: true,
    label: "",
    options: [],
  }));
}

/**
 * A sign step sends the run's document for signature as the workflow's builder (the e-signature
 * module: its e-mails, reminders, audit trail and sealing), one signature box per signer on the
 * last page. Once per step: the envelope is recorded against the step, and a step run again after
 * sending finds the one it sent. A document that is not a PDF fails the run (nothing to retry).
 */
export async function sendForSignature(ctx: ServiceContext, runId: string, index: number, step: SignStep): Promise<string | null> {
  const run = await findRun(ctx.db, runId);
  if (!run || run.status !== "running") return null;
  const linked = await findStepLink(ctx.db, runId, index);
  if (linked) return linked.refId;
  const template = await findTemplate(ctx.db, run.templateId);
  if (!run.subjectFileId || !template?.createdBy) throw new NonRetryableError("The run has no document to sign, or its workflow has no owner any more.");
  const builder = template.createdBy;
  const title = `${template.name}: ${step.name}`;
  const stepStart = (await listRunEvents(ctx.db, runId)).find((event) => event.id === eventId(runId, `step-${index}-started`))?.at ?? run.startedAt;
  const unlinked = await findUnlinkedEnvelope(ctx.db, { userId: builder, sourceFileId: run.subjectFileId, title, since: stepStart });
  let envelopeId = unlinked?.id ?? null;
  if (!envelopeId) {
    // The document or the builder's plan cannot be sent: retrying changes nothing (asStep).
    const envelope = await asStep(async () => {
      const { file } = await requireFileAccess(ctx, builder, run.subjectFileId!, "files.download");
      if (file.contentType !== "application/pdf") throw new AppError("VALIDATION_ERROR", `“${file.name}” is not a PDF: only a PDF can be sent for signature.`);
      if (file.size > SIGN_PDF_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `“${file.name}” is larger than the 25 MB a document to sign may be.`);
      const pages = await countPdfPages(await readObjectBytes(ctx, file.r2Key, file.size), file.name);
      return createEnvelope(ctx, builder, {
        title,
        message: `Sent by the workflow “${template.name}”.`,
        recipients: step.signers.map((signer, position) => ({ roleId: `signer-${position + 1}`, name: signer.name, email: signer.email, kind: "signer" })),
        fields: signatureFields(step.signers.length, pages - 1),
        fileId: file.id,
        send: true,
      });
    });
    envelopeId = envelope.id;
  }
  await insertStepLink(ctx.db, { runId, stepIndex: index, kind: "envelope", refId: envelopeId, createdAt: ctx.now() });
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-sent`), runId, at: ctx.now(), kind: "signature.sent", actorId: null, detail: `${step.name}: to ${step.signers.map((signer) => `${signer.name} <${signer.email}>`).join(", ")}` });
  return envelopeId;
}

/**
 * Where the step's envelope stands: still out ("pending"), signed by everyone ("signed": the signed
 * copy, once saved, becomes the document the next steps act on), or declined, voided or expired ("rejected").
 */
export async function signatureOutcome(ctx: ServiceContext, runId: string, index: number, step: SignStep): Promise<ApprovalOutcome> {
  const link = await findStepLink(ctx.db, runId, index);
  const envelope = link ? await findEnvelopeState(ctx.db, link.refId) : undefined;
  if (!envelope) return "rejected";
  if (envelope.status === "completed") {
    if (envelope.sealedFileId) await setRunSubject(ctx.db, runId, envelope.sealedFileId);
    await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-signed`), runId, at: ctx.now(), kind: "signature.completed", actorId: null, detail: `${step.name}: signed by everyone${envelope.sealedFileId ? "; the signed copy goes on" : ""}` });
    return "approved";
  }
  if (envelope.status === "declined" || envelope.status === "voided" || envelope.status === "expired") {
    await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-unsigned`), runId, at: ctx.now(), kind: "signature.ended", actorId: null, detail: `${step.name}: ${envelope.status}` });
    return "rejected";
  }
  return "pending";
}

/**
 * A sign step is overdue (its wait for the envelope timed out): its escalation happens once.
 * Remind: everyone still to sign gets a reminder now (the e-signature module's e-mail and history).
 * Reject: the builder's envelope is voided (its signers are told, their links stop working) and the
 * step takes the rejected path. Signed meanwhile, the signature stands. Returns where the step stands.
 */
export async function escalateSignStep(ctx: ServiceContext, runId: string, index: number, step: SignStep): Promise<ApprovalOutcome> {
  const run = await findRun(ctx.db, runId);
  if (!run || run.status !== "running") return "rejected";
  const link = await findStepLink(ctx.db, runId, index);
  const builder = (await findTemplate(ctx.db, run.templateId))?.createdBy;
  if (!link || !builder) return "rejected";
  const outcome = await signatureOutcome(ctx, runId, index, step);
  if (outcome !== "pending") return outcome;
  const overdue = `${step.name}: not signed after ${durationText(step.dueInHours ?? 0)}`;
  if (step.escalation?.action === "reject") {
    try {
      await voidEnvelope(ctx, builder, link.refId, { reason: `Not signed in time: the workflow that sent it ended it.` });
    } catch (error) {
      if (!(error instanceof AppError && error.status < 500)) throw error;
      // Signed, declined or voided meanwhile: that outcome stands. Otherwise (the builder may no longer void it) the step is rejected all the same.
      const settled = await signatureOutcome(ctx, runId, index, step);
      if (settled !== "pending") return settled;
      ctx.logger.info("workflows.void_skipped", { runId, envelopeId: link.refId, error: error.message });
    }
    await recordEscalation(ctx, runId, index, `${overdue}, voided and rejected as the workflow says`, { outcome: "rejected", detail: `${step.name}: rejected when overdue` });
    return "rejected";
  }
  const reminded = await remindUnsigned(ctx, link.refId, "overdue in a workflow");
  await recordEscalation(ctx, runId, index, `${overdue}, ${reminded} ${reminded === 1 ? "signer" : "signers"} reminded`);
  return "pending";
}

/**
 * A send-back step: while it has rounds left (`times` so far), the run goes back to the step it
 * names and the timeline says so ("Sent back to “Draft” (round 2 of 3)"); once they are used up it
 * lets the run go on, and says that. Returns whether it sent the run back.
 */
export async function sendBack(ctx: ServiceContext, runId: string, slot: number, step: Extract<WorkflowStepDefinition, { type: "back" }>, times: number): Promise<boolean> {
  await setRunStep(ctx.db, runId, slot);
  const run = await findRun(ctx.db, runId);
  const template = run ? await findTemplate(ctx.db, run.templateId) : undefined;
  const target = template?.definition.steps[step.to - 1]?.name ?? `step ${step.to}`;
  const isBack = times < step.times;
  const detail = isBack ? `${step.name}: back to “${target}” (round ${times + 2} of ${step.times + 1})` : `${step.name}: sent back ${step.times === 1 ? "once" : `${step.times} times`} already, so the run goes on`;
  await insertEvent(ctx.db, { id: eventId(runId, `step-${slot}-back`), runId, at: ctx.now(), kind: isBack ? "step.sent_back" : "step.rounds_used", actorId: null, detail });
  return isBack;
}

/** A step for the other path is passed over; the timeline says so (once). */
export async function skipStep(ctx: ServiceContext, runId: string, index: number, step: WorkflowStepDefinition, path: "approved" | "rejected"): Promise<void> {
  await setRunStep(ctx.db, runId, index);
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-skipped`), runId, at: ctx.now(), kind: "step.skipped", actorId: null, detail: `${step.name}: only when ${step.when}, and the run was ${path}` });
}

/** Ends the run (completed, rejected or failed) unless it ended already (cancelled). */
export async function finishRun(ctx: ServiceContext, runId: string, status: "completed" | "rejected" | "failed", detail: string | null = null): Promise<void> {
  const now = ctx.now();
  if (!(await endRun(ctx.db, runId, status, now, { id: eventId(runId, `run-${status}`), runId, at: now, kind: `run.${status}`, actorId: null, detail }))) return;
  const run = await findRun(ctx.db, runId);
  if (!run) return;
  await auditRun(ctx, run.spaceId, null, async () => {
    const template = await findTemplate(ctx.db, run.templateId);
    return { action: "workflow.end", target: run.subjectFileId ? { type: "file", id: run.subjectFileId } : undefined, detail: `${template?.name ?? "A workflow"}: ${status}${detail ? ` (${detail})` : ""}` };
  });
}
