import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { checkAnswers } from "./form-answers";
import type { FormDefinition } from "./form-fields";
import { isUuidShape } from "./forms.constants";
import { findPublishedForm, listPublishedFormsOf } from "./forms.queries.server";
import { answerText } from "./submission-view";

/**
 * Receive pages backed by a form (issue 37, the spec's "form receive page"): a receive page's
 * editor picks one of the member's published forms instead of its own fields; the page then asks
 * the form's questions (its newest published version, logic included) above its files. The
 * answers are checked by the form's own rules and kept with the receive page's submission and on
 * each file, as the page's own fields are. The receive page takes the files, so the form must not
 * ask for files itself.
 */

export type ReceiveFormChoice = { id: string; title: string; version: number };
export type ReceivePageQuestions = { formId: string; title: string; version: number; definition: FormDefinition };

const NOT_A_CHOICE = "Choose one of your published forms for this page's questions.";

/** The forms a receive page may ask the questions of: the member's published ones without file questions. */
export async function listReceiveFormChoices(ctx: ServiceContext, userId: string): Promise<ReceiveFormChoice[]> {
  const published = await listPublishedFormsOf(ctx.db, userId);
  return published.filter((form) => !form.definition.fields.some((field) => field.type === "file")).map(({ id, title, version }) => ({ id, title, version }));
}

/** A form a member may back their receive page with: their own, published, without file questions; else a 400 with why. */
export async function assertReceiveForm(ctx: ServiceContext, userId: string, formId: string): Promise<void> {
  const found = isUuidShape(formId) ? await findPublishedForm(ctx.db, formId) : undefined;
  if (!found || found.form.userId !== userId) throw new AppError("VALIDATION_ERROR", NOT_A_CHOICE, { fieldErrors: { formId: [NOT_A_CHOICE] } });
  if (found.version.definition.fields.some((field) => field.type === "file")) {
    const message = "This form asks for files itself: the receive page takes the files. Choose a form without file questions.";
    throw new AppError("VALIDATION_ERROR", message, { fieldErrors: { formId: [message] } });
  }
}

/** The questions a receive page asks from its form now (its newest published version), or null when the form is gone or no longer published. */
export async function receivePageQuestions(ctx: ServiceContext, ownerId: string, formId: string | null): Promise<ReceivePageQuestions | null> {
  if (!formId) return null;
  const found = await findPublishedForm(ctx.db, formId);
  if (!found || found.form.userId !== ownerId) return null;
  return { formId, title: found.version.title, version: found.version.version, definition: found.version.definition };
}

/** A visitor's answers to the form's questions, checked by its rules: [{ label, value }] to keep, or a 400 with a message per question. */
export function receiveFormAnswers(questions: ReceivePageQuestions, raw: Readonly<Record<string, unknown>>): { label: string; value: string }[] {
  const checked = checkAnswers(questions.definition, raw);
  const fieldErrors = Object.fromEntries(Object.entries(checked.errors).map(([id, message]) => [id, [message]]));
  const first = Object.values(checked.errors)[0];
  if (first) throw new AppError("VALIDATION_ERROR", first, { fieldErrors });
  return questions.definition.fields
    .filter((field) => checked.values[field.id] !== undefined)
    .map((field) => ({ label: (field.label || field.id).slice(0, 300), value: answerText(checked.values[field.id]).slice(0, 1_000) }));
}
