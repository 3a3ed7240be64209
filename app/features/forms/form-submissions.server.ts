import { signalCaseRequestAnswered } from "~/features/cases/case-requests.server";
import { signalFormAnswered } from "~/features/workflows/workflow-signals.server";
import { TIER_LABELS } from "~/features/access/access.constants";
import { loadMemberAccess } from "~/features/access/access.server";
import { checkFeature } from "~/features/access/access-check";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { isPageUnlocked, type PageLock, unlockPage } from "~/features/auth/page-unlock.server";
import { confirmEmailCode, EMAIL_PROOF_TTL_MS, type EmailProofScope, readEmailProof, sendEmailCode } from "~/features/auth/email-proof.server";
import { verifyTurnstile } from "~/features/auth/turnstile.server";
import { announceSubmission, chosenFilesOf, type FormFilesStarted, prepareFormFiles, startedFiles } from "./form-files.server";
import { answerText, submissionView, type SubmissionView } from "./submission-view";
import { readConfig } from "~/lib/config.server";
import { readCookie } from "~/lib/cookies";
import { parseInput } from "~/lib/validation";
import { z } from "zod";
import { csvFileName, csvLine } from "~/lib/csv";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { type AnswerErrors, answersFromFormData, checkAnswers, FORM_ERROR_KEY } from "./form-answers";
import { type FormDefinition, type FormField, takesAnswer } from "./form-definition";
import { FORM_LIMITS, FORM_SUBMISSIONS_PER_HOUR, FORM_UNLOCK_COOKIE, FORM_UNLOCK_TTL_MS, HONEYPOT_FIELD, SUBMISSION_NOT_FOUND, SUBMISSIONS_PAGE_SIZE, isUuidShape } from "./forms.constants";
import { type SubmissionFilters, completeVisit, countFormViews, hasAnsweredAs, countRealSubmissions, deleteTestSubmissions, findPublishedForm, findSubmission, insertSubmissionWithinLimits, listSubmissionsPage, trashSubmission, type FormRow } from "./forms.queries.server";
import { openForm } from "./form-access.server";
import { definitionOfVersion, formStatus } from "./forms.server";

/**
 * A form's public side and its submissions (issue 37, docs/forms.md). The public form answers the
 * newest published version; the preview (test mode) answers the draft, for its owner only, and its
 * submissions are marked as tests. Either way the answers go through `checkAnswers`, the same
 * check the browser runs: a hidden field's answer is never stored, and nothing is stored unless
 * every shown answer is acceptable.
 */

export const FORM_MISSING = "This form does not exist. Check the address you were given.";

export type PublicForm = {
  id: string;
  title: string;
  description: string;
  ownerName: string;
  version: number;
  definition: FormDefinition;
};

export type FormOpening =
  | { state: "missing" }
  | { state: "password"; title: string; ownerName: string }
  /** One submission per verified address: the visitor proves theirs first (`pendingEmail`: a code was sent; `answered`: that address has answered). */
  | { state: "email"; title: string; ownerName: string; pendingEmail: string | null; answered: string | null }
  | { state: "closed"; title: string; ownerName: string; reason: "closed" | "past-closing" | "full" }
  | { state: "open"; form: PublicForm; test: boolean; turnstileSiteKey?: string | null; verifiedEmail?: string | null };

async function ownerAllowsForms(ctx: ServiceContext, userId: string): Promise<boolean> {
  const access = await loadMemberAccess(ctx, userId);
  return checkFeature(access, "forms");
}

function closedReason(form: FormRow, now: Date): "closed" | "past-closing" | null {
  if (!form.isOpen) return "closed";
  if (form.closesAt && form.closesAt.getTime() <= now.getTime()) return "past-closing";
  return null;
}

const lockOf = (form: FormRow): PageLock => ({ purpose: "form-unlock", id: form.id, passwordHash: form.passwordHash });

/** The Set-Cookie value for an unlocked form (the API's submissions need it too, so its path is /). */
export function formUnlockCookie(value: string, isSecure: boolean): string {
  return `${FORM_UNLOCK_COOKIE}=${value}; Path=/; Max-Age=${FORM_UNLOCK_TTL_MS / 1000}; HttpOnly; SameSite=Lax${isSecure ? "; Secure" : ""}`;
}

