import type { WrappedPdfiumModule } from "@embedpdf/pdfium";
import type { RedactionEngineInput, RedactionEngineResult } from "~/features/redaction/redaction-types";
import { removeDocumentParts } from "./document-cleanup";
import { applyMarks, EngineRefusal, flattenPages, rewriteClean } from "./pdfium-engine";

/**
 * The engine's one use case (issue 39, ADR 032): the marks applied by PDFium, the document-level
 * parts removed, the file written whole once more. A document the engine cannot handle is an
 * answer with the reason (the main Worker tells the member), never a half-redacted file.
 */
export async function redactDocument(m: WrappedPdfiumModule, input: RedactionEngineInput): Promise<RedactionEngineResult> {
  try {
    // Flattening first (when asked): the marked pages become pictures; the marks then remove
    // nothing more from them, but still count, and the rest of the file is cleaned as usual.
    const flattened = input.flatten ? flattenPages(m, input.pdf, input.marks) : null;
    const marked = applyMarks(m, flattened?.bytes ?? input.pdf, input.marks);
    let cleaned;
    try {
      cleaned = await removeDocumentParts(marked.bytes);
    } catch {
      return { ok: false, reason: "The document's own parts (metadata, scripts, attachments) could not be removed from this PDF." };
    }
    const { bytes, pageTexts } = rewriteClean(m, cleaned.bytes);
    const marksPerPage: Record<string, number> = {};
    for (const rect of marked.rects) marksPerPage[String(rect.page)] = (marksPerPage[String(rect.page)] ?? 0) + 1;
    return {
      ok: true,
      bytes,
      pageTexts,
      rects: marked.rects,
      removedText: marked.removedText,
      counts: {
        pages: marked.pages,
        marksPerPage,
        charactersRemoved: marked.removedText.reduce((sum, text) => sum + text.replace(/\s/g, "").length, 0),
        annotationsRemoved: marked.annotationsRemoved,
        formFieldsRemoved: cleaned.formFieldsRemoved,
        attachmentsRemoved: marked.attachmentsRemoved,
        documentPartsRemoved: cleaned.removed,
        flattenedPages: flattened?.pages ?? [],
      },
    };
  } catch (error) {
    if (error instanceof EngineRefusal) return { ok: false, reason: error.message };
    throw error;
  }
}
