/**
 * The HTTP rules of file delivery (S15), as pure functions shared by the download, preview and
 * zip endpoints and tested on their own: byte ranges (RFC 9110 §14), entity tags, the
 * Content-Disposition of RFC 6266 with an RFC 8187 `filename*`, and which types may be shown
 * inline. No bindings, no I/O.
 */

// ---- ranges -----------------------------------------------------------------------------------

/** What to send for a Range header against a representation of `size` bytes. */
export type RangeDecision =
  | { kind: "full" }
  | { kind: "partial"; offset: number; length: number }
  | { kind: "unsatisfiable" };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/i;

/**
 * One range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) gives a 206 for the bytes it names, clamped to
 * the end of the file; a range that starts past the end (or a zero-length suffix) cannot be
 * satisfied (416). Several ranges are answered with the whole file (200): RFC 9110 lets a server
 * ignore Range, and a multipart/byteranges body is something no client of ours asks for. A
 * header we cannot read is ignored the same way.
 */
export function decideRange(header: string | null | undefined, size: number): RangeDecision {
  if (!header) return { kind: "full" };
  const value = header.trim().replace(/\s+/g, "");
  if (value.includes(",")) return { kind: "full" };
  const match = SINGLE_RANGE.exec(value);
  if (!match) return { kind: "full" };
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return { kind: "full" };
  if (first === "") {
    const suffix = Number(last);
    if (!Number.isSafeInteger(suffix)) return { kind: "full" };
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    const length = Math.min(suffix, size);
    return { kind: "partial", offset: size - length, length };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: "full" };
  if (last !== "" && end < start) return { kind: "full" }; // invalid syntax: ignored (RFC 9110 §14.1.1)
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "partial", offset: start, length: Math.min(end, size - 1) - start + 1 };
}

export function contentRange(offset: number, length: number, size: number): string {
  return `bytes ${offset}-${offset + length - 1}/${size}`;
}

// ---- entity tags --------------------------------------------------------------------------------

/** Entity-tag values of an If-None-Match / If-Range header, without the weak prefix. */
function entityTags(header: string): string[] {
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .filter(Boolean);
}

/** If-None-Match uses the weak comparison: a listed tag or "*" means "you already have it". */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return entityTags(header).includes(etag.replace(/^W\//, ""));
}

/**
 * If-Range: the range is honoured only while the client's copy is current (the strong tag, or the
 * exact Last-Modified date); otherwise the whole file is sent.
 */
export function ifRangeAllows(header: string | null | undefined, etag: string, lastModified: string): boolean {
  if (!header) return true;
  const value = header.trim();
  if (value.startsWith('"')) return value === etag;
  if (value.startsWith("W/")) return false;
  return value === lastModified;
}

// ---- Content-Disposition ------------------------------------------------------------------------

/** RFC 8187 attr-char: everything else in a `filename*` value is percent-encoded. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

function encodeExtValue(value: string): string {
  let encoded = "";
  for (const char of value) {
    if (ATTR_CHAR.test(char)) encoded += char;
    else for (const byte of new TextEncoder().encode(char)) encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return encoded;
}

/** Control characters (C0, DEL, C1) never belong in a header or a file name. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The plain `filename` for clients that ignore `filename*`: accents dropped ("é" → "e"), anything
 * else outside printable ASCII replaced by "_", and no quote, backslash, CR or LF that could end
 * the parameter or the header.
 */
export function asciiFallbackName(name: string): string {
  const fallback = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(CONTROL_CHARS, "")
    .replace(/["\\]/g, "")
    .replace(/[^\x20-\x7e]/g, "_")
    .trim();
  return fallback || "download";
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266 §4.3), or `inline; …`. */
export function contentDisposition(disposition: "attachment" | "inline", name: string): string {
  const clean = name.replace(CONTROL_CHARS, "").trim() || "download";
  return `${disposition}; filename="${asciiFallbackName(clean)}"; filename*=UTF-8''${encodeExtValue(clean)}`;
}

// ---- inline types ---------------------------------------------------------------------------------

/**
 * A sandbox without allow-scripts (S15): even a document the browser would render (an SVG opened
 * on its own, a file we mislabelled) runs no script, loads nothing from elsewhere and cannot be
 * framed. Every download, preview and zip response carries it.
 */
export const FILE_CONTENT_SECURITY_POLICY =
  "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** Types a browser shows inline without running anything of the file's (S15). */
const INLINE_TYPES = new Set([
  "application/pdf",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  // Never rendered as a document: shown through <img> (no scripts there) and sandboxed above.
  "image/svg+xml",
  "video/mp4",
  "video/webm",
  "video/ogg",
  "video/quicktime",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
  "audio/x-wav",
  "audio/webm",
  "audio/mp4",
  "audio/aac",
  "audio/flac",
  "audio/x-flac",
]);

const TEXT_TYPES = new Set(["text/plain", "text/csv", "text/markdown", "application/json"]);

/**
 * The Content-Type of a preview: media and PDF keep their sniffed type, plain text formats are
 * text in UTF-8, and everything else (HTML, XHTML, any XML, scripts, unknown types) is served as
 * text/plain, so nothing uploaded is ever interpreted as a page on the app's origin.
 */
export function previewContentType(sniffedType: string): string {
  const type = sniffedType.split(";")[0]!.trim().toLowerCase();
  if (INLINE_TYPES.has(type)) return type;
  if (TEXT_TYPES.has(type)) return `${type}; charset=utf-8`;
  return "text/plain; charset=utf-8";
}

/** A download keeps its sniffed type (it is an attachment, with nosniff) unless it has none. */
export function downloadContentType(sniffedType: string): string {
  const type = sniffedType.trim();
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i.test(type) ? type : "application/octet-stream";
}