export function readFormUnlockCookie(cookieHeader: string | null | undefined): string | null {
  return readCookie(cookieHeader, FORM_UNLOCK_COOKIE);
}

// ---- one submission per verified e-mail address -------------------------------------------------------

const emailScope = (formId: string): EmailProofScope => ({ purpose: "form-email", id: formId, sendAction: "form-code-send", checkAction: "form-code" });

/** The cookie that proves a visitor's address for one form (its own name, so two forms open at once keep theirs). */
export function formEmailCookieName(formId: string): string {
  return `form_email_${formId.replace(/-/g, "")}`;
}

export function formEmailCookie(formId: string, value: string, isSecure: boolean): string {
  return `${formEmailCookieName(formId)}=${value}; Path=/; Max-Age=${value ? EMAIL_PROOF_TTL_MS / 1000 : 0}; HttpOnly; SameSite=Lax${isSecure ? "; Secure" : ""}`;
}

export function readFormEmailCookie(cookieHeader: string | null | undefined, formId: string): string | null {
  return isUuidShape(formId) ? readCookie(cookieHeader, formEmailCookieName(formId)) : null;
}

async function openFormForEmail(ctx: ServiceContext, id: string, cookie: string | null | undefined) {
  const found = isUuidShape(id) ? await findPublishedForm(ctx.db, id) : undefined;
  if (!found || !(await ownerAllowsForms(ctx, found.form.userId)) || closedReason(found.form, ctx.now())) throw new AppError("NOT_FOUND", FORM_MISSING);
  if (!(await isPageUnlocked(ctx, lockOf(found.form), cookie))) throw new AppError("UNAUTHENTICATED", "Enter the form's password first (reload the page).");
  if (!found.form.verifyEmail) throw new AppError("CONFLICT", "This form does not ask for a code: reload the page.");
  return found;
}

/** The e-mail step: a code mailed to the address (the form's title and owner in the message); the pending cookie's value. */
export async function requestFormEmailCode(ctx: ServiceContext, id: string, input: { email: unknown; cookie?: string | null }): Promise<string> {
  const found = await openFormForEmail(ctx, id, input.cookie);
  const { cookie } = await sendEmailCode(ctx, emailScope(id), input.email, (code, minutes) => ({ kind: "form-email-code", code, minutes, formTitle: found.version.title, ownerName: found.ownerName }));
  return cookie;
}

/** The code step: the right code proves the address for this form (12 hours); the proof cookie's value. */
export async function confirmFormEmailCode(ctx: ServiceContext, id: string, input: { code: unknown; emailCookie: string | null; cookie?: string | null }): Promise<string> {
  await openFormForEmail(ctx, id, input.cookie);
  return (await confirmEmailCode(ctx, emailScope(id), input.emailCookie, input.code)).cookie;
}

const unlockSchema = z.object({ password: z.string({ error: "Enter the form's password." }).min(1, "Enter the form's password.").max(1_000) }, { error: "Enter the form's password." });

/** The password gate of /forms/{id}/view: the right password gives the cookie's value (12 hours, this form, this password). */
export async function unlockForm(ctx: ServiceContext, id: string, input: unknown): Promise<string> {
  const found = isUuidShape(id) ? await findPublishedForm(ctx.db, id) : undefined;
  if (!found) throw new AppError("NOT_FOUND", FORM_MISSING);
  const { password } = parseInput(unlockSchema, input);
  return unlockPage(ctx, lockOf(found.form), password, { action: "form-password", ttlMs: FORM_UNLOCK_TTL_MS, wrong: "That password is not right. Check it with the person who sent you the link." });
}

