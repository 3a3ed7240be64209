import { TIER_LABELS } from "~/features/access/access.constants";
import type { MemberAccess } from "~/features/access/access.server";
import { hashPassword, scryptParamsFor } from "~/features/auth/password.server";
import { ensurePersonalSpace, requireFolderAccess } from "~/features/files/spaces.server";
import { requireIntakeCaseType } from "~/features/cases/cases.server";
import { defaultFolderId } from "~/features/files/folders.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { EMPTY_DEFINITION, type FormDefinition, formDefinitionSchema, takesAnswer } from "./form-definition";
import { builtInTemplate } from "./form-templates";
import { GENERATE_PROMPT_MAX, generateFormOffline } from "./form-generator";
import { formAi, generateFormWithAi } from "./form-ai.server";
import { z } from "zod";
import { type FORM_LIMITS } from "./forms.constants";
import { moveIntoTeamSchema } from "~/features/teams/teams.schema";
import { requireTeamModuleRight, teamModuleRights } from "~/features/teams/team-access.server";
import { formsPlan, openForm } from "./form-access.server";
import { countLiveForms, findOwnForm, findVersion, insertForm, insertVersionAndPublish, listFormsOf, listTeamForms, setFormTeam, updateFormIfRevision, updateFormRow, type FormRow } from "./forms.queries.server";
import { createFormSchema, formSettingsSchema, saveDraftSchema } from "./forms.schema";

/**
 * Forms, the member's side (issue 37, docs/forms.md): make one (blank, from a built-in template or
 * from their own), save the draft as the builder edits it, publish it as a frozen version, change
 * its public settings, send it to the trash. Every call checks the `forms` feature of the member's
 * plan; a form of someone else's is "not found".
 */

export type FormStatus = "draft" | "published" | "closed";

export type FormSummary = {
  id: string;
  title: string;
  status: FormStatus;
  isTemplate: boolean;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  submissions: number;
  lastSubmissionAt: string | null;
  /** The public form's path (/forms/{id}/view); null until published. */
  publicPath: string | null;
  updatedAt: string;
};

export type FormDetail = FormSummary & {
  description: string;
  revision: number;
  definition: FormDefinition;
  settings: { isOpen: boolean; closesAt: string | null; maxSubmissions: number | null; thankYouMessage: string; redirectUrl: string | null; hasPassword: boolean; embedOrigins: string[]; fileFolderId: string | null; caseTypeId: string | null; filesPerSubmission: boolean; verifyEmail: boolean };
  views: number;
  createdAt: string;
};

export function formStatus(form: Pick<FormRow, "publishedVersion" | "isOpen" | "closesAt">, now: Date): FormStatus {
  if (form.publishedVersion === null) return "draft";
  if (!form.isOpen || (form.closesAt && form.closesAt.getTime() <= now.getTime())) return "closed";
  return "published";
}

function summary(ctx: ServiceContext, form: FormRow, submissions: number, lastSubmissionAt: number | null): FormSummary {
  return {
    id: form.id,
    title: form.title,
    status: formStatus(form, ctx.now()),
    isTemplate: form.isTemplate,
    publishedVersion: form.publishedVersion,
    hasUnpublishedChanges: form.publishedVersion !== null && form.publishedRevision !== form.revision,
    submissions,
    lastSubmissionAt: lastSubmissionAt === null ? null : new Date(lastSubmissionAt).toISOString(),
    publicPath: form.publishedVersion !== null && !form.isTemplate ? `/forms/${form.id}/view` : null,
    updatedAt: form.updatedAt.toISOString(),
  };
}

function detail(ctx: ServiceContext, form: FormRow, submissions = 0): FormDetail {
  return {
    ...summary(ctx, form, submissions, null),
    description: form.description,
    revision: form.revision,
    definition: form.draft,
    settings: { isOpen: form.isOpen, closesAt: form.closesAt?.toISOString() ?? null, maxSubmissions: form.maxSubmissions, thankYouMessage: form.thankYouMessage, redirectUrl: form.redirectUrl, hasPassword: form.passwordHash !== null, embedOrigins: form.embedOrigins, fileFolderId: form.fileFolderId, caseTypeId: form.caseTypeId, filesPerSubmission: form.filesPerSubmission, verifyEmail: form.verifyEmail },
    views: form.views,
    createdAt: form.createdAt.toISOString(),
  };
}

