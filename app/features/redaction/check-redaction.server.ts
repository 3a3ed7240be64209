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

/**
 * The text of every string in the file (literal "(…)" and hex "<…>" strings, in the file and in
 * every stream it could inflate; hex also read as UTF-16), joined and lower-cased. Only strings
 * are searched: names and operators ("/Page", "/Font") are PDF syntax, not content.
 */
async function stringsOf(bytes: Uint8Array): Promise<string> {
  const raw = latin1(bytes);
  const sources = [raw];
  const streamStart = /stream\r?\n/g;
  for (let match = streamStart.exec(raw); match; match = streamStart.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) break;
    const inflated = await inflate(bytes.subarray(start, end));
    if (inflated) sources.push(latin1(inflated));
    streamStart.lastIndex = end;
  }
  const found: string[] = [];
  for (const source of sources) collectStrings(source, found);
  return found.join("").toLowerCase();
}

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };

function collectStrings(source: string, into: string[]): void {
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === "(") {
      let depth = 1;
      let text = "";
      for (index += 1; index < source.length && depth > 0; index += 1) {
        const next = source[index]!;
        if (next === "\\") {
          const escaped = source[index + 1] ?? "";
          if (/[0-7]/.test(escaped)) {
            const octal = /^[0-7]{1,3}/.exec(source.slice(index + 1, index + 4))![0];
            text += String.fromCharCode(parseInt(octal, 8));
            index += octal.length;
          } else {
            text += ESCAPES[escaped] ?? escaped;
            index += 1;
          }
        } else if (next === "(") {
          depth += 1;
          text += next;
        } else if (next === ")") {
          depth -= 1;
          if (depth > 0) text += next;
        } else text += next;
      }
      index -= 1;
      into.push(text);
    } else if (char === "<" && source[index + 1] !== "<") {
      const end = source.indexOf(">", index + 1);
      if (end < 0) break;
      const digits = source.slice(index + 1, end).replace(/\s+/g, "");
      if (/^[0-9a-fA-F]*$/.test(digits) && digits.length >= 2) {
        const codes = (digits.length % 2 ? `${digits}0` : digits).match(/../g)!.map((pair) => parseInt(pair, 16));
        into.push(String.fromCharCode(...codes));
        if (codes.length % 2 === 0) {
          let wide = "";
          for (let at = 0; at < codes.length; at += 2) wide += String.fromCharCode((codes[at]! << 8) | codes[at + 1]!);
          into.push(wide);
        }
      }
      index = end;
    } else if (char === "<") index += 1;
  }
}

const normalise = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * `pageTexts`: the text left on each page (the engine's reading), which exempts a removed word
 * still visible elsewhere from the byte search; the characters under the marks are read here,
 * by this reader, on the marked pages.
 */
export async function checkRedaction(bytes: Uint8Array, rects: readonly PageRect[], removedText: readonly string[], pageTexts: readonly string[]): Promise<RedactionCheck> {
  const pdf = await PDF.load(bytes);
  const pages = pdf.getPages();
  const pagesWithTextUnderMarks = new Set<number>();
  const markedPages = new Set(rects.map((rect) => rect.page));
  for (const page of pages) {
    if (!markedPages.has(page.index)) continue;
    const text = page.extractText({ includeChars: true });
    const marks = rects.filter((rect) => rect.page === page.index);
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
  const everywhere = pageTexts.map(normalise).join(" ");
  const haystack = await stringsOf(bytes);
  const stringsFoundInBytes: string[] = [];
  const alsoElsewhere: string[] = [];
  for (const removed of new Set(removedText.map(normalise))) {
    // Each word of what was under a mark, long enough to mean something on its own.
    for (const word of new Set(removed.split(" ").filter((one) => one.length >= SEARCHABLE_MIN))) {
      if (everywhere.includes(word)) {
        alsoElsewhere.push(word);
        continue;
      }
      if (haystack.includes(word)) stringsFoundInBytes.push(word);
    }
  }
  return {
    passed: pagesWithTextUnderMarks.size === 0 && stringsFoundInBytes.length === 0,
    pagesWithTextUnderMarks: [...pagesWithTextUnderMarks].sort((a, b) => a - b),
    stringsFoundInBytes,
    alsoElsewhere,
  };
}
