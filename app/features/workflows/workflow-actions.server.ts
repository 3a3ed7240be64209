import { NonRetryableError } from "cloudflare:workflows";
import type { WorkflowStepDefinition } from "~/db/schema";
import { decryptSecret, hashLinkToken } from "~/features/auth/secrets.server";
import { hmacSign } from "~/lib/crypto.server";
import { fileDocumentIntoNewCase } from "~/features/cases/cases.server";
import { findIsDataroomSpace } from "~/features/files/space-role.queries.server";
import { copyItemRefs } from "~/features/files/copy.server";
import { moveItemRefs } from "~/features/files/move.server";
import { loadFileExtras, setFileMetadata, setFileTags } from "~/features/files/organize.server";
import { sendMail } from "~/features/mail/mailer.server";
import type { MailTemplate } from "~/features/mail/templates";
import { mailOrigin } from "~/features/notifications/notifications.server";
import { createShareLink, requireManagedLink, viewOf as shareViewOf } from "~/features/sharing/sharing.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { WEBHOOK_TIMEOUT_MS, webhookSignature } from "~/lib/webhooks.server";
import { findPeople, findRun, findStepLink, findTemplate, insertEvent, insertStepLink, listRunEvents, type WorkflowRunRow, type WorkflowTemplateRow } from "./workflows.queries.server";
import { durationText, runEventId as eventId } from "./workflows.schema";
import { liveDocumentsIn, readSubmission, type SubmissionKind } from "./workflows.server";

/**
 * The automatic steps of a workflow (issue 41): copy, tag, set metadata, e-mail, share, call a
 * webhook. Each is one `step.do` of the runner, acts with the builder's rights through the module
 * that owns the effect (the file manager, the mailer, the sharing module), and does its effect once
 * however often it runs: copies have ids derived from the run and the step, tags and metadata are
 * set rather than added twice, e-mails have ids derived from the run, the step and the address, a
 * share link is recorded against its step, and a webhook's receiver gets the same event id on
 * every attempt.
 */

type Step<T extends WorkflowStepDefinition["type"]> = Extract<WorkflowStepDefinition, { type: T }>;
type Running = { run: WorkflowRunRow; template: WorkflowTemplateRow; builder: string };

/** The run if it is still going, with its template and builder (null: ended meanwhile, nothing to do). */
async function running(ctx: ServiceContext, runId: string): Promise<Running | null> {
  const run = await findRun(ctx.db, runId);
  if (!run || run.status !== "running") return null;
  const template = await findTemplate(ctx.db, run.templateId);
  if (!template?.createdBy) throw new NonRetryableError("The workflow has no owner any more.");
  return { run, template, builder: template.createdBy };
}

/**
 * What a run acts on: its documents (its document, or for a run about a submission, the files the
 * submission brought that are still in the workflow's space, and the signed copy once signed) and
 * the submission itself (null for a run about a document), read once.
 */
async function runSubject(ctx: ServiceContext, run: WorkflowRunRow) {
  const submission = run.subjectSubmissionId ? await readSubmission(ctx, run.triggerKind as SubmissionKind, run.subjectSubmissionId) : null;
  const ids = [...new Set([...(run.subjectFileId ? [run.subjectFileId] : []), ...(submission?.fileIds ?? [])])];
  return { documents: ids.length > 0 ? await liveDocumentsIn(ctx, run.spaceId, ids) : [], submission };
}

export async function runDocuments(ctx: ServiceContext, run: WorkflowRunRow): Promise<{ id: string; name: string }[]> {
  return (await runSubject(ctx, run)).documents;
}

/** The run's documents; a run about one document whose document is gone cannot go on (nothing to retry). */
async function documentsOf(ctx: ServiceContext, run: WorkflowRunRow) {
  const subject = await runSubject(ctx, run);
  if (subject.documents.length === 0 && !run.subjectSubmissionId) throw new NonRetryableError("The run's document is gone (deleted or moved out of your files).");
  return subject;
}

