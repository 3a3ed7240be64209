import { auditRoom } from "~/features/datarooms/audit-record.server";
import { isEncryptedKey } from "~/features/files/encryption-format";
import { newObjectKey, putStoredObject, readStoredBytes } from "~/features/files/encryption.server";
import { requireFileAccess } from "~/features/files/spaces.server";
import { assertFilesFit, spaceUsage } from "~/features/files/storage.server";
import { requestContentIndexing } from "~/features/search/search.jobs";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { sha256Hex } from "~/lib/sha256";
import { parseInput } from "~/lib/validation";
import { checkRedaction, type RedactionCheck } from "./check-redaction.server";
import { redactionEngine } from "./redaction-engine.server";
import { replaceWithRedacted } from "./redaction.queries.server";
import { applyRedactionSchema } from "./redaction.schema";
import { isRedactableImage, REDACTION_UNPROVEN, type RedactableImageType, type RedactionCounts, type RedactionMark } from "./redaction-types";
import { redactImage } from "./redact-image.server";
import { requestDerivatives } from "~/features/galleries/galleries.jobs";

/**
 * Applying redaction to a file (issue 39): the marks go to the engine Worker (never trusting the
 * browser to have removed anything), the result is checked here by a second reader, and only a
 * result that passes becomes the file's new version; the original stays as the previous version.
 * Share links, previews and search read the file's current content, so from then on they serve
 * the redacted one (the search text is cleared by the version change and read again).
 */

/** A PDF or picture to redact may be this large. */
export const REDACT_PDF_MAX_BYTES = 25 * 1024 * 1024;

export type RedactionReport = RedactionCounts & { marks: number; pixelsCleared?: number; check: RedactionCheck; engine: "pdfium" | "pixels"; originalSha256: string; redactedSha256: string };

export type RedactionOutcome = { file: { id: string; name: string; version: number; size: number }; report: RedactionReport };

/** Who may redact: `files.edit` on the file, and in a data room its `redact` permission. */
export async function requireRedactable(ctx: ServiceContext, userId: string, fileId: string) {
  const found = await requireFileAccess(ctx, userId, fileId, "files.edit");
  if (found.roomPermissions && !found.roomPermissions.redact) throw new AppError("FORBIDDEN", "You don't have permission to redact documents in this data room.");
  return found;
}

function checkMessage(check: RedactionCheck): string {
  const reasons: string[] = [];
  if (check.pagesWithTextUnderMarks.length) {
    const pages = check.pagesWithTextUnderMarks.map((page) => page + 1).join(", ");
    reasons.push(`text is still under a mark on page${check.pagesWithTextUnderMarks.length === 1 ? "" : "s"} ${pages} (the document may use a font the engine cannot take apart)`);
  }
  if (check.stringsFoundInBytes.length) reasons.push(`the words “${check.stringsFoundInBytes.slice(0, 3).join("”, “")}” are still inside the file`);
  return `${REDACTION_UNPROVEN} ${reasons.join("; ")}. You can flatten the marked pages to pictures instead: their text then goes entirely.`;
}

/** What can be redacted: PDFs (the engine Worker) and PNG, JPEG or WebP pictures (painted in the pixels). */
export function redactableKind(file: { name: string; contentType: string }): "pdf" | "image" {
  if (file.contentType === "application/pdf") return "pdf";
  if (isRedactableImage(file.contentType)) return "image";
  throw new AppError("UNSUPPORTED_MEDIA_TYPE", `“${file.name}” is not a PDF or a picture: choose a PDF, PNG, JPEG or WebP to redact.`);
}

const NO_TEXT_CHECK: RedactionCheck = { passed: true, pagesWithTextUnderMarks: [], stringsFoundInBytes: [], alsoElsewhere: [] };

/** The PDF through the engine Worker, then the app's own check; a result that fails is refused. */
async function redactPdf(ctx: ServiceContext, name: string, original: Uint8Array, marks: RedactionMark[], flatten: boolean): Promise<{ bytes: Uint8Array<ArrayBuffer>; counts: RedactionCounts; check: RedactionCheck }> {
  if (!ctx.env.REDACTOR) throw new AppError("SERVICE_UNAVAILABLE", "The redaction engine is not available right now. Please try again later.");
  const result = await redactionEngine(ctx.env).redact({ pdf: original, marks, flatten });
  if (!result.ok) throw new AppError("UNPROCESSABLE", `“${name}” could not be redacted: ${result.reason}`);
  const check = await checkRedaction(result.bytes, result.rects, result.removedText, result.pageTexts);
  if (!check.passed) {
    ctx.logger.warn("redaction.check_failed", { pages: check.pagesWithTextUnderMarks, strings: check.stringsFoundInBytes.length });
    throw new AppError("UNPROCESSABLE", checkMessage(check));
  }
  return { bytes: new Uint8Array(result.bytes), counts: result.counts, check };
}