export { formsPlan, openForm } from "./form-access.server";

/** The questions a submission of `version` answered: the draft for a test one (version 0), else that frozen version (cached per call site). */
export async function definitionOfVersion(ctx: ServiceContext, form: Pick<FormRow, "id" | "draft">, version: number, cache = new Map<number, FormDefinition | undefined>()): Promise<FormDefinition | undefined> {
  if (version === 0) return form.draft;
  if (!cache.has(version)) cache.set(version, (await findVersion(ctx.db, form.id, version))?.definition);
  return cache.get(version);
}


function assertLogicAllowed(limits: (typeof FORM_LIMITS)[keyof typeof FORM_LIMITS], access: MemberAccess, definition: Pick<FormDefinition, "rules">): void {
  if (!limits.logic && definition.rules.length > 0) {
    throw new AppError("FORBIDDEN", `Conditional logic is not part of your ${TIER_LABELS[access.tier]} plan. Remove the rules, or upgrade your plan.`);
  }
}

/**
 * GET /api/forms: the member's forms (or own templates with `templates`). `workspace` narrows them
 * (issue 42): a team's id lists the team's forms (to whoever may see them), null the member's forms
 * of no team; left out, every form they created.
 */
export async function listForms(ctx: ServiceContext, userId: string, options: { templates?: boolean; workspace?: string | null } = {}): Promise<FormSummary[]> {
  if (options.workspace) {
    const rights = await teamModuleRights(ctx, userId, options.workspace, "form");
    if (!rights.includes("form.view") || options.templates) return [];
    const rows = await listTeamForms(ctx.db, options.workspace, false);
    return rows.map((row) => summary(ctx, row.form, row.submissions, row.lastSubmissionAt));
  }
  await formsPlan(ctx, userId);
  const rows = await listFormsOf(ctx.db, userId, options.templates ?? false, { personalOnly: options.workspace === null });
  return rows.map((row) => summary(ctx, row.form, row.submissions, row.lastSubmissionAt));
}

/** What a new form starts from: a built-in template, one of the member's own, or nothing. */
async function startingPoint(ctx: ServiceContext, userId: string, templateId: string | undefined): Promise<{ title: string; description: string; definition: FormDefinition }> {
  if (!templateId) return { title: "Untitled form", description: "", definition: EMPTY_DEFINITION };
  const builtIn = builtInTemplate(templateId);
  if (builtIn) return { title: builtIn.title, description: builtIn.description, definition: structuredClone(builtIn.definition) };
  const own = await findOwnForm(ctx.db, userId, templateId);
  if (!own || !own.isTemplate) throw new AppError("NOT_FOUND", "This template does not exist or you don't have access to it.");
  return { title: own.title, description: own.description, definition: structuredClone(own.draft) };
}