/** A refusal of the module acting (the builder's rights or plan, a full space): retrying changes nothing. */
export async function asStep<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.status < 500) throw new NonRetryableError(error.message);
    throw error;
  }
}

const documentsText = (count: number) => (count === 0 ? "the submission brought no documents" : `${count} document${count === 1 ? "" : "s"}`);

/** Moves the run's documents into the step's folder, as the person who built the workflow; those already there stay. */
export async function moveSubject(ctx: ServiceContext, runId: string, index: number, step: Step<"move">): Promise<void> {
  const state = await running(ctx, runId);
  if (!state) return;
  const { documents } = await documentsOf(ctx, state.run);
  const result = documents.length > 0 ? await moveItemRefs(ctx, state.builder, { items: documents.map((file) => ({ type: "file" as const, id: file.id })), targetFolderId: step.folderId }) : { moved: 0 };
  const what = documents.length === 0 ? " (the submission brought no documents)" : result.moved ? (state.run.subjectSubmissionId ? ` (${documentsText(documents.length)})` : "") : " (it was there already)";
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-moved`), runId, at: ctx.now(), kind: "file.moved", actorId: null, detail: `${step.name}${what}` });
}

/**
 * A case step: the run's documents are filed into a new case of the step's type (its case file),
 * as the builder; the run joins the case's timeline. A run about a form submission fills the
 * case's fields from the answers, like a form that opens cases. Once per step (the case remembers
 * the step that opened it).
 */
export async function fileIntoCase(ctx: ServiceContext, runId: string, index: number, step: Step<"case">): Promise<void> {
  const state = await running(ctx, runId);
  if (!state) return;
  const { run, template, builder } = state;
  const { documents, submission } = await documentsOf(ctx, run);
  // A room's workflow opens its case in the room: the case file sits at the top of the room, so the documents never leave it.
  const roomId = (await findIsDataroomSpace(ctx.db, run.spaceId)) ? run.spaceId : null;
  const opened = await asStep(() =>
    fileDocumentIntoNewCase(ctx, builder, {
      caseTypeId: step.caseTypeId,
      fileIds: documents.map((file) => file.id),
      title: submission ? submission.title : null,
      formSubmissionId: run.triggerKind === "form" ? run.subjectSubmissionId : null,
      runId,
      stepRef: eventId(runId, `step-${index}`),
      workflow: template.name,
      roomId,
    }),
  );
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-filed`), runId, at: ctx.now(), kind: "case.filed", actorId: null, detail: `${step.name}: filed into ${opened.reference} ${opened.title}` });
}

/** Copies the run's documents into the step's folder; the copies' ids come from the run and the step, so a second time writes nothing new. */
export async function copyDocuments(ctx: ServiceContext, runId: string, index: number, step: Step<"copy">): Promise<void> {
  const state = await running(ctx, runId);
  if (!state) return;
  const { documents } = await documentsOf(ctx, state.run);
  if (documents.length > 0) await asStep(() => copyItemRefs(ctx, state.builder, { items: documents.map((file) => ({ type: "file" as const, id: file.id })), targetFolderId: step.folderId, seed: eventId(runId, `step-${index}`) }));
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-copied`), runId, at: ctx.now(), kind: "file.copied", actorId: null, detail: `${step.name} (${documentsText(documents.length)})` });
}

/** Adds the step's tags to each document (the tags it has stay; one already there is not added twice). */
export async function tagDocuments(ctx: ServiceContext, runId: string, index: number, step: Step<"tag">): Promise<void> {
  const state = await running(ctx, runId);
  if (!state) return;
  const { documents } = await documentsOf(ctx, state.run);
  for (const file of documents) {
    const { tags } = await asStep(() => loadFileExtras(ctx, state.builder, file.id));
    await asStep(() => setFileTags(ctx, state.builder, file.id, { tags: [...new Set([...tags, ...step.tags])] }));
  }
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-tagged`), runId, at: ctx.now(), kind: "file.tagged", actorId: null, detail: `${step.name}: ${step.tags.join(", ")} (${documentsText(documents.length)})` });
}

