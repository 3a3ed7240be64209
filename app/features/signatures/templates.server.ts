import { z } from "zod";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { checkFields, signaturesAccess, snapshotPdf } from "./envelopes.server";
import type { SignField, SignRole } from "./signature-fields";
import { isUuidShape, TEMPLATE_NOT_FOUND } from "./signatures.constants";
import { TRASH_RETENTION_MS } from "~/features/files/files.constants";
import { findOwnTemplate, insertTemplate, listOwnTemplates, listTrashedTemplatesOf, purgeTrashedTemplates, setTemplateTrashed, updateTemplateIfRevision, type TemplateRow } from "./signatures.queries.server";
import { fieldsSchema, templateInputSchema } from "./signatures.schema";

/**
 * E-signature templates (issue 38, spec §2 "Signatures: template designer"): a PDF with recipient
 * roles ("Buyer", "Seller") and the fields placed for each, saved to send again and again. The
 * template keeps its own copy of the PDF; sending from it copies that again into the envelope.
 */

export type TemplateSummary = { id: string; name: string; documentName: string; pageCount: number; roles: SignRole[]; fieldCount: number; updatedAt: string };
export type TemplateDetail = TemplateSummary & { revision: number; fields: SignField[] };

const summaryOf = (row: TemplateRow): TemplateSummary => ({ id: row.id, name: row.name, documentName: row.documentName, pageCount: row.pageCount, roles: row.roles, fieldCount: row.fields.length, updatedAt: row.updatedAt.toISOString() });
const detailOf = (row: TemplateRow): TemplateDetail => ({ ...summaryOf(row), revision: row.revision, fields: row.fields });

function checkRoles(roles: SignRole[]): Set<string> {
  const ids = new Set(roles.map((role) => role.id));
  if (ids.size !== roles.length) throw new AppError("VALIDATION_ERROR", "roles: Two roles share one id.");
  const names = new Set(roles.map((role) => role.name.toLowerCase()));
  if (names.size !== roles.length) throw new AppError("VALIDATION_ERROR", "roles: Give each role its own name.");
  return ids;
}

export async function requireOwnTemplate(ctx: ServiceContext, userId: string, id: unknown): Promise<TemplateRow> {
  const template = typeof id === "string" && isUuidShape(id) ? await findOwnTemplate(ctx.db, userId, id) : undefined;
  if (!template) throw new AppError("NOT_FOUND", TEMPLATE_NOT_FOUND);
  return template;
}

/** POST /api/signatures/templates: a new template from a PDF the member may send, with its roles (fields come with the designer). */
export async function createTemplate(ctx: ServiceContext, userId: string, input: unknown): Promise<TemplateDetail> {
  await signaturesAccess(ctx, userId);
  const data = parseInput(templateInputSchema.extend({ fileId: z.string().min(1, "Choose a PDF.").max(64), fields: fieldsSchema.default([]) }), input);
  const roleIds = checkRoles(data.roles);
  const document = await snapshotPdf(ctx, userId, data.fileId);
  checkFields(data.fields, document.pageCount, roleIds);
  const now = ctx.now();
  const id = crypto.randomUUID();
  await insertTemplate(ctx.db, { id, userId, name: data.name, spaceId: document.spaceId, sourceFileId: document.sourceFileId, documentName: document.name, documentKey: document.key, documentSize: document.size, pageCount: document.pageCount, roles: data.roles, fields: data.fields, createdAt: now, updatedAt: now });
  return detailOf((await findOwnTemplate(ctx.db, userId, id))!);
}

/** PUT /api/signatures/templates/:id: its name, roles and fields, by revision (a stale tab's save is refused). */
export async function saveTemplate(ctx: ServiceContext, userId: string, id: unknown, input: unknown): Promise<TemplateDetail> {
  const template = await requireOwnTemplate(ctx, userId, id);
  await signaturesAccess(ctx, userId);
  const data = parseInput(templateInputSchema.extend({ revision: z.number().int().min(1) }), input);
  checkFields(data.fields, template.pageCount, checkRoles(data.roles));
  if (!(await updateTemplateIfRevision(ctx.db, userId, template.id, data.revision, { name: data.name, roles: data.roles, fields: data.fields, updatedAt: ctx.now() }))) {
    throw new AppError("CONFLICT", "This template changed in another tab. Reload it and make your change again.");
  }
  return detailOf((await findOwnTemplate(ctx.db, userId, template.id))!);
}

export async function getTemplate(ctx: ServiceContext, userId: string, id: unknown): Promise<TemplateDetail> {
  return detailOf(await requireOwnTemplate(ctx, userId, id));
}

export async function listTemplates(ctx: ServiceContext, userId: string): Promise<TemplateSummary[]> {
  await signaturesAccess(ctx, userId);
  return (await listOwnTemplates(ctx.db, userId)).map(summaryOf);
}

// ---- the trash (30 days, like files and forms) --------------------------------------------------

const trashSince = (ctx: ServiceContext) => new Date(ctx.now().getTime() - TRASH_RETENTION_MS);

/** DELETE /api/signatures/templates/:id: to the trash (restorable for 30 days); envelopes sent from it keep their own copy. */
export async function deleteTemplate(ctx: ServiceContext, userId: string, id: unknown): Promise<void> {
  const template = await requireOwnTemplate(ctx, userId, id);
  await setTemplateTrashed(ctx.db, userId, template.id, ctx.now());
}

/** POST /api/signatures/templates/:id/restore: back from the trash. */
export async function restoreTemplate(ctx: ServiceContext, userId: string, id: unknown): Promise<void> {
  const trashed = typeof id === "string" && isUuidShape(id) ? (await listTrashedTemplatesOf(ctx.db, userId, trashSince(ctx))).some((row) => row.id === id) : false;
  if (!trashed || !(await setTemplateTrashed(ctx.db, userId, id as string, null))) throw new AppError("NOT_FOUND", "This template is not in your trash.");
}

export async function listTrashedTemplates(ctx: ServiceContext, userId: string) {
  return (await listTrashedTemplatesOf(ctx.db, userId, trashSince(ctx))).map((row) => ({
    id: row.id,
    name: row.name,
    daysLeft: Math.max(0, Math.ceil((row.deletedAt!.getTime() + TRASH_RETENTION_MS - ctx.now().getTime()) / 86_400_000)),
  }));
}

/** The nightly purge: templates in the trash for 30 days are deleted with their PDFs. */
export async function purgeTemplatesTrash(ctx: ServiceContext): Promise<number> {
  let purged = 0;
  for (let round = 0; round < 20; round++) {
    const keys = await purgeTrashedTemplates(ctx.db, trashSince(ctx), 200);
    if (keys.length) await ctx.env.FILES.delete(keys);
    purged += keys.length;
    if (keys.length < 200) break;
  }
  return purged;
}
