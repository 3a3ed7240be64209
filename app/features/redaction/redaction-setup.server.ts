import { readStoredBytes } from "~/features/files/encryption.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { REDACT_PDF_MAX_BYTES, redactableKind, requireRedactable, type RedactionReport } from "./apply-redaction.server";
import { listRedactionsOf } from "./redaction.queries.server";
import { readTextLayer } from "./read-text-layer.server";
import type { TextLayerPage } from "./text-layer";

/** What the marking page (/files/{id}/redact) opens with, and the text layer it searches (issue 39). */

export type RedactionSetup = {
  file: { id: string; name: string; version: number; pageCount: number; dataroomId: string | null; documentUrl: string; kind: "pdf" | "image" };
  reports: { version: number; createdAt: string; report: RedactionReport }[];
};

async function redactablePdf(ctx: ServiceContext, userId: string, fileId: string) {
  const found = await requireRedactable(ctx, userId, fileId);
  const { file } = found;
  if (redactableKind(file) !== "pdf") throw new AppError("UNSUPPORTED_MEDIA_TYPE", `“${file.name}” is a picture: it has no text to search.`);
  if (file.size > REDACT_PDF_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `“${file.name}” is larger than the 25 MB a document to redact may be.`);
  const bytes = await readStoredBytes(ctx, file.r2Key, file.size);
  if (!bytes) throw new AppError("CONFLICT", `The content of “${file.name}” is missing.`);
  return { ...found, bytes };
}

export async function getRedactionSetup(ctx: ServiceContext, userId: string, fileId: string): Promise<RedactionSetup> {
  const found = await requireRedactable(ctx, userId, fileId);
  if (redactableKind(found.file) === "image") {
    const { file, roomPermissions } = found;
    const reports = await listRedactionsOf(ctx.db, file.id);
    return {
      file: { id: file.id, name: file.name, version: file.version, pageCount: 1, dataroomId: roomPermissions ? file.spaceId : null, documentUrl: `/api/files/${file.id}/preview`, kind: "image" },
      reports: reports.map((row) => ({ version: row.version, createdAt: row.createdAt.toISOString(), report: row.report as RedactionReport })),
    };
  }
  const { file, roomPermissions, bytes } = await redactablePdf(ctx, userId, fileId);
  const { PDF } = await import("@libpdf/core");
  let pageCount: number;
  try {
    pageCount = (await PDF.load(bytes)).getPageCount();
  } catch {
    throw new AppError("UNPROCESSABLE", `“${file.name}” could not be read as a PDF, so it cannot be redacted.`);
  }
  const reports = await listRedactionsOf(ctx.db, file.id);
  return {
    file: { id: file.id, name: file.name, version: file.version, pageCount, dataroomId: roomPermissions ? file.spaceId : null, documentUrl: `/api/files/${file.id}/preview`, kind: "pdf" },
    reports: reports.map((row) => ({ version: row.version, createdAt: row.createdAt.toISOString(), report: row.report as RedactionReport })),
  };
}

/** GET /api/files/{id}/text-layer: every page's text with a box per character, for the search. */
export async function getTextLayer(ctx: ServiceContext, userId: string, fileId: string): Promise<{ version: number; pages: TextLayerPage[] }> {
  const { file, bytes } = await redactablePdf(ctx, userId, fileId);
  return { version: file.version, pages: await readTextLayer(bytes, file.name) };
}

/** The file page's versions table: which versions a redaction made (for people who may redact). */
export async function redactedVersionsOf(ctx: ServiceContext, fileId: string): Promise<{ version: number; marks: number }[]> {
  return (await listRedactionsOf(ctx.db, fileId)).map((row) => ({ version: row.version, marks: Number((row.report as { marks?: number }).marks ?? 0) }));
}