/** Sets the step's metadata on each document (a key it has takes the new value; its other keys stay). */
export async function setDocumentMetadata(ctx: ServiceContext, runId: string, index: number, step: Step<"metadata">): Promise<void> {
  const state = await running(ctx, runId);
  if (!state) return;
  const { documents } = await documentsOf(ctx, state.run);
  const setting = new Set(step.entries.map((entry) => entry.key.toLowerCase()));
  for (const file of documents) {
    const { metadata } = await asStep(() => loadFileExtras(ctx, state.builder, file.id));
    await asStep(() => setFileMetadata(ctx, state.builder, file.id, { entries: [...metadata.filter((entry) => !setting.has(entry.key.toLowerCase())), ...step.entries] }));
  }
  await insertEvent(ctx.db, {
    id: eventId(runId, `step-${index}-metadata`),
    runId,
    at: ctx.now(),
    kind: "file.metadata",
    actorId: null,
    detail: `${step.name}: ${step.entries.map((entry) => `${entry.key} = ${entry.value}`).join(", ")} (${documentsText(documents.length)})`,
  });
}

async function builderName(ctx: ServiceContext, builder: string): Promise<string> {
  return (await findPeople(ctx.db, [builder]))[0]?.name ?? "Someone";
}

/** One message to each address, once per run and step (its id is derived from them: a second time sends nothing). */
async function mailEach(ctx: ServiceContext, runId: string, index: number, to: readonly string[], template: Extract<MailTemplate, { kind: "workflow-message" }>): Promise<void> {
  for (const address of to) await sendMail(ctx, { id: eventId(runId, `step-${index}-mail-${address}`), to: address, userId: null, template });
}

/** E-mails each address once per run and step (the message's id is derived from them), naming the workflow and the run's first document. */
export async function emailAbout(ctx: ServiceContext, runId: string, index: number, step: Step<"email">): Promise<void> {
  const state = await running(ctx, runId);
  if (!state) return;
  const documents = await runDocuments(ctx, state.run);
  const senderName = await builderName(ctx, state.builder);
  await mailEach(ctx, runId, index, step.to, { kind: "workflow-message", subject: step.subject, senderName, workflow: state.template.name, message: step.message, document: documents[0]?.name ?? null, link: null });
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-mailed`), runId, at: ctx.now(), kind: "email.sent", actorId: null, detail: `${step.name}: “${step.subject}” to ${step.to.join(", ")}` });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Shares the run's document with the step's people: one share link on it (the sharing module: only
 * those addresses get in, each confirming theirs by a code; downloads as the step says; lasting as
 * long as it says), recorded against the step so a second time finds it, and e-mailed to each
 * address once.
 */
export async function shareDocument(ctx: ServiceContext, runId: string, index: number, step: Step<"share">): Promise<void> {
  const state = await running(ctx, runId);
  if (!state) return;
  const {
    documents: [document],
  } = await documentsOf(ctx, state.run);
  if (!document) throw new NonRetryableError("The submission brought no document to share.");
  const linked = await findStepLink(ctx.db, runId, index);
  const link = linked
    ? await asStep(async () => shareViewOf(ctx, (await requireManagedLink(ctx, state.builder, linked.refId)).row))
    : await asStep(() =>
        createShareLink(ctx, state.builder, {
          target: { type: "file", id: document.id },
          name: `${state.template.name}: ${step.name}`.slice(0, 100),
          expiresAt: step.expiresInDays ? new Date(ctx.now().getTime() + step.expiresInDays * DAY_MS).toISOString() : null,
          allowDownload: step.allowDownload,
          requireEmail: true,
          verifyEmail: true,
          allowList: step.to,
        }),
      );
  if (!linked) await insertStepLink(ctx.db, { runId, stepIndex: index, kind: "share", refId: link.id, createdAt: ctx.now() });
  const senderName = await builderName(ctx, state.builder);
  await mailEach(ctx, runId, index, step.to, {
    kind: "workflow-message",
    subject: `${senderName} shared “${document.name}” with you`,
    senderName,
    workflow: state.template.name,
    message: step.message,
    document: document.name,
    link: { label: "Open the document", href: link.url },
  });
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-shared`), runId, at: ctx.now(), kind: "share.created", actorId: null, detail: `${step.name}: a link for ${step.to.join(", ")}${step.expiresInDays ? `, for ${step.expiresInDays} day${step.expiresInDays === 1 ? "" : "s"}` : ""}` });
}

