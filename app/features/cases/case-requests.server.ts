import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "~/features/auth/secrets.server";
import { sendMail } from "~/features/mail/mailer.server";
import { mailOrigin } from "~/features/notifications/notifications.server";
import { getReceivePage } from "~/features/receive/receive.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { sendCaseRequestSchema } from "./cases.schema";
import { findOwnForm } from "~/features/forms/forms.queries.server";
import { requireManagedCase, roomLog, takePart } from "./cases.server";
import { bindCaseRequest, findCaseRequestByTokenHash, findCase, findUserById, insertCaseRequest } from "./cases.queries.server";

/**
 * Outsiders acting on an open case (issue 41): the case's owner or assignee sends one of their
 * forms, or one of their receive pages, to someone (a member or not) for the case. The e-mailed
 * link carries a ticket (its hash is kept); the first submission of that form or page with it is
 * filed into the case once its files are in (`fileAnswerIntoCase`): the answer in the timeline,
 * the files in the case file. The person takes part in the case. A closed case, another form or
 * page, or a used ticket file nothing.
 */

/** What a request sends: a form (its questions) or a receive page (files), with where its link opens. */
type Sent = { kind: "form" | "receive"; id: string; title: string; path: string };

async function requireOwnSource(ctx: ServiceContext, userId: string, data: { formId?: string; receivePageId?: string }): Promise<Sent> {
  if (data.formId !== undefined) {
    const form = await findOwnForm(ctx.db, userId, data.formId);
    if (!form || form.isTemplate) throw new AppError("VALIDATION_ERROR", "formId: Choose one of your forms.");
    return { kind: "form", id: form.id, title: form.title, path: `/forms/${form.id}/view` };
  }
  const page = await getReceivePage(ctx, userId, data.receivePageId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") throw new AppError("VALIDATION_ERROR", "receivePageId: Choose one of your receive pages.");
    throw error;
  });
  if (page.status !== "open") throw new AppError("VALIDATION_ERROR", `receivePageId: “${page.title}” takes no files now (${page.status}): open it again, or choose another page.`);
  return { kind: "receive", id: page.id, title: page.title, path: page.path };
}

/** POST /api/cases/{id}/requests { formId | receivePageId, email, name, message }: sends the form or page for the case (201). */
export async function sendCaseRequest(ctx: ServiceContext, userId: string, caseId: unknown, input: unknown): Promise<{ id: string }> {
  const row = await requireManagedCase(ctx, userId, caseId);
  if (row.status === "closed") throw new AppError("CONFLICT", "This case is closed: open it again before asking anyone for more.");
  const data = parseInput(sendCaseRequestSchema, input);
  const sent = await requireOwnSource(ctx, userId, data);
  // They take part in the case (once), so the case page shows who acts on it.
  const { name, userId: memberId } = await takePart(ctx, row, userId, data);
  const now = ctx.now();
  const { token, hash } = newLinkToken();
  const id = crypto.randomUUID();
  const detail = sent.kind === "form" ? `Asked ${name} <${data.email}> to fill in “${sent.title}”` : `Asked ${name} <${data.email}> to send files through “${sent.title}”`;
  await insertCaseRequest(
    ctx.db,
    { id, caseId: row.id, formId: sent.kind === "form" ? sent.id : null, receivePageId: sent.kind === "receive" ? sent.id : null, email: data.email, name, tokenHash: hash, requestedBy: userId, createdAt: now, submissionId: null, answeredAt: null },
    { id: `${id}:sent`, caseId: row.id, at: now, kind: "case.requested", actorId: userId, fileId: null, detail },
  );
  const sender = (await findUserById(ctx.db, userId))?.name ?? "A Strongroom member";
  await sendMail(ctx, {
    id: `${id}:mail`,
    to: data.email,
    userId: memberId,
    template: { kind: "case-request", asks: sent.kind, senderName: sender, caseLabel: `${row.reference} ${row.title}`, form: sent.title, message: data.message, link: `${mailOrigin(ctx)}${sent.path}?task=${token}` },
  });
  await roomLog(ctx, row, userId, "case.change", detail);
  return { id };
}

/**
 * A form or receive page was submitted with a ticket (`_task` / `task`): when it is a case's
 * request for this very form or page, still unanswered, and the case is not closed, the submission
 * answers it (bound now; filed into the case by the case job once its files are in). The
 * submission stands whatever happens here.
 */
export async function signalCaseRequestAnswered(ctx: ServiceContext, answer: { ticket: unknown; source: { kind: "form" | "receive"; id: string }; submissionId: string }): Promise<boolean> {
  if (typeof answer.ticket !== "string" || !LINK_TOKEN_PATTERN.test(answer.ticket)) return false;
  try {
    const request = await findCaseRequestByTokenHash(ctx.db, hashLinkToken(answer.ticket));
    if (!request || request.submissionId) return false;
    if ((answer.source.kind === "form" ? request.formId : request.receivePageId) !== answer.source.id) return false;
    const row = await findCase(ctx.db, request.caseId);
    if (!row || row.status === "closed") return false;
    return await bindCaseRequest(ctx.db, request.id, answer.submissionId, ctx.now());
  } catch (error) {
    ctx.logger.warn("cases.request_signal_failed", { submissionId: answer.submissionId, error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}
