import { NonRetryableError } from "cloudflare:workflows";
import type { WorkflowStepDefinition } from "~/db/schema";
import { moveItemRefs } from "~/features/files/move.server";
import { notifyMember } from "~/features/notifications/notifications.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { durationText } from "./workflows.schema";
import { closeOpenTasks, endRun, findPeople, findRun, findTemplate, insertEvent, insertTasks, listStepTasks, reopenTaskOf, setRunStep } from "./workflows.queries.server";

/**
 * What the engine's steps do (issue 41, ADR 035). Each function is one `step.do` of the
 * `WorkflowRunner`: it may run again after a failure or a restart, so each is idempotent. Rows it
 * adds have ids derived from the run and the step, written with ON CONFLICT DO NOTHING; a run that
 * ended (cancelled meanwhile) is never moved on.
 */

export type RunPlan = { steps: WorkflowStepDefinition[] } | null;
export type ApprovalOutcome = "pending" | "approved" | "rejected";

const eventId = (runId: string, what: string) => `${runId}:${what}`;

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
  const dueInHours = step.type === "approve" ? (step.dueInHours ?? null) : null;
  const dueAt = dueInHours ? new Date(now.getTime() + dueInHours * HOUR_MS) : null;
  if (step.type === "approve") {
    await insertTasks(
      ctx.db,
      step.assignees.map((assigneeId) => ({ id: crypto.randomUUID(), runId, stepIndex: index, assigneeId, status: "open" as const, comment: null, createdAt: now, dueAt, decidedAt: null })),
    );
  }
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-started`), runId, at: now, kind: "step.started", actorId: null, detail: dueInHours ? `${step.name} (due in ${durationText(dueInHours)})` : step.name });
  return dueAt?.getTime() ?? null;
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
  const now = ctx.now();
  const overdue = `${step.name}: no decision after ${durationText(step.dueInHours ?? 0)}`;
  const record = (detail: string) => insertEvent(ctx.db, { id: eventId(runId, `step-${index}-escalated`), runId, at: now, kind: "step.escalated", actorId: null, detail });
  if (escalation.action === "approve" || escalation.action === "reject") {
    const outcome = escalation.action === "approve" ? "approved" : "rejected";
    await record(`${overdue}, ${outcome} as the workflow says`);
    await closeOpenTasks(ctx.db, runId, index);
    await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-${outcome}`), runId, at: now, kind: `step.${outcome}`, actorId: null, detail: `${step.name}: ${outcome} when overdue` });
    return outcome;
  }
  if (escalation.action === "reassign") {
    const people = await findPeople(ctx.db, [escalation.to]);
    await closeOpenTasks(ctx.db, runId, index);
    await insertTasks(ctx.db, [{ id: crypto.randomUUID(), runId, stepIndex: index, assigneeId: escalation.to, status: "open", comment: null, createdAt: now, dueAt: null, decidedAt: null }]);
    await reopenTaskOf(ctx.db, runId, index, escalation.to);
    await record(`${overdue}, handed to ${people[0]?.name ?? "a former member"}`);
    await notifyAssignees(ctx, runId, index, step, "Task handed to you");
    return tallyApproval(ctx, runId, index, step);
  }
  const told = await notifyAssignees(ctx, runId, index, step, "Overdue");
  await record(`${overdue}, ${told} ${told === 1 ? "person" : "people"} reminded`);
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

/** Moves the run's document into the step's folder, as the person who built the workflow; already there, nothing moves. */
export async function moveSubject(ctx: ServiceContext, runId: string, index: number, step: Extract<WorkflowStepDefinition, { type: "move" }>): Promise<void> {
  const run = await findRun(ctx.db, runId);
  if (!run || run.status !== "running") return;
  const template = await findTemplate(ctx.db, run.templateId);
  if (!run.subjectFileId || !template?.createdBy) throw new NonRetryableError("The run has no document to move, or its workflow has no owner any more.");
  const result = await moveItemRefs(ctx, template.createdBy, { items: [{ type: "file", id: run.subjectFileId }], targetFolderId: step.folderId });
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-moved`), runId, at: ctx.now(), kind: "file.moved", actorId: null, detail: `${step.name}${result.moved ? "" : " (it was there already)"}` });
}

/** Ends the run (completed, rejected or failed) unless it ended already (cancelled). */
export async function finishRun(ctx: ServiceContext, runId: string, status: "completed" | "rejected" | "failed", detail: string | null = null): Promise<void> {
  const now = ctx.now();
  await endRun(ctx.db, runId, status, now, { id: eventId(runId, `run-${status}`), runId, at: now, kind: `run.${status}`, actorId: null, detail });
}
