/**
 * The text of a document, for the search index (issue 36, ADR 028): a PDF's text layer (through
 * `@libpdf/core`, loaded only by the job that needs it), a Word document's body (docx-text.server.ts),
 * plain text, Markdown, CSV and the other text types as UTF-8. Bounded: we read at most SEARCH_READ_LIMITS' bytes of a file and keep at
 * most its characters, so one huge upload never holds the queue or fills the database.
 */
import { docxText } from "./docx-text.server";
import { SEARCH_LIMITS } from "./search.constants";

export type Extraction =
  | { state: "indexed"; text: string }
  | { state: "empty" | "unsupported" | "too_large" | "failed"; reason: string };

const TEXT_TYPES = new Set(["text/plain", "text/markdown", "text/x-markdown", "text/csv", "text/tab-separated-values", "application/json", "application/xml", "text/xml", "text/html"]);
const TEXT_EXTENSIONS = /\.(txt|md|markdown|csv|tsv|json|xml|log)$/i;

export type ReadableKind = "pdf" | "docx" | "text";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Which reader a file needs, from its stored type and, for text types browsers often send as octet-stream, its name. */
export function readableKind(contentType: string, name: string): ReadableKind | null {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "application/pdf" || (type === "application/octet-stream" && /\.pdf$/i.test(name))) return "pdf";
  if (type === DOCX_TYPE || ((type === "application/octet-stream" || type === "application/zip") && /\.docx$/i.test(name))) return "docx";
  if (TEXT_TYPES.has(type) || (type.startsWith("text/") && TEXT_EXTENSIONS.test(name)) || (type === "application/octet-stream" && TEXT_EXTENSIONS.test(name))) return "text";
  return null;
}

/** Runs of whitespace become one space, NUL and other control characters go; the text is cut at the character limit. */
export function normaliseText(text: string): string {
  const cleaned = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, " ").replace(/[ \t]+/g, " ").replace(/\s*\n\s*/g, "\n").trim();
  return cleaned.length > SEARCH_LIMITS.maxChars ? cleaned.slice(0, SEARCH_LIMITS.maxChars) : cleaned;
}

async function readAll(body: ReadableStream<Uint8Array>, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let offset = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = Math.min(value.byteLength, size - offset);
    bytes.set(value.subarray(0, room), offset);
    offset += room;
    if (offset >= size) {
      await reader.cancel();
      break;
    }
  }
  return offset === size ? bytes : bytes.subarray(0, offset);
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { PDF } = await import("@libpdf/core");
  const pdf = await PDF.load(bytes);
  const pages = Math.min(pdf.getPageCount(), SEARCH_LIMITS.maxPdfPages);
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; index < pages && length < SEARCH_LIMITS.maxChars; index++) {
    const page = pdf.getPage(index);
    const text = page ? page.extractText().text : "";
    parts.push(text);
    length += text.length + 1;
  }
  return parts.join("\n");
}

/**
 * The text of `size` bytes from `open()` (the plaintext stream; null when the object is gone).
 * Never throws for a bad document: a PDF the reader cannot parse is "failed" with the reason.
 */
export async function extractText(input: { contentType: string; name: string; size: number; open: (length: number) => Promise<ReadableStream<Uint8Array> | null> }): Promise<Extraction> {
  const kind = readableKind(input.contentType, input.name);
  if (!kind) return { state: "unsupported", reason: `Text is not read from ${input.contentType} files.` };
  const isWhole = kind !== "text";
  const limit = isWhole ? SEARCH_LIMITS.maxDocumentBytes : SEARCH_LIMITS.maxTextBytes;
  if (isWhole && input.size > limit) return { state: "too_large", reason: `Documents over ${limit / (1024 * 1024)} MB are found by name only.` };
  // A long text file: its beginning is indexed (the character limit would cut it anyway).
  const length = Math.min(input.size, limit);
  const body = length === 0 ? null : await input.open(length);
  if (length > 0 && !body) return { state: "failed", reason: "The file's contents could not be read." };
  const bytes = body ? await readAll(body, length) : new Uint8Array();
  let raw: string;
  try {
    raw = kind === "pdf" ? await pdfText(bytes) : kind === "docx" ? await docxText(bytes, SEARCH_LIMITS.maxDocxXmlBytes) : new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  } catch (error) {
    return { state: "failed", reason: `The document could not be read: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300) };
  }
  const text = normaliseText(raw);
  return text ? { state: "indexed", text } : { state: "empty", reason: kind === "pdf" ? "This PDF has no text layer (a scan without OCR)." : "The document has no text." };
}
