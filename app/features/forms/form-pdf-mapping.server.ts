import { z } from "zod";
import { readStoredBytes } from "~/features/files/encryption.server";
import { requireFileAccess } from "~/features/files/spaces.server";
import { listPdfsOfMember } from "~/features/files/folders.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { FORM_AI_MODEL, formAi, modelJson, type AiOutcome } from "./form-ai.server";
import { type FormField, takesAnswer } from "./form-fields";
import { fits, type MappingPair, type MappingTarget, suggestMapping } from "./form-mapping";
import { openForm } from "./form-access.server";
import { isUuidShape, SUBMISSION_NOT_FOUND } from "./forms.constants";
import { findSubmission, updateFormRow } from "./forms.queries.server";
import { answerText } from "./submission-view";
import { parseInput } from "~/lib/validation";
import { derivedId } from "~/features/files/copy.server";
import { saveMadeFile } from "~/features/files/made-file.server";

/**
 * "Map fields" (issue 37, ADR 030): which question of a form fills which field of a PDF's own form
 * (AcroForm), proposed for the member to review. The PDF is one the member may view; its fillable
 * fields are read with @libpdf/core. Offline the labels' likeness decides (form-mapping.ts); where
 * Workers AI is bound the model proposes, and its answer is used whole only when every pair names
 * a field of the PDF and a question that fits it, else the offline proposal stands, saying why.
 */

export const PDF_MAPPING_MAX_BYTES = 25 * 1024 * 1024;
const TARGETS_MAX = 300;

export type PdfMappingProposal = {
  file: { id: string; name: string };
  questions: { id: string; label: string; type: string }[];
  targets: MappingTarget[];
  pairs: MappingPair[];
  mappedBy: "offline" | "workers-ai";
  fallbackReason: string | null;
};

/** The fillable fields of a PDF's form: text, checkboxes and choices (signatures and buttons are not filled). */
export async function readPdfTargets(bytes: Uint8Array): Promise<MappingTarget[]> {
  const { PDF } = await import("@libpdf/core");
  let fields;
  try {
    const pdf = await PDF.load(bytes);
    fields = (await pdf.getForm())?.getFields() ?? [];
  } catch {
    throw new AppError("VALIDATION_ERROR", "This PDF could not be read. Choose another, or save it again from the program that made it.");
  }
  const targets: MappingTarget[] = [];
  for (const field of fields) {
    if (targets.length >= TARGETS_MAX || field.isReadOnly()) continue;
    const type = field.type === "text" ? "text" : field.type === "checkbox" ? "checkbox" : field.type === "radio" || field.type === "dropdown" || field.type === "listbox" ? "choice" : null;
    if (!type) continue;
    const options = "getOptions" in field && typeof field.getOptions === "function" ? (field.getOptions() as (string | { value?: string; display?: string })[]).map((option) => (typeof option === "string" ? option : (option.display ?? option.value ?? ""))).filter(Boolean) : undefined;
    targets.push({ name: field.name, label: field.alternateName || field.name, type, ...(options?.length ? { options: options.slice(0, 50) } : {}) });
  }
  return targets;
}

const aiPairsSchema = z.object({ pairs: z.array(z.object({ target: z.string(), fieldId: z.string().nullable() })).max(TARGETS_MAX) });