/** POST /api/forms → 201: a new draft (from `templateId` when given). */
export async function createForm(
  ctx: ServiceContext,
  userId: string,
  input: unknown,
  options: { asTemplate?: boolean; start?: { title: string; description: string; definition: FormDefinition }; teamId?: string } = {},
): Promise<FormDetail> {
  const data = parseInput(createFormSchema, input ?? {});
  // In a team's workspace (issue 42): the creator needs form.edit there; the form counts against their plan, like a team room.
  if (options.teamId) await requireTeamModuleRight(ctx, userId, options.teamId, "form", "form.edit");
  const { access, limits } = await formsPlan(ctx, userId);
  if (!options.asTemplate && limits.forms !== -1 && (await countLiveForms(ctx.db, userId)) >= limits.forms) {
    throw new AppError("FORBIDDEN", `Your ${TIER_LABELS[access.tier]} plan allows ${limits.forms} forms. Delete one you no longer need, or upgrade your plan for more.`);
  }
  const start = options.start ?? (await startingPoint(ctx, userId, data.templateId));
  const definition = limits.logic ? start.definition : { ...start.definition, rules: [] };
  const now = ctx.now();
  const form: FormRow = {
    id: crypto.randomUUID(),
    userId,
    teamId: options.asTemplate ? null : (options.teamId ?? null),
    title: data.title ?? start.title,
    description: start.description,
    draft: definition,
    revision: 1,
    publishedVersion: null,
    publishedRevision: null,
    isTemplate: options.asTemplate ?? false,
    isOpen: true,
    closesAt: null,
    maxSubmissions: null,
    thankYouMessage: "",
    redirectUrl: null,
    passwordHash: null,
    embedOrigins: [],
    // File answers go to the member's Inbox until they choose another folder (like a receive page).
    fileFolderId: await defaultFolderId(ctx, userId, "inbox"),
    caseTypeId: null,
    pdfMap: null,
    filesPerSubmission: false,
    verifyEmail: false,
    views: 0,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  await insertForm(ctx.db, form);
  return detail(ctx, form);
}

/** GET /api/forms/:id: the form with its draft, for the builder. */
export async function getForm(ctx: ServiceContext, userId: string, id: string): Promise<FormDetail> {
  return detail(ctx, (await openForm(ctx, userId, id, "form.view")).form);
}

export type EditorStart = {
  formId: string | null;
  /** Set when the page opened a template: the builder's first save makes the member's copy of it. */
  templateId: string | null;
  revision: number;
  title: string;
  description: string;
  definition: FormDefinition;
  status: FormStatus;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  publicPath: string | null;
  settings: FormDetail["settings"];
};

/**
 * /forms/{id}/edit (spec: "same builder; templateId taken from id"): a form opens in the builder;
 * a template (built-in, or one of the member's own) opens as an unsaved copy. Nothing is written
 * by opening the page: the builder's first save makes the copy (POST /api/forms with templateId).
 */
export async function openForEditing(ctx: ServiceContext, userId: string, id: string): Promise<EditorStart> {
  const builtIn = builtInTemplate(id);
  const opened = builtIn ? { ...(await formsPlan(ctx, userId)), form: undefined } : await openForm(ctx, userId, id, "form.edit");
  const { limits } = opened;
  const own = opened.form;
  if (builtIn || own?.isTemplate) {
    const definition = structuredClone(builtIn?.definition ?? own!.draft);
    return {
      formId: null,
      templateId: id,
      revision: 0,
      title: builtIn?.title ?? own!.title,
      description: builtIn?.description ?? own!.description,
      definition: limits.logic ? definition : { ...definition, rules: [] },
      status: "draft",
      publishedVersion: null,
      hasUnpublishedChanges: false,
      publicPath: null,
      settings: { isOpen: true, closesAt: null, maxSubmissions: null, thankYouMessage: "", redirectUrl: null, hasPassword: false, embedOrigins: [], fileFolderId: null, caseTypeId: null, filesPerSubmission: false, verifyEmail: false },
    };
  }
  const form = detail(ctx, own!);
  return { formId: form.id, templateId: null, revision: form.revision, title: form.title, description: form.description, definition: form.definition, status: form.status, publishedVersion: form.publishedVersion, hasUnpublishedChanges: form.hasUnpublishedChanges, publicPath: form.publicPath, settings: form.settings };
}

/** PUT /api/forms/:id/draft: the builder's save; refused (409) when the form changed since `revision`. */
export async function saveDraft(ctx: ServiceContext, userId: string, id: string, input: unknown): Promise<{ revision: number; updatedAt: string }> {
  const data = parseInput(saveDraftSchema, input);
  const { access, limits, form } = await openForm(ctx, userId, id, "form.edit");
  assertLogicAllowed(limits, access, data);
  const now = ctx.now();
  const saved = await updateFormIfRevision(ctx.db, form.userId, id, data.revision, { title: data.title, description: data.description, draft: { fields: data.fields, rules: data.rules }, updatedAt: now });
  if (!saved) {
    throw new AppError("CONFLICT", form.revision !== data.revision ? "This form was changed in another tab or window. Reload it to get the latest version, then make your change again." : undefined);
  }
  return { revision: data.revision + 1, updatedAt: now.toISOString() };
}

/**
 * POST /api/forms/:id/publish: the draft, checked whole (every field and rule must hold together,
 * at least one question), frozen as the next version. Submissions answer the newest version from
 * then on; earlier submissions keep theirs.
 */
export async function publishForm(ctx: ServiceContext, userId: string, id: string): Promise<FormDetail> {
  const { access, limits, form } = await openForm(ctx, userId, id, "form.edit");
  if (form.isTemplate) throw new AppError("VALIDATION_ERROR", "A template is not published: use it to make a form, then publish that.");
  const result = formDefinitionSchema.safeParse(form.draft);
  if (!result.success) {
    const first = result.error.issues[0];
    throw new AppError("VALIDATION_ERROR", `The form cannot be published yet: ${first?.message ?? "a field is not complete."}`, {
      fieldErrors: Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), [issue.message]])),
    });
  }
  if (!result.data.fields.some((field) => takesAnswer(field.type))) throw new AppError("VALIDATION_ERROR", "The form cannot be published yet: add at least one question.");
  assertLogicAllowed(limits, access, result.data);
  if (result.data.fields.some((field) => field.type === "file") && !form.fileFolderId) {
    throw new AppError("VALIDATION_ERROR", "The form cannot be published yet: choose the folder its files go to (Settings, “Files go to”).", { fieldErrors: { fileFolderId: ["Choose the folder the files go to."] } });
  }
  if (form.publishedVersion !== null && form.publishedRevision === form.revision) return detail(ctx, form);
  const now = ctx.now();
  const version = (form.publishedVersion ?? 0) + 1;
  await insertVersionAndPublish(ctx.db, form, { formId: form.id, version, title: form.title, description: form.description, definition: result.data, publishedAt: now }, now);
  return detail(ctx, { ...form, publishedVersion: version, publishedRevision: form.revision, updatedAt: now });
}

