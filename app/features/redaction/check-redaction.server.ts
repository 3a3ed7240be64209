import { PDF } from "@libpdf/core";
import type { PageRect } from "./redaction-types";

/**
 * The main Worker's own proof that a redaction worked (issue 39), by a second engine: the
 * redacted file's text layer is read with @libpdf/core (not PDFium, which did the redacting),
 * and no character may sit inside a mark; and each string that was under a mark must appear
 * nowhere in the file's bytes (raw, inside every deflated stream, and as hex or UTF-16 hex),
 * unless the same words are still on the pages outside the marks (then they are legitimately
 * there, and the report says so).
 */

export type RedactionCheck = {
  passed: boolean;
  /** Pages (0-based) where a character of the text layer is still inside a mark. */
  pagesWithTextUnderMarks: number[];
  /** Removed strings found again in the file's bytes. */
  stringsFoundInBytes: string[];
  /** Removed strings that still appear, unmarked, elsewhere in the document. */
  alsoElsewhere: string[];
};

/** Slack for rounding: a glyph must reach this far into a mark to count as inside it. */
const INSET = 0.5;
const SEARCHABLE_MIN = 4;

async function inflate(data: Uint8Array): Promise<Uint8Array | null> {
  for (const format of ["deflate", "deflate-raw"] as const) {
    try {
      const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream(format));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    } catch {
      // not this format (or not compressed)
    }
  }
  return null;
}

const latin1 = (bytes: Uint8Array) => {
  let out = "";
  for (let index = 0; index < bytes.length; index += 8192) out += String.fromCharCode(...bytes.subarray(index, index + 8192));
  return out;
};

/** The file's bytes as text, followed by every stream it could inflate, lower-cased (hex digits are compared in either case). */
async function searchableText(bytes: Uint8Array): Promise<string> {
  const raw = latin1(bytes);
  const parts = [raw];
  const streamStart = /stream\r?\n/g;
  for (let match = streamStart.exec(raw); match; match = streamStart.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) break;
    const inflated = await inflate(bytes.subarray(start, end));
    if (inflated) parts.push(latin1(inflated));
    streamStart.lastIndex = end;
  }
  return parts.join("\n").toLowerCase();
}

const hex = (codes: number[]) => codes.map((code) => code.toString(16).padStart(2, "0")).join("");
function encodings(text: string): string[] {
  const codes = [...text].map((char) => char.codePointAt(0)!);
  const forms = [text.toLowerCase()];
  if (codes.every((code) => code < 256)) forms.push(hex(codes));
  if (codes.every((code) => code < 0x10000)) forms.push(hex(codes.flatMap((code) => [code >> 8, code & 0xff])));
  return forms;
}

const normalise = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

export async function checkRedaction(bytes: Uint8Array, rects: readonly PageRect[], removedText: readonly string[]): Promise<RedactionCheck> {
  const pdf = await PDF.load(bytes);
  const pages = pdf.getPages();
  const pagesWithTextUnderMarks = new Set<number>();
  const pageTexts: string[] = [];
  for (const page of pages) {
    const text = page.extractText({ includeChars: true });
    pageTexts.push(normalise(text.text));
    const marks = rects.filter((rect) => rect.page === page.index);
    if (marks.length === 0) continue;
    for (const line of text.lines) {
      for (const span of line.spans) {
        for (const char of span.chars) {
          if (!char.char.trim()) continue;
          const { x, y, width, height } = char.bbox;
          const inside = marks.some((rect) => x + width > rect.left + INSET && x < rect.right - INSET && y + height > rect.bottom + INSET && y < rect.top - INSET);
          if (inside) pagesWithTextUnderMarks.add(page.index);
        }
      }
    }
  }
  const everywhere = pageTexts.join(" ");
  const haystack = await searchableText(bytes);
  const stringsFoundInBytes: string[] = [];
  const alsoElsewhere: string[] = [];
  for (const removed of new Set(removedText.map(normalise))) {
    // Each word of what was under a mark, long enough to mean something on its own.
    for (const word of new Set(removed.split(" ").filter((one) => one.length >= SEARCHABLE_MIN))) {
      if (everywhere.includes(word)) {
        alsoElsewhere.push(word);
        continue;
      }
      if (encodings(word).some((form) => haystack.includes(form))) stringsFoundInBytes.push(word);
    }
  }
  return {
    passed: pagesWithTextUnderMarks.size === 0 && stringsFoundInBytes.length === 0,
    pagesWithTextUnderMarks: [...pagesWithTextUnderMarks].sort((a, b) => a - b),
    stringsFoundInBytes,
    alsoElsewhere,
  };
}
