/**
 * Redaction (issue 39): what the marking page, the main Worker and the redaction engine (a second
 * Worker, ADR 032) pass between them. No zod here: the engine Worker imports it too.
 */

/** Pictures that can be redacted (painted in their pixels); PDFs go through the engine. */
export const REDACTABLE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type RedactableImageType = (typeof REDACTABLE_IMAGE_TYPES)[number];
export const isRedactableImage = (contentType: string): contentType is RedactableImageType => (REDACTABLE_IMAGE_TYPES as readonly string[]).includes(contentType);
export const isRedactableType = (contentType: string) => contentType === "application/pdf" || isRedactableImage(contentType);

/** A marked area: a page (0-based) and a rectangle as fractions of the page as shown (its crop box, turned by its /Rotate), from the top left. */
export type RedactionMark = { page: number; x: number; y: number; w: number; h: number };

/** A mark in the page's own PDF coordinates (user space, y up), as the engine applied it. */
export type PageRect = { page: number; left: number; bottom: number; right: number; top: number };

export type RedactionCounts = {
  /** Pages of the document. */
  pages: number;
  /** Page index → marks applied on it. */
  marksPerPage: Record<string, number>;
  /** Characters of the text layer found under the marks before they were removed. */
  charactersRemoved: number;
  /** Annotations and form-field widgets under a mark, removed. */
  annotationsRemoved: number;
  /** Form fields left without a widget, removed with their values. */
  formFieldsRemoved: number;
  attachmentsRemoved: number;
  /** Document-level scripts, open actions and XMP metadata removed (each counted once). */
  documentPartsRemoved: string[];
  /** Pages (0-based) flattened to pictures, when the member chose it. */
  flattenedPages: number[];
};

export type RedactionEngineResult =
  | { ok: true; bytes: Uint8Array; rects: PageRect[]; removedText: string[]; counts: RedactionCounts; /** The text left on each page of the result (PDFium's reading). */ pageTexts: string[] }
  | { ok: false; reason: string };

/** What the engine Worker's `redact` takes. */
export type RedactionEngineInput = { pdf: Uint8Array; marks: RedactionMark[]; /** The marked pages turned into pictures first (the fallback when the check fails). */ flatten?: boolean };

export const REDACTION_MARKS_MAX = 2_000;

/** How a refusal of the app's check begins: the marking page then offers to flatten the marked pages. */
export const REDACTION_UNPROVEN = "The redaction could not be proven complete, so nothing was saved:";