/** PATCH /api/forms/:id/settings: open or closed, closing date, maximum, thank-you message or redirect. */
export async function updateFormSettings(ctx: ServiceContext, userId: string, id: string, input: unknown): Promise<FormDetail> {
  const data = parseInput(formSettingsSchema, input);
  const { form } = await openForm(ctx, userId, id, "form.edit");
  // The files' folder: one the member may upload into, of their own or of a room (anyone else's is "not found").
  if (data.fileFolderId) await requireFolderAccess(ctx, userId, data.fileFolderId, "files.upload");
  // A case per submission: one of the member's case types; the case opens where the files go (their own files, or a data room they manage).
  const folderId = data.fileFolderId !== undefined ? data.fileFolderId : form.fileFolderId;
  const caseTypeId = data.caseTypeId !== undefined ? data.caseTypeId : form.caseTypeId;
  if (caseTypeId && (data.caseTypeId !== undefined || data.fileFolderId !== undefined)) {
    const spaceId = folderId ? (await requireFolderAccess(ctx, userId, folderId, "files.upload")).spaceId : (await ensurePersonalSpace(ctx, userId)).id;
    await requireIntakeCaseType(ctx, userId, caseTypeId, spaceId);
  }
  const now = ctx.now();
  const set = {
    ...(data.isOpen !== undefined ? { isOpen: data.isOpen } : {}),
    ...(data.closesAt !== undefined ? { closesAt: data.closesAt === null ? null : new Date(data.closesAt) } : {}),
    ...(data.maxSubmissions !== undefined ? { maxSubmissions: data.maxSubmissions } : {}),
    ...(data.thankYouMessage !== undefined ? { thankYouMessage: data.thankYouMessage } : {}),
    ...(data.redirectUrl !== undefined ? { redirectUrl: data.redirectUrl } : {}),
    ...(data.embedOrigins !== undefined ? { embedOrigins: [...new Set(data.embedOrigins)] } : {}),
    ...(data.password !== undefined ? { passwordHash: data.password === null ? null : await hashPassword(data.password, scryptParamsFor(ctx.env)) } : {}),
    ...(data.fileFolderId !== undefined ? { fileFolderId: data.fileFolderId } : {}),
    ...(data.caseTypeId !== undefined ? { caseTypeId: data.caseTypeId } : {}),
    ...(data.filesPerSubmission !== undefined ? { filesPerSubmission: data.filesPerSubmission } : {}),
    ...(data.verifyEmail !== undefined ? { verifyEmail: data.verifyEmail } : {}),
    updatedAt: now,
  };
  await updateFormRow(ctx.db, form.userId, id, set);
  return detail(ctx, { ...form, ...set });
}