/** /forms/{id}/view: the newest published version, or why it takes no answers. Counts a view. */
export async function openPublicForm(ctx: ServiceContext, id: string, options: { countView?: boolean; cookie?: string | null; emailCookie?: string | null } = {}): Promise<FormOpening> {
  if (!isUuidShape(id)) return { state: "missing" };
  const found = await findPublishedForm(ctx.db, id);
  if (!found || !(await ownerAllowsForms(ctx, found.form.userId))) return { state: "missing" };
  const reason = closedReason(found.form, ctx.now());
  if (reason) return { state: "closed", title: found.version.title, ownerName: found.ownerName, reason };
  if (found.form.maxSubmissions !== null && (await countRealSubmissions(ctx.db, found.form.id)) >= found.form.maxSubmissions) {
    return { state: "closed", title: found.version.title, ownerName: found.ownerName, reason: "full" };
  }
  if (!(await isPageUnlocked(ctx, lockOf(found.form), options.cookie))) return { state: "password", title: found.version.title, ownerName: found.ownerName };
  let verifiedEmail: string | null = null;
  if (found.form.verifyEmail) {
    const proof = await readEmailProof(ctx, emailScope(id), options.emailCookie);
    const answered = proof?.verified && (await hasAnsweredAs(ctx.db, id, proof.email)) ? proof.email : null;
    if (!proof?.verified || answered) return { state: "email", title: found.version.title, ownerName: found.ownerName, pendingEmail: proof && !proof.verified ? proof.email : null, answered };
    verifiedEmail = proof.email;
  }
  if (options.countView) await countFormViews(ctx.db, id);
  const { version } = found;
  const config = readConfig(ctx.env);
  return {
    state: "open",
    test: false,
    form: { id, title: version.title, description: version.description, ownerName: found.ownerName, version: version.version, definition: version.definition },
    turnstileSiteKey: config.isTurnstileEnabled ? (config.TURNSTILE_SITE_KEY ?? null) : null,
    verifiedEmail,
  };
}

/** /forms/{id}/preview: the draft, for its owner, in test mode (whether or not it is published or open). */
export async function openPreview(ctx: ServiceContext, userId: string, id: string): Promise<FormOpening & { state: "open" }> {
  const { form } = await openForm(ctx, userId, id, "form.view");
  return { state: "open", test: true, form: { id, title: form.title, description: form.description, ownerName: "", version: 0, definition: form.draft } };
}

export type SubmitResult =
  | { ok: true; submissionId: string; thankYouMessage: string; redirectUrl: string | null; test: boolean; files?: FormFilesStarted }
  | { ok: false; message: string; errors: AnswerErrors };

function refusal(errors: AnswerErrors): SubmitResult {
  const count = Object.keys(errors).filter((key) => key !== FORM_ERROR_KEY).length;
  const message = errors[FORM_ERROR_KEY] ?? (count === 1 ? "One answer needs your attention." : `${count} answers need your attention.`);
  return { ok: false, message, errors };
}

/**
 * A visitor's submission (`test`: the owner's, from the preview, against the draft). Malformed or
 * unacceptable answers come back as `ok: false` with a message per field and nothing is stored;
 * a form that is missing, closed or full is an AppError (404, 410).
 */