/** The model's pairs, checked against the PDF's fields and the form's questions; refused whole otherwise. */
async function mapWithAi(ctx: ServiceContext, ai: NonNullable<ReturnType<typeof formAi>>, questions: readonly FormField[], targets: readonly MappingTarget[]): Promise<AiOutcome<MappingPair[]>> {
  let answer: unknown;
  try {
    answer = await ai.run(FORM_AI_MODEL, {
      messages: [
        {
          role: "system",
          content:
            'You match a form\'s questions to a PDF\'s fillable fields. Answer with one JSON object only: {"pairs": [{"target": PDF field name, "fieldId": question id or null}]}, one pair per PDF field, null when no question fits. Checkboxes take only checkbox or consent questions.',
        },
        { role: "user", content: JSON.stringify({ questions: questions.map((field) => ({ id: field.id, label: field.label, type: field.type })), pdfFields: targets }) },
      ],
      response_format: { type: "json_object" },
      max_tokens: 3_000,
    });
  } catch (error) {
    ctx.logger.warn("forms.ai_failed", { task: "map", error: error instanceof Error ? error.message : String(error) });
    return { ok: false, reason: "the model could not be reached" };
  }
  const parsed = aiPairsSchema.safeParse(modelJson(answer));
  const byTarget = new Map(targets.map((target) => [target.name, target]));
  const byId = new Map(questions.map((field) => [field.id, field]));
  const valid =
    parsed.success &&
    new Set(parsed.data.pairs.map((pair) => pair.target)).size === parsed.data.pairs.length &&
    parsed.data.pairs.every((pair) => {
      const target = byTarget.get(pair.target);
      const field = pair.fieldId === null ? undefined : byId.get(pair.fieldId);
      return target !== undefined && (pair.fieldId === null || (field !== undefined && fits(field, target)));
    });
  if (!valid) {
    ctx.logger.warn("forms.ai_refused", { task: "map" });
    return { ok: false, reason: "the model's answer did not match this PDF and form" };
  }
  const chosen = new Map(parsed.data.pairs.map((pair) => [pair.target, pair.fieldId]));
  return { ok: true, value: targets.map((target) => ({ target: target.name, fieldId: chosen.get(target.name) ?? null, score: chosen.get(target.name) ? 1 : 0 })) };
}

/** GET /api/forms/:id/pdf-mapping?fileId=: the proposal for the member to review. Reads only. */
export async function proposePdfMapping(ctx: ServiceContext, userId: string, formId: string, rawFileId: unknown): Promise<PdfMappingProposal> {
  const { form } = await openForm(ctx, userId, formId, "form.edit");
  const fileId = z.uuid().safeParse(rawFileId);
  if (!fileId.success) throw new AppError("VALIDATION_ERROR", "fileId: choose the PDF to map onto.", { fieldErrors: { fileId: ["Choose the PDF to map onto."] } });
  const { file, bytes } = await pdfOf(ctx, userId, fileId.data);
  const targets = await readPdfTargets(bytes);
  if (targets.length === 0) throw new AppError("VALIDATION_ERROR", `“${file.name}” has no form fields to fill. Choose a PDF made as a form (with fillable fields).`);
  const questions = form.draft.fields.filter((field) => takesAnswer(field.type));
  const ai = formAi(ctx);
  const byModel = ai ? await mapWithAi(ctx, ai, questions, targets) : null;
  return {
    file: { id: file.id, name: file.name },
    questions: questions.map((field) => ({ id: field.id, label: field.label, type: field.type })),
    targets,
    pairs: byModel?.ok ? byModel.value : suggestMapping(questions, targets),
    mappedBy: byModel?.ok ? "workers-ai" : "offline",
    fallbackReason: byModel && !byModel.ok ? byModel.reason : null,
  };
}

const saveSchema = z.object(
  {
    /** The PDF; null forgets the mapping. */
    fileId: z.uuid({ error: "fileId: choose the PDF to map onto." }).nullable(),
    /** PDF field name → question id (null or absent: not filled). */
    pairs: z.record(z.string().max(500), z.string().max(40).nullable()).default({}),
  },
  { error: "The request body must be an object with fileId and pairs." },
);