/** POST /api/forms/:id/save-as-template: the form's draft kept as one of the member's templates. */
export async function saveAsTemplate(ctx: ServiceContext, userId: string, id: string): Promise<FormDetail> {
  const { form } = await openForm(ctx, userId, id, "form.view");
  const template = await createForm(ctx, userId, {}, { asTemplate: true });
  const now = ctx.now();
  await updateFormIfRevision(ctx.db, userId, template.id, template.revision, { title: form.title, description: form.description, draft: form.draft, updatedAt: now });
  return { ...template, title: form.title, description: form.description, definition: form.draft, revision: template.revision + 1 };
}

/**
 * POST /api/forms/:id/team: the maker moves a form of no team into a team's workspace where they
 * may edit forms (issue 42); its people then work on it by their place. It stays on the maker's plan.
 */
export async function moveFormIntoTeam(ctx: ServiceContext, userId: string, id: string, input: unknown): Promise<FormDetail> {
  const { form } = await openForm(ctx, userId, id, "form.edit");
  const { teamId } = parseInput(moveIntoTeamSchema("form"), input);
  if (form.userId !== userId) throw new AppError("FORBIDDEN", "Only the form's maker moves it into a team.");
  if (form.isTemplate) throw new AppError("VALIDATION_ERROR", "A template stays yours: make a form from it in the team's workspace instead.");
  if (form.teamId) throw new AppError("CONFLICT", "This form is already in a team's workspace.");
  await requireTeamModuleRight(ctx, userId, teamId, "form", "form.edit");
  const now = ctx.now();
  if (!(await setFormTeam(ctx.db, userId, form.id, teamId, now))) throw new AppError("CONFLICT", "This form was just moved or deleted. Reload the page.");
  return detail(ctx, { ...form, teamId, updatedAt: now });
}

/** DELETE /api/forms/:id: to the trash (kept 30 days; the public form answers "not found" at once). */
export async function deleteForm(ctx: ServiceContext, userId: string, id: string): Promise<void> {
  const { form } = await openForm(ctx, userId, id, "form.delete");
  await updateFormRow(ctx.db, form.userId, id, { deletedAt: ctx.now() });
}

const generateSchema = z.object(
  { prompt: z.string({ error: "Describe the form in a sentence." }).trim().min(3, "Describe the form in a sentence.").max(GENERATE_PROMPT_MAX, `At most ${GENERATE_PROMPT_MAX} characters.`) },
  { error: "The request body must be an object with prompt." },
);

/**
 * POST /api/forms/generate → 201: "Generate a form" from a sentence, as a new draft the member
 * reviews in the builder. Offline generator (ADR 030): the template library and the words of the
 * sentence. The result is checked whole like a publish; anything invalid is refused, not saved.
 */
export async function generateForm(ctx: ServiceContext, userId: string, input: unknown, options: { teamId?: string } = {}): Promise<FormDetail & { generatedBy: "offline" | "workers-ai"; added: string[]; fallbackReason: string | null }> {
  const { prompt } = parseInput(generateSchema, input);
  const { limits } = await formsPlan(ctx, userId);
  // Workers AI where this deployment binds it; its answer is used whole or not at all.
  const ai = formAi(ctx);
  const byModel = ai ? await generateFormWithAi(ctx, ai, prompt) : null;
  if (byModel?.ok) {
    const definition = limits.logic ? byModel.value.definition : { ...byModel.value.definition, rules: [] };
    const form = await createForm(ctx, userId, {}, { start: { ...byModel.value, definition }, teamId: options.teamId });
    return { ...form, generatedBy: "workers-ai", added: [], fallbackReason: null };
  }
  const generated = generateFormOffline(prompt);
  const checked = formDefinitionSchema.safeParse(generated.definition);
  if (!checked.success) throw new AppError("UNPROCESSABLE", "The form could not be generated from that sentence. Start from a template instead.");
  const form = await createForm(ctx, userId, {}, { start: { title: generated.title, description: generated.description, definition: checked.data }, teamId: options.teamId });
  return { ...form, generatedBy: "offline", added: generated.added, fallbackReason: byModel && !byModel.ok ? byModel.reason : null };
}