/** The link a form step's person opens: the form with the step's ticket (an HMAC of the run and step, so a step run again sends the same link). */
async function formTicket(ctx: ServiceContext, runId: string, index: number): Promise<string> {
  return hmacSign(readConfig(ctx.env).SESSION_SECRET, `workflow-form:${runId}:${index}`);
}

/**
 * A form step asks its person to fill in the form: the ticket's hash is recorded against the step
 * (the form's submission with it wakes the run), and the person gets the link by e-mail, once.
 */
export async function askForForm(ctx: ServiceContext, runId: string, index: number, step: Step<"form">): Promise<void> {
  const state = await running(ctx, runId);
  if (!state) return;
  const ticket = await formTicket(ctx, runId, index);
  await insertStepLink(ctx.db, { runId, stepIndex: index, kind: "form", refId: hashLinkToken(ticket), createdAt: ctx.now() });
  await mailForm(ctx, state, index, step, ticket, step.to, "mail");
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-asked`), runId, at: ctx.now(), kind: "form.requested", actorId: null, detail: `${step.name}: asked ${step.to}` });
}

/** The form's link with the step's ticket, to one address, once per what it is (the first ask, a reminder, someone asked instead). */
async function mailForm(ctx: ServiceContext, state: Running, index: number, step: Step<"form">, ticket: string, to: string, what: "mail" | "reminder" | "instead"): Promise<void> {
  const runId = state.run.id;
  const senderName = await builderName(ctx, state.builder);
  const documents = await runDocuments(ctx, state.run);
  await sendMail(ctx, {
    id: eventId(runId, `step-${index}-${what}-${to}`),
    to,
    userId: null,
    template: {
      kind: "workflow-message",
      subject: `${what === "reminder" ? "Reminder: " : ""}${senderName} asks you to fill in a form: ${step.name}`,
      senderName,
      workflow: state.template.name,
      message: what === "reminder" ? "We are still waiting for your answers: the workflow goes on once you have sent them." : "The workflow goes on once you have sent your answers.",
      document: documents[0]?.name ?? null,
      link: { label: "Fill in the form", href: `${mailOrigin(ctx)}/forms/${step.formId}/view?task=${ticket}` },
    },
  });
}

/**
 * A form step is overdue (its wait for the answer timed out): its escalation happens once. Remind:
 * the person gets the link again. Reassign: someone else gets the step's link (whoever answers
 * first with it moves the run on). Approve: the run goes on without the answer. Reject: the step
 * takes the rejected path. An answer that came meanwhile wins: "answered".
 */
export async function escalateFormStep(ctx: ServiceContext, runId: string, index: number, step: Step<"form">): Promise<"answered" | "pending" | "approved" | "rejected"> {
  const state = await running(ctx, runId);
  if (!state) return "rejected";
  if (await formAnswered(ctx, runId, index)) return "answered";
  const escalation = step.escalation ?? { action: "remind" as const };
  const overdue = `${step.name}: no answer after ${durationText(step.dueInHours ?? 0)}`;
  if (escalation.action === "approve" || escalation.action === "reject") {
    const outcome = escalation.action === "approve" ? "approved" : "rejected";
    await recordEscalation(ctx, runId, index, `${overdue}, ${outcome === "approved" ? "the workflow goes on without it" : "rejected as the workflow says"}`, {
      outcome,
      detail: `${step.name}: ${outcome === "approved" ? "went on without an answer" : "rejected when overdue"}`,
    });
    return outcome;
  }
  const ticket = await formTicket(ctx, runId, index);
  const to = escalation.action === "reassign" ? escalation.to : step.to;
  await mailForm(ctx, state, index, step, ticket, to, escalation.action === "reassign" ? "instead" : "reminder");
  await recordEscalation(ctx, runId, index, `${overdue}, ${escalation.action === "reassign" ? `${to} asked instead` : `${to} reminded`}`);
  return "pending";
}

/** An overdue step's one escalation in its run's timeline, and the path it takes when it takes one (written once each, however often the engine runs it). */
export async function recordEscalation(ctx: ServiceContext, runId: string, index: number, detail: string, path?: { outcome: "approved" | "rejected"; detail: string }): Promise<void> {
  const at = ctx.now();
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-escalated`), runId, at, kind: "step.escalated", actorId: null, detail });
  if (path) await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-${path.outcome}`), runId, at, kind: `step.${path.outcome}`, actorId: null, detail: path.detail });
}

/** Whether the form step's person has answered (the answer recorded it in the timeline). */
export async function formAnswered(ctx: ServiceContext, runId: string, index: number): Promise<boolean> {
  return (await listRunEvents(ctx.db, runId)).some((event) => event.id === eventId(runId, `step-${index}-answered`));
}

/** The body a workflow webhook sends: which workflow, run and step, and what the run is about (names and ids, never contents). */
async function webhookBody(ctx: ServiceContext, state: Running, index: number, step: Step<"webhook">): Promise<string> {
  const documents = await runDocuments(ctx, state.run);
  return JSON.stringify({
    id: eventId(state.run.id, `step-${index}`),
    type: "workflow.step",
    workflow: { id: state.template.id, name: state.template.name },
    run: { id: state.run.id, startedAt: state.run.startedAt.toISOString(), link: `${mailOrigin(ctx)}/workflow-runs/${state.run.id}` },
    step: { index, name: step.name },
    documents: documents.map((file) => ({ id: file.id, name: file.name })),
    submission: state.run.subjectSubmissionId ? { kind: state.run.triggerKind, id: state.run.subjectSubmissionId } : null,
  });
}

/**
 * POSTs the step's event to its address, signed with the workflow's webhook secret like a form's
 * webhooks (`Strongroom-Signature`), with the same `Strongroom-Event-Id` on every attempt. A
 * failure (no answer in 10 s, a status outside 2xx) throws, and the engine tries again with its
 * backoff; after the last attempt the run fails with the reason.
 */
export async function callWebhook(ctx: ServiceContext, runId: string, index: number, step: Step<"webhook">, fetcher: typeof fetch = fetch): Promise<number | null> {
  const state = await running(ctx, runId);
  if (!state) return null;
  const secret = await decryptSecret(readConfig(ctx.env).SESSION_SECRET, step.secretSealed, "workflow-webhook");
  if (!secret) throw new NonRetryableError("The webhook's secret could not be read: build the step again.");
  const body = await webhookBody(ctx, state, index, step);
  const timestamp = Math.floor(ctx.now().getTime() / 1000);
  let response: Response;
  try {
    response = await fetcher(step.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Strongroom-Webhooks/1",
        "Strongroom-Event-Id": eventId(runId, `step-${index}`),
        "Strongroom-Signature": await webhookSignature(new TextDecoder().decode(secret), timestamp, body),
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
  } catch (caught) {
    throw new Error(caught instanceof Error && caught.name === "TimeoutError" ? `${step.name}: ${new URL(step.url).host} did not answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : `${step.name}: could not reach ${new URL(step.url).host}`);
  }
  await response.body?.cancel();
  if (response.status < 200 || response.status > 299) throw new Error(`${step.name}: ${new URL(step.url).host} answered ${response.status}`);
  await insertEvent(ctx.db, { id: eventId(runId, `step-${index}-called`), runId, at: ctx.now(), kind: "webhook.called", actorId: null, detail: `${step.name}: ${new URL(step.url).host} answered ${response.status}` });
  return response.status;
}