/** POST /api/files/{id}/redact: `{ version, marks }` → the new version and its report. */
export async function applyRedaction(ctx: ServiceContext, userId: string, fileId: string, input: unknown): Promise<RedactionOutcome> {
  const { file, roomPermissions } = await requireRedactable(ctx, userId, fileId);
  const data = parseInput(applyRedactionSchema, input);
  const kind = redactableKind(file);
  if (file.size > REDACT_PDF_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `“${file.name}” is larger than the 25 MB a document to redact may be.`);
  if (file.version !== data.version) throw new AppError("CONFLICT", `“${file.name}” changed since you marked it (it is now version ${file.version}). Open it again and mark it again.`);

  const original = await readStoredBytes(ctx, file.r2Key, file.size);
  if (!original) throw new AppError("CONFLICT", `The content of “${file.name}” is missing.`);
  let redacted: { bytes: Uint8Array<ArrayBuffer>; counts: RedactionCounts; check: RedactionCheck; pixelsCleared?: number };
  if (kind === "pdf") redacted = await redactPdf(ctx, file.name, original, data.marks, data.flatten);
  else {
    const painted = await redactImage(ctx.env.IMAGES, original, file.contentType as RedactableImageType, data.marks, file.name);
    redacted = {
      bytes: painted.bytes,
      pixelsCleared: painted.pixelsCleared,
      check: NO_TEXT_CHECK,
      counts: { pages: 1, marksPerPage: { "0": data.marks.length }, charactersRemoved: 0, annotationsRemoved: 0, formFieldsRemoved: 0, attachmentsRemoved: 0, documentPartsRemoved: ["the picture's metadata (EXIF)"], flattenedPages: [] },
    };
  }
  const bytes = redacted.bytes;
  assertFilesFit(await spaceUsage(ctx, file.spaceId), file.name, bytes.byteLength, 0);
  const report: RedactionReport = {
    ...redacted.counts,
    marks: data.marks.length,
    ...(redacted.pixelsCleared !== undefined ? { pixelsCleared: redacted.pixelsCleared } : {}),
    check: redacted.check,
    engine: kind === "pdf" ? "pdfium" : "pixels",
    originalSha256: file.sha256 ?? (await sha256Hex(original)),
    redactedSha256: await sha256Hex(bytes),
  };
  const r2Key = newObjectKey("files", file.spaceId, isEncryptedKey(file.r2Key));
  await putStoredObject(ctx, r2Key, bytes, { httpMetadata: { contentType: file.contentType } });
  const saved = await replaceWithRedacted(ctx.db, { fileId: file.id, expectedR2Key: file.r2Key, r2Key, size: bytes.byteLength, contentType: file.contentType, sha256: report.redactedSha256, userId, now: ctx.now(), reportId: crypto.randomUUID(), report });
  if (!saved) {
    await ctx.env.FILES.delete(r2Key);
    throw new AppError("CONFLICT", `“${file.name}” changed while it was being redacted. Open it again and mark it again.`);
  }
  await requestContentIndexing(ctx, file.id, r2Key);
  await requestDerivatives(ctx, file, r2Key);
  if (roomPermissions) {
    const pages = Object.keys(report.marksPerPage).map((page) => Number(page) + 1);
    await auditRoom(ctx, file.spaceId, userId, {
      action: "file.redact",
      target: { type: "file", id: file.id, name: file.name },
      detail:
        kind === "pdf"
          ? `${report.marks} mark${report.marks === 1 ? "" : "s"} on page${pages.length === 1 ? "" : "s"} ${pages.join(", ")}; ${report.charactersRemoved} characters and ${report.annotationsRemoved} annotations removed${report.flattenedPages.length ? `; page${report.flattenedPages.length === 1 ? "" : "s"} ${report.flattenedPages.map((page) => page + 1).join(", ")} flattened to pictures` : ""}; checked: nothing left under the marks; version ${file.version + 1}`
          : `${report.marks} mark${report.marks === 1 ? "" : "s"} painted into the picture (${report.pixelsCleared} pixels); version ${file.version + 1}`,
    });
  }
  ctx.logger.info("redaction.applied", { fileId: file.id, marks: report.marks, characters: report.charactersRemoved });
  return { file: { id: file.id, name: file.name, version: file.version + 1, size: bytes.byteLength }, report };
}
