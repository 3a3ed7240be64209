import type { ServiceContext } from "~/lib/service-context.server";
import { ENVELOPE_EVENT, FORM_EVENT, runEventId, stepIndexOfSlot } from "./workflows.schema";
import { hashLinkToken } from "~/features/auth/secrets.server";
import { findLinkByRef, findRun, findTemplate, insertEvent } from "./workflows.queries.server";
import { tellRun } from "./run-events.jobs";

/**
 * Other modules tell waiting runs that something they wait on ended (issue 41). The e-signature
 * module calls this when an envelope is completed, declined, voided or expired: the run whose sign
 * step sent it is woken to read the outcome. Never fails what already happened (logged instead);
 * an envelope no workflow sent costs one indexed read.
 */
export async function signalEnvelopeFinished(ctx: ServiceContext, envelopeId: string): Promise<void> {
  try {
    const link = await findLinkByRef(ctx.db, "envelope", envelopeId);
    if (!link) return;
    await tellRun(ctx, link.runId, { type: ENVELOPE_EVENT, payload: { envelopeId } }, envelopeId);
  } catch (error) {
    ctx.logger.warn("workflows.envelope_signal_failed", { envelopeId, error: error instanceof Error ? error.message : String(error) });
  }
}

/** A form step's ticket: what the form's page carries from the link the person was sent. */
export const FORM_TICKET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A form was submitted with a workflow's ticket (`_task`, from the link a form step sent): when it
 * is a waiting run's form step of this very form, the answer is recorded once in the run's timeline
 * and the run is woken. The submission stands whatever happens here (logged instead).
 */
export async function signalFormAnswered(ctx: ServiceContext, answer: { ticket: unknown; formId: string; submissionId: string; who: string | null }): Promise<void> {
  if (typeof answer.ticket !== "string" || !FORM_TICKET_PATTERN.test(answer.ticket)) return;
  try {
    const link = await findLinkByRef(ctx.db, "form", hashLinkToken(answer.ticket));
    const run = link ? await findRun(ctx.db, link.runId) : undefined;
    const template = run ? await findTemplate(ctx.db, run.templateId) : undefined;
    const step = link ? template?.definition.steps[stepIndexOfSlot(link.stepIndex)] : undefined;
    // Only the run's own form, while the run waits at that step; an old, wrong or reused ticket changes nothing.
    if (!link || run?.status !== "running" || run.stepIndex !== link.stepIndex || step?.type !== "form" || step.formId !== answer.formId) return;
    await insertEvent(ctx.db, { id: runEventId(link.runId, `step-${link.stepIndex}-answered`), runId: link.runId, at: ctx.now(), kind: "form.answered", actorId: null, detail: `${step.name}: answered by ${answer.who ?? step.to}` });
    await tellRun(ctx, link.runId, { type: FORM_EVENT, payload: { submissionId: answer.submissionId } }, answer.submissionId);
  } catch (error) {
    ctx.logger.warn("workflows.form_signal_failed", { submissionId: answer.submissionId, error: error instanceof Error ? error.message : String(error) });
  }
}