/** The PDF's fields, read from a file the member may view (a PDF with fields, up to 25 MB), with the file. */
async function pdfOf(ctx: ServiceContext, userId: string, fileId: string) {
  const { file } = await requireFileAccess(ctx, userId, fileId, "files.view");
  if (file.contentType !== "application/pdf") throw new AppError("VALIDATION_ERROR", `“${file.name}” is not a PDF: choose a PDF with form fields.`);
  if (file.size > PDF_MAPPING_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `“${file.name}” is larger than the 25 MB a PDF to map may be.`);
  const bytes = await readStoredBytes(ctx, file.r2Key, file.size);
  if (!bytes) throw new AppError("CONFLICT", `The content of “${file.name}” is missing.`);
  return { file, bytes };
}

/** PUT /api/forms/:id/pdf-mapping: the pairs the member reviewed, each checked against the PDF and the form's questions. */
export async function savePdfMapping(ctx: ServiceContext, userId: string, formId: string, input: unknown): Promise<{ fileId: string | null; pairs: Record<string, string> }> {
  const { form } = await openForm(ctx, userId, formId, "form.edit");
  const data = parseInput(saveSchema, input);
  if (data.fileId === null) {
    await updateFormRow(ctx.db, form.userId, form.id, { pdfMap: null, updatedAt: ctx.now() });
    return { fileId: null, pairs: {} };
  }
  const targets = new Map((await readPdfTargets((await pdfOf(ctx, userId, data.fileId)).bytes)).map((target) => [target.name, target]));
  const questions = new Map(form.draft.fields.map((field) => [field.id, field]));
  const pairs: Record<string, string> = {};
  for (const [name, fieldId] of Object.entries(data.pairs)) {
    if (fieldId === null) continue;
    const target = targets.get(name);
    const field = questions.get(fieldId);
    if (!target) throw new AppError("VALIDATION_ERROR", `The PDF has no field “${name.slice(0, 80)}”.`);
    if (!field || !fits(field, target)) throw new AppError("VALIDATION_ERROR", `“${field?.label ?? fieldId}” cannot fill “${target.label}”${field ? ` (a ${target.type} field)` : ": the form has no such question"}.`);
    pairs[name] = fieldId;
  }
  await updateFormRow(ctx.db, form.userId, form.id, { pdfMap: { fileId: data.fileId, pairs }, updatedAt: ctx.now() });
  return { fileId: data.fileId, pairs };
}

/**
 * GET /api/forms/:id/submissions/:sid/filled.pdf: the mapped PDF filled with one submission's
 * answers (a copy made on the fly; the PDF itself is not changed). Text fields get the answer as
 * text, checkboxes are ticked for "yes", choices are chosen when the PDF offers that choice.
 */
export async function fillPdfWithSubmission(ctx: ServiceContext, userId: string, formId: string, submissionId: string): Promise<{ filename: string; bytes: Uint8Array<ArrayBuffer> }> {
  const { filename, bytes } = await fillPdf(ctx, userId, formId, submissionId);
  return { filename, bytes };
}

/**
 * POST /api/forms/:id/submissions/:sid/filled.pdf/save: the filled copy saved next to the PDF it
 * fills (where the member may add files), as a file of that folder; once per submission and PDF
 * (saving again answers the file saved before).
 */
export async function saveFilledPdf(ctx: ServiceContext, userId: string, formId: string, submissionId: string): Promise<{ file: { id: string; name: string; folderId: string }; isNew: boolean }> {
  const { filename, bytes, source, formTitle } = await fillPdf(ctx, userId, formId, submissionId);
  const saved = await saveMadeFile(ctx, userId, {
    id: await derivedId(`filled-pdf:${submissionId}`, source.id),
    folderId: source.folderId,
    name: filename,
    contentType: "application/pdf",
    bytes,
    auditDetail: `“${source.name}” filled with a submission to “${formTitle}”`,
  });
  return { file: { id: saved.id, name: saved.name, folderId: saved.folderId }, isNew: saved.isNew };
}

