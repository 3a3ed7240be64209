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

/**
 * A stream's data inflated, or null when it is not deflate data. What inflated before an error
 * (junk after the end of the data, a truncated stream) is kept: a reader would show it too.
 */
async function inflate(data: Uint8Array): Promise<Uint8Array | null> {
  for (const format of ["deflate", "deflate-raw"] as const) {
    const chunks: Uint8Array[] = [];
    const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream(format)).getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    } catch {
      // not this format, or an error part-way: keep what came out before it
    }
    if (chunks.length) {
      const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
      let at = 0;
      for (const chunk of chunks) {
        out.set(chunk, at);
        at += chunk.byteLength;
      }
      return out;
    }
  }
  return null;
}

/** Character codes to a string, in chunks (spreading a long array into one call overflows the stack). */
const fromCodes = (codes: ArrayLike<number>) => {
  let out = "";
  for (let index = 0; index < codes.length; index += 8192) out += String.fromCharCode(...Array.prototype.slice.call(codes, index, index + 8192));
  return out;
};
const latin1 = (bytes: Uint8Array) => fromCodes(bytes);

/**
 * Which of `words` appear in the file's strings (literal "(…)" and hex "<…>" strings, in the file
 * and in every stream it could inflate; hex also read as UTF-16), lower-cased. Only strings are
 * searched: names and operators ("/Page", "/Font") are PDF syntax, not content. Each stream is
 * searched as it is inflated and then let go, and the file's text outside its streams last, so a
 * document of large drawings needs one stream's worth of memory at a time, not all of them.
 */
async function wordsInStrings(bytes: Uint8Array, words: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  if (!words.length) return [];
  const search = (source: string) => {
    const text = stringsIn(source).toLowerCase();
    for (const word of words) if (!found.has(word) && text.includes(word)) found.add(word);
  };
  const raw = latin1(bytes);
  const outside: string[] = [];
  const streamStart = /\bstream\r?\n/g;
  let from = 0;
  for (let match = streamStart.exec(raw); match; match = streamStart.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) break;
    outside.push(raw.slice(from, start));
    // The end-of-line before "endstream" is not part of the data.
    let dataEnd = end;
    if (raw[dataEnd - 1] === "\n") dataEnd -= 1;
    if (raw[dataEnd - 1] === "\r") dataEnd -= 1;
    const inflated = await inflate(bytes.subarray(start, dataEnd));
    // A stream that does not inflate (not compressed, or another filter) is searched as it is.
    search(inflated ? latin1(inflated) : raw.slice(start, end));
    // Past "endstream", or the "stream" inside it would start a stream of its own.
    from = end;
    streamStart.lastIndex = end + "endstream".length;
  }
  outside.push(raw.slice(from));
  search(outside.join("\n"));
  return words.filter((word) => found.has(word));
}

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };

/** A literal string's text from `source[start]` (just after its "(") to its closing ")": [text, index after it]. */
function literalString(source: string, start: number): [string, number] {
  let depth = 1;
  let index = start;
  let escaped = false;
  for (; index < source.length; index += 1) {
    const char = source.charCodeAt(index);
    if (char === 0x5c) {
      escaped = true;
      index += 1;
    } else if (char === 0x28) depth += 1;
    else if (char === 0x29 && --depth === 0) break;
  }
  const body = source.slice(start, index);
  if (!escaped) return [body, index + 1];
  // Escapes are rare: only then is the string read again character by character.
  const parts: string[] = [];
  for (let at = 0; at < body.length; at += 1) {
    const next = body[at]!;
    if (next !== "\\") {
      parts.push(next);
      continue;
    }
    const after = body[at + 1] ?? "";
    if (/[0-7]/.test(after)) {
      const octal = /^[0-7]{1,3}/.exec(body.slice(at + 1, at + 4))![0];
      parts.push(String.fromCharCode(parseInt(octal, 8)));
      at += octal.length;
    } else {
      parts.push(ESCAPES[after] ?? after);
      at += 1;
    }
  }
  return [parts.join(""), index + 1];
}

/** Every string in `source`, joined: literal strings as they read, hex strings as bytes and as UTF-16. */
function stringsIn(source: string): string {
  const into: string[] = [];
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === "(") {
      const [text, after] = literalString(source, index + 1);
      into.push(text);
      index = after - 1;
    } else if (char === "<" && source[index + 1] !== "<") {
      const end = source.indexOf(">", index + 1);
      if (end < 0) break;
      const digits = source.slice(index + 1, end).replace(/\s+/g, "");
      if (/^[0-9a-fA-F]*$/.test(digits) && digits.length >= 2) {
        const even = digits.length % 2 ? `${digits}0` : digits;
        const codes = new Uint8Array(even.length / 2);
        for (let at = 0; at < codes.length; at += 1) codes[at] = parseInt(even.slice(at * 2, at * 2 + 2), 16);
        into.push(fromCodes(codes));
        if (codes.length % 2 === 0) {
          const wide = new Uint16Array(codes.length / 2);
          for (let at = 0; at < wide.length; at += 1) wide[at] = (codes[at * 2]! << 8) | codes[at * 2 + 1]!;
          into.push(fromCodes(wide));
        }
      }
      index = end;
    } else if (char === "<") index += 1;
  }
  return into.join("");
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
  const alsoElsewhere: string[] = [];
  const toSearch: string[] = [];
  for (const removed of new Set(removedText.map(normalise))) {
    // Each word of what was under a mark, long enough to mean something on its own.
    for (const word of new Set(removed.split(" ").filter((one) => one.length >= SEARCHABLE_MIN))) {
      if (everywhere.includes(word)) alsoElsewhere.push(word);
      else if (!toSearch.includes(word)) toSearch.push(word);
    }
  }
  const stringsFoundInBytes = await wordsInStrings(bytes, toSearch);
  return {
    passed: pagesWithTextUnderMarks.size === 0 && stringsFoundInBytes.length === 0,
    pagesWithTextUnderMarks: [...pagesWithTextUnderMarks].sort((a, b) => a - b),
    stringsFoundInBytes,
    alsoElsewhere,
  };
}