export async function submitForm(
  ctx: ServiceContext,
  id: string,
  input: { answers: Readonly<Record<string, unknown>> } | { formData: FormData },
  options: { testBy?: string; cookie?: string | null; emailCookie?: string | null } = {},
): Promise<SubmitResult> {
  const test = options.testBy !== undefined;
  let form: FormRow;
  let definition: FormDefinition;
  let version: number;
  let verifiedEmail: string | null = null;
  if (test) {
    form = (await openForm(ctx, options.testBy!, id, "form.edit")).form;
    definition = form.draft;
    version = 0;
  } else {
    const found = isUuidShape(id) ? await findPublishedForm(ctx.db, id) : undefined;
    if (!found || !(await ownerAllowsForms(ctx, found.form.userId))) throw new AppError("NOT_FOUND", FORM_MISSING);
    if (closedReason(found.form, ctx.now())) throw new AppError("GONE", "This form is closed: it takes no more answers.");
    if (!(await isPageUnlocked(ctx, lockOf(found.form), options.cookie))) throw new AppError("UNAUTHENTICATED", "Enter the form's password first (reload the page).");
    if (found.form.verifyEmail) {
      const proof = await readEmailProof(ctx, emailScope(id), options.emailCookie);
      if (!proof?.verified) throw new AppError("UNAUTHENTICATED", "Confirm your e-mail address with the code we send it first (reload the page).");
      verifiedEmail = proof.email;
    }
    form = found.form;
    definition = found.version.definition;
    version = found.version.version;
  }
  // A plain form post (the page without JavaScript) sends strings; multiple choices come as repeats.
  const raw = "answers" in input ? input.answers : answersFromFormData(input.formData, definition);
  const now = ctx.now();
  const submissionId = crypto.randomUUID();
  const done: SubmitResult = { ok: true, submissionId, thankYouMessage: form.thankYouMessage, redirectUrl: form.redirectUrl, test };
  // A bot filled in the field people never see: it is thanked, and nothing is kept.
  const honeypot = "answers" in input ? input.answers[HONEYPOT_FIELD] : input.formData.get(HONEYPOT_FIELD);
  if (typeof honeypot === "string" && honeypot !== "") return done;
  if (!test) {
    const ip = ctx.client.ip;
    const turnstileToken = "answers" in input ? input.answers["cf-turnstile-response"] : input.formData.get("cf-turnstile-response");
    if (!(await verifyTurnstile(readConfig(ctx.env), { token: typeof turnstileToken === "string" ? turnstileToken : undefined, ip, idempotencyKey: crypto.randomUUID() }))) {
      throw new AppError("FORBIDDEN", "Confirm you are a person (the check above the Send button), then send again.");
    }
    await consumeAttempt(ctx.env, "form-submit", { account: `${form.id}:${ip ?? "unknown"}`, ip }, { limit: FORM_SUBMISSIONS_PER_HOUR, windowMs: 3600_000 }, (minutes) =>
      `Too many submissions from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
    );
  }
  const checked = checkAnswers(definition, raw);
  if (Object.keys(checked.errors).length > 0) return refusal(checked.errors);
  // Files (JavaScript only): checked whole against the owner's folder and quota before anything is written.
  // In test mode they are checked like a visitor's and not uploaded (the preview fills no folder).
  const chosen = chosenFilesOf(definition, raw, checked.values);
  // A page post (no JavaScript) cannot carry them through the resumable path: refused, nothing kept.
  if (chosen.length > 0 && !("answers" in input)) return refusal({ [chosen[0]!.fieldId]: "Sending files needs JavaScript: turn it on, reload the page and choose the file again." });
  const prepared = chosen.length > 0 && !test ? await prepareFormFiles(ctx, form, chosen, { definition, values: checked.values, submissionId, now }) : undefined;
  const access = await loadMemberAccess(ctx, form.userId);
  const limits = FORM_LIMITS[access.tier];
  const written = await insertSubmissionWithinLimits(
    ctx.db,
    { id: submissionId, formId: form.id, ownerId: form.userId, version, answers: checked.values, isTest: test, pagesSeen: checked.state.path.length, createdAt: now, verifiedEmail },
    { maxSubmissions: form.maxSubmissions, perMonth: limits.submissionsPerMonth },
    prepared,
  );
  if (!written) {
    if (verifiedEmail && (await hasAnsweredAs(ctx.db, form.id, verifiedEmail))) throw new AppError("CONFLICT", `${verifiedEmail} has already answered this form: it takes one answer per e-mail address.`);
    if (form.maxSubmissions !== null && (await countRealSubmissions(ctx.db, form.id)) >= form.maxSubmissions) throw new AppError("GONE", "This form has all the answers it takes: it is closed.");
    ctx.logger.warn("forms.monthly_limit", { formId: form.id, tier: access.tier });
    throw new AppError("GONE", `This form takes no more answers this month (the owner's ${TIER_LABELS[access.tier]} plan limit). Try again next month, or tell the person who sent you the link.`);
  }
  if (!test) {
    const visit = "answers" in input ? input.answers._visit : input.formData.get("_visit");
    if (typeof visit === "string" && /^[A-Za-z0-9_-]{16,40}$/.test(visit)) await completeVisit(ctx.db, form.id, visit, now);
    // Sent from a workflow's form step (the link carried its ticket): the waiting run goes on.
    const ticket = "answers" in input ? input.answers._task : input.formData.get("_task");
    const name = checked.values.name;
    await signalFormAnswered(ctx, { ticket, formId: form.id, submissionId, who: verifiedEmail ?? (typeof name === "string" ? name : null) });
    // Sent for a case (the link carried a case's ticket): the submission answers it, filed into the case once its files are in.
    await signalCaseRequestAnswered(ctx, { ticket, source: { kind: "form", id: form.id }, submissionId });
    // With files, the owner hears of it once they are in (settleFormSubmission); without, now.
    if (!prepared) await announceSubmission(ctx, form, { id: submissionId, version, answers: checked.values, files: [], verifiedEmail });
  }
  return prepared ? { ...done, files: startedFiles(prepared) } : done;
}

export type SubmissionFilterInput = { q?: string | null; from?: string | null; to?: string | null; version?: string | null };

const DAY_MS = 24 * 3600_000;

function dayOf(value: string, what: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) throw new AppError("VALIDATION_ERROR", `${what} is a date such as 2026-11-27.`, { fieldErrors: { [what === "From" ? "from" : "to"]: [`${what} is a date such as 2026-11-27.`] } });
  return date;
}

/** The list's filters from the address (?q=&from=&to=&version=), checked: a clear 400 for a malformed one. */
export function readSubmissionFilters(input: SubmissionFilterInput): SubmissionFilters {
  const filters: SubmissionFilters = {};
  const q = (input.q ?? "").trim();
  if (q.length > 100) throw new AppError("VALIDATION_ERROR", "Search for at most 100 characters.", { fieldErrors: { q: ["Search for at most 100 characters."] } });
  if (q) filters.terms = q.split(/\s+/).slice(0, 5);
  if (input.from) filters.from = dayOf(input.from, "From");
  if (input.to) filters.before = new Date(dayOf(input.to, "To").getTime() + DAY_MS);
  if (filters.from && filters.before && filters.before.getTime() <= filters.from.getTime()) throw new AppError("VALIDATION_ERROR", "“To” is before “From”: swap them.", { fieldErrors: { to: ["“To” is before “From”."] } });
  if (input.version) {
    if (!/^\d{1,6}$/.test(input.version)) throw new AppError("VALIDATION_ERROR", "Version is a whole number, such as 2.", { fieldErrors: { version: ["Version is a whole number, such as 2."] } });
    filters.version = Number(input.version);
  }
  return filters;
}

function decodeCursor(cursor: string | undefined): { createdAt: number; id: string } | undefined {
  if (!cursor) return undefined;
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(cursor);
  if (!match) throw new AppError("VALIDATION_ERROR", "That page of submissions does not exist: start from the first page.");
  return { createdAt: Number(match[1]), id: match[2]! };
}

/** GET /api/forms/:id/submissions: one page (newest first), the test ones with `test`. */
export async function listFormSubmissions(
  ctx: ServiceContext,
  userId: string,
  formId: string,
  options: { test?: boolean; cursor?: string; filters?: SubmissionFilterInput } = {},
): Promise<{ form: { id: string; title: string; columns: FormField[]; versions: number }; submissions: SubmissionView[]; nextCursor: string | null }> {
  const { form } = await openForm(ctx, userId, formId, "form.view");
  const filters = readSubmissionFilters(options.filters ?? {});
  const rows = await listSubmissionsPage(ctx.db, formId, { test: options.test ?? false, limit: SUBMISSIONS_PAGE_SIZE + 1, before: decodeCursor(options.cursor), filters });
  const page = rows.slice(0, SUBMISSIONS_PAGE_SIZE);
  const cache = new Map<number, FormDefinition | undefined>();
  const submissions: SubmissionView[] = [];
  for (const row of page) submissions.push(submissionView(row, await definitionOfVersion(ctx, form, row.version, cache)));
  const last = page.at(-1);
  // The list's columns: the draft's first three questions.
  const columns = form.draft.fields.filter((field) => takesAnswer(field.type)).slice(0, 3);
  return { form: { id: form.id, title: form.title, columns, versions: form.publishedVersion ?? 0 }, submissions, nextCursor: rows.length > SUBMISSIONS_PAGE_SIZE && last ? `${last.createdAt.getTime()}.${last.id}` : null };
}

/** GET /api/forms/:id/submissions/:sid */
export async function getFormSubmission(ctx: ServiceContext, userId: string, formId: string, id: string): Promise<{ form: { id: string; title: string; status: ReturnType<typeof formStatus>; fillsPdf: boolean }; submission: SubmissionView }> {
  const { form } = await openForm(ctx, userId, formId, "form.view");
  const row = isUuidShape(id) ? await findSubmission(ctx.db, formId, id) : undefined;
  if (!row) throw new AppError("NOT_FOUND", SUBMISSION_NOT_FOUND);
  return { form: { id: form.id, title: form.title, status: formStatus(form, ctx.now()), fillsPdf: form.pdfMap !== null }, submission: submissionView(row, await definitionOfVersion(ctx, form, row.version)) };
}

/** DELETE /api/forms/:id/submissions/:sid: to the trash. */
export async function deleteFormSubmission(ctx: ServiceContext, userId: string, formId: string, id: string): Promise<void> {
  await openForm(ctx, userId, formId, "form.delete");
  if (!isUuidShape(id) || !(await trashSubmission(ctx.db, formId, id, ctx.now()))) throw new AppError("NOT_FOUND", SUBMISSION_NOT_FOUND);
}

/** DELETE /api/forms/:id/test-submissions: the preview's submissions cleared. */
export async function clearTestSubmissions(ctx: ServiceContext, userId: string, formId: string): Promise<number> {
  await openForm(ctx, userId, formId, "form.edit");
  return deleteTestSubmissions(ctx.db, formId);
}

const EXPORT_PAGE = 500;

/**
 * GET /api/forms/:id/submissions.csv: every submission (or every test one), newest first, as CSV
 * (RFC 4180, formulas defused). Columns: when, the version, then the questions of the newest
 * version in order; answers to questions a later version dropped go into "Other answers" with their
 * label. Written page by page into the response, so a large form never sits whole in memory.
 */
export async function exportSubmissionsCsv(ctx: ServiceContext, userId: string, formId: string, options: { test?: boolean; filters?: SubmissionFilterInput } = {}): Promise<{ filename: string; body: ReadableStream<Uint8Array> }> {
  const { form } = await openForm(ctx, userId, formId, "form.view");
  const filters = readSubmissionFilters(options.filters ?? {});
  const cache = new Map<number, FormDefinition | undefined>();
  const newest = (form.publishedVersion ? await definitionOfVersion(ctx, form, form.publishedVersion, cache) : undefined) ?? form.draft;
  const columns = newest.fields.filter((field) => takesAnswer(field.type));
  const known = new Set(columns.map((field) => field.id));
  const encoder = new TextEncoder();
  let before: { createdAt: number; id: string } | undefined;
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvLine(["Submitted (UTC)", "Version", ...columns.map((field) => field.label || field.id), "Other answers"])));
      }
      const rows = await listSubmissionsPage(ctx.db, formId, { test: options.test ?? false, limit: EXPORT_PAGE, before, filters });
      let chunk = "";
      for (const row of rows) {
        const definition = await definitionOfVersion(ctx, form, row.version, cache);
        const labelOf = (id: string) => definition?.fields.find((field) => field.id === id)?.label || id;
        const text = (value: string | string[] | undefined) => (value === undefined ? null : Array.isArray(value) ? value.join("; ") : answerText(value));
        const others = Object.entries(row.answers)
          .filter(([id]) => !known.has(id))
          .map(([id, value]) => `${labelOf(id)}: ${text(value)}`)
          .join(" | ");
        chunk += csvLine([row.createdAt.toISOString().slice(0, 19).replace("T", " "), row.version === 0 ? "draft" : row.version, ...columns.map((field) => text(row.answers[field.id])), others || null]);
      }
      if (chunk) controller.enqueue(encoder.encode(chunk));
      const last = rows.at(-1);
      if (rows.length < EXPORT_PAGE || !last) controller.close();
      else before = { createdAt: last.createdAt.getTime(), id: last.id };
    },
  });
  return { filename: csvFileName(form.title, options.test ? "test-submissions" : "submissions", "form"), body };
}