async function fillPdf(ctx: ServiceContext, userId: string, formId: string, submissionId: string): Promise<{ filename: string; bytes: Uint8Array<ArrayBuffer>; source: { id: string; name: string; folderId: string }; formTitle: string }> {
  const { form } = await openForm(ctx, userId, formId, "form.view");
  const submission = isUuidShape(submissionId) ? await findSubmission(ctx.db, formId, submissionId) : undefined;
  if (!submission) throw new AppError("NOT_FOUND", SUBMISSION_NOT_FOUND);
  if (!form.pdfMap) throw new AppError("CONFLICT", "Map this form onto a PDF first (“Map fields”), then fill it with a submission.");
  const { file, bytes } = await pdfOf(ctx, userId, form.pdfMap.fileId);
  const { PDF } = await import("@libpdf/core");
  const pdf = await PDF.load(bytes);
  const pdfForm = await pdf.getForm();
  for (const [name, fieldId] of Object.entries(form.pdfMap.pairs)) {
    const field = pdfForm?.getField(name);
    const value = submission.answers[fieldId];
    if (!field || value === undefined || field.isReadOnly()) continue;
    try {
      if (field.type === "checkbox") {
        const box = field as unknown as { check(): void; uncheck(): void };
        if (value === "true") box.check();
        else box.uncheck();
      } else if (field.type === "text") {
        (field as unknown as { setValue(text: string): void }).setValue(answerText(value));
      } else if (field.type === "radio" || field.type === "dropdown" || field.type === "listbox") {
        const options = ((field as unknown as { getOptions(): (string | { value?: string; display?: string })[] }).getOptions() ?? []).map((option) => (typeof option === "string" ? option : (option.value ?? option.display ?? "")));
        const wanted = Array.isArray(value) ? value : [value];
        const chosen = wanted.filter((item) => options.includes(item));
        if (chosen.length === 0) continue;
        if (field.type === "listbox") (field as unknown as { setValue(values: string[]): void }).setValue(chosen);
        else (field as unknown as { setValue(option: string): void }).setValue(chosen[0]!);
      }
    } catch (error) {
      // A value the PDF's field does not take (too long for a comb field, a locked choice): left empty.
      ctx.logger.info("forms.fill_skipped", { field: name.slice(0, 80), error: error instanceof Error ? error.message : String(error) });
    }
  }
  const stem = file.name.replace(/\.pdf$/i, "");
  return { filename: `${stem} - ${submission.createdAt.toISOString().slice(0, 10)}.pdf`, bytes: new Uint8Array(await pdf.save()), source: { id: file.id, name: file.name, folderId: file.folderId }, formTitle: form.title };
}

export type MapFieldsPage = {
  form: { id: string; title: string };
  saved: { fileId: string; pairs: Record<string, string> } | null;
  pdfs: { id: string; name: string; spaceName: string }[];
  proposal: PdfMappingProposal | null;
  /** Why the chosen file cannot be mapped (not a PDF, no fields), said on the page. */
  problem: string | null;
};

/** /forms/{id}/map-fields: the member's PDFs to choose from, what is kept, and the proposal for the chosen PDF (`fileId`). */
export async function getMapFieldsPage(ctx: ServiceContext, userId: string, formId: string, fileId: string | null): Promise<MapFieldsPage> {
  const { form } = await openForm(ctx, userId, formId, "form.edit");
  const pdfs = await listPdfsOfMember(ctx.db, userId, 200);
  const chosen = fileId ?? form.pdfMap?.fileId ?? null;
  let proposal: PdfMappingProposal | null = null;
  let problem: string | null = null;
  if (chosen) {
    try {
      proposal = await proposePdfMapping(ctx, userId, formId, chosen);
      // What the member kept for this PDF stands over a new proposal.
      if (form.pdfMap?.fileId === chosen) proposal = { ...proposal, pairs: proposal.pairs.map((pair) => ({ ...pair, fieldId: form.pdfMap!.pairs[pair.target] ?? null })) };
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500 || error.status === 404) throw error;
      problem = error.message;
    }
  }
  return { form: { id: form.id, title: form.title }, saved: form.pdfMap, pdfs, proposal, problem };
}
