import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "~/features/auth/secrets.server";
import { sendMail } from "~/features/mail/mailer.server";
import { mailOrigin } from "~/features/notifications/notifications.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { sendCaseFormSchema } from "./cases.schema";
import { findOwnForm } from "~/features/forms/forms.queries.server";
import { requireManagedCase, roomLog, takePart } from "./cases.server";
import { bindCaseRequest, findCaseRequestByTokenHash, findCase, findUserById, insertCaseRequest } from "./cases.queries.server";

/**
 * Outsiders acting on an open case (issue 41): the case's owner or assignee sends one of their
 * forms to someone (a member or not) for the case. The e-mailed link carries a ticket (its hash is
 * kept); the first submission of that form with it is filed into the case (`openCaseFromForm` →
 * `fileAnswerIntoCase`, after its files are in): the answer in the timeline, the files in the case
 * file. The person takes part in the case. A closed case, another form, or a used ticket file nothing.
 */

/** POST /api/cases/{id}/requests { formId, email, name, message }: sends the form for the case (201). */
export async function sendCaseForm(ctx: ServiceContext, userId: string, caseId: unknown, input: unknown): Promise<{ id: string }> {
  const row = await requireManagedCase(ctx, userId, caseId);
  if (row.status === "closed") throw new AppError("CONFLICT", "This case is closed: open it again before asking anyone for more.");
  const data = parseInput(sendCaseFormSchema, input);
  const form = await findOwnForm(ctx.db, userId, data.formId);
  if (!form || form.isTemplate) throw new AppError("VALIDATION_ERROR", "formId: Choose one of your forms.");
  // They take part in the case (once), so the case page shows who acts on it.
  const { name, userId: memberId } = await takePart(ctx, row, userId, data);
  const now = ctx.now();
  const { token, hash } = newLinkToken();
  const id = crypto.randomUUID();
  const detail = `Asked ${name} <${data.email}> to fill in “${form.title}”`;
  await insertCaseRequest(ctx.db, { id, caseId: row.id, formId: form.id, email: data.email, name, tokenHash: hash, requestedBy: userId, createdAt: now, submissionId: null, answeredAt: null }, { id: `${id}:sent`, caseId: row.id, at: now, kind: "case.requested", actorId: userId, fileId: null, detail });
  const sender = (await findUserById(ctx.db, userId))?.name ?? "A Strongroom member";
  await sendMail(ctx, {
    id: `${id}:mail`,
    to: data.email,
    userId: memberId,
    template: { kind: "case-request", senderName: sender, caseLabel: `${row.reference} ${row.title}`, form: form.title, message: data.message, link: `${mailOrigin(ctx)}/forms/${form.id}/view?task=${token}` },
  });
  await roomLog(ctx, row, userId, "case.change", detail);
  return { id };
}

/**
 * A form was submitted with a ticket (`_task`): when it is a case's request for this very form,
 * still unanswered, and the case is not closed, the submission answers it (bound now; filed into
 * the case by the form's case job once its files are in). The submission stands whatever happens here.
 */
export async function signalCaseFormAnswered(ctx: ServiceContext, answer: { ticket: unknown; formId: string; submissionId: string }): Promise<boolean> {
  if (typeof answer.ticket !== "string" || !LINK_TOKEN_PATTERN.test(answer.ticket)) return false;
  try {
    const request = await findCaseRequestByTokenHash(ctx.db, hashLinkToken(answer.ticket));
    if (!request || request.formId !== answer.formId || request.submissionId) return false;
    const row = await findCase(ctx.db, request.caseId);
    if (!row || row.status === "closed") return false;
    return await bindCaseRequest(ctx.db, request.id, answer.submissionId, ctx.now());
  } catch (error) {
    ctx.logger.warn("cases.request_signal_failed", { submissionId: answer.submissionId, error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}
