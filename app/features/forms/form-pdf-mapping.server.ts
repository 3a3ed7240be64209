import { z } from "zod";
import { readStoredObject } from "~/features/files/encryption.server";
import { requireFileAccess } from "~/features/files/spaces.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { FORM_AI_MODEL, formAi, modelJson, type AiOutcome } from "./form-ai.server";
import { type FormField, takesAnswer } from "./form-fields";
import { fits, type MappingPair, type MappingTarget, suggestMapping } from "./form-mapping";
import { formsPlan, requireOwnForm } from "./forms.server";

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
  await formsPlan(ctx, userId);
  const form = await requireOwnForm(ctx, userId, formId);
  const fileId = z.uuid().safeParse(rawFileId);
  if (!fileId.success) throw new AppError("VALIDATION_ERROR", "fileId: choose the PDF to map onto.", { fieldErrors: { fileId: ["Choose the PDF to map onto."] } });
  const { file } = await requireFileAccess(ctx, userId, fileId.data, "files.view");
  if (file.contentType !== "application/pdf") throw new AppError("VALIDATION_ERROR", `“${file.name}” is not a PDF: choose a PDF with form fields.`);
  if (file.size > PDF_MAPPING_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `“${file.name}” is larger than the 25 MB a PDF to map may be.`);
  const body = await readStoredObject(ctx, file.r2Key, file.size);
  if (!body) throw new AppError("CONFLICT", `The content of “${file.name}” is missing.`);
  const targets = await readPdfTargets(new Uint8Array(await new Response(body).arrayBuffer()));
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
