import { fileTypeFromBuffer } from "file-type";

/**
 * The type of an uploaded file, from its first bytes (QUALITY S13): the browser's declared type
 * and the file name's extension are never trusted for binary formats. `file-type` recognises the
 * binary formats by their magic numbers; text has none, so it is recognised here by content, and
 * only plain text uses the extension to say which text it is (CSV, Markdown, JSON).
 * SVG and HTML are recognised by content whatever the name, so they are always served safely.
 */

/** How many leading bytes are read: file-type's "reasonable detection size". */
export const SNIFF_BYTES = 4100;

export const OCTET_STREAM = "application/octet-stream";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The sample as text, or null when it is binary (NUL bytes or not UTF-8). A character cut at the end of the sample is fine. */
function decodeText(sample: Uint8Array, isWholeFile: boolean): string | null {
  if (sample.includes(0)) return null;
  // Drop a multi-byte character cut in half by the sample's end (at most 3 bytes).
  for (let cut = 0; cut <= (isWholeFile ? 0 : 3); cut++) {
    try {
      return utf8.decode(sample.subarray(0, sample.length - cut));
    } catch {
      // try a shorter sample
    }
  }
  return null;
}

/** Control characters other than tab, newline, carriage return and form feed: a sign of binary data. */
function looksBinary(text: string): boolean {
  let controls = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) controls++;
  }
  return controls > Math.max(2, text.length / 100);
}

const HTML_START = /^<(!doctype\s+html|html|head|body|script|iframe|meta|title|style|link|div|p|a|table|form|img|svg:|br|h[1-6])[\s>/]/i;
const HTML_ANYWHERE = /<(script|iframe|html|body|object|embed)[\s>/]/i;

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** Recognises text formats by content (SVG, HTML, XML, JSON), then by extension for plain text. */
export function sniffText(text: string, name: string, isWholeFile: boolean): string {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  const head = body.slice(0, 1024).toLowerCase();
  // XML prologue and comments may come before the root element.
  const withoutProlog = head.replace(/^(<\?xml[^>]*>\s*|<!--[\s\S]*?-->\s*|<!doctype\s+svg[^>]*>\s*)*/i, "");
  if (withoutProlog.startsWith("<svg") || (head.startsWith("<?xml") && /<svg[\s>]/.test(head))) return "image/svg+xml";
  if (HTML_START.test(withoutProlog) || HTML_ANYWHERE.test(head)) return "text/html";
  if (head.startsWith("<?xml")) return "application/xml";
  const extension = extensionOf(name);
  if (extension === "json" || body.startsWith("{") || body.startsWith("[")) {
    if (isJson(body, isWholeFile)) return "application/json";
  }
  if (extension === "csv") return "text/csv";
  if (extension === "md" || extension === "markdown") return "text/markdown";
  return "text/plain";
}

function isJson(body: string, isWholeFile: boolean): boolean {
  if (!/^[[{]/.test(body)) return false;
  if (!isWholeFile) return true;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * The content type of a file whose first bytes are `sample` (up to SNIFF_BYTES). `isWholeFile`
 * says the sample is the entire file (then JSON is checked by parsing it).
 */
export async function sniffContentType(sample: Uint8Array, name: string, isWholeFile = sample.length < SNIFF_BYTES): Promise<string> {
  if (sample.length === 0) return "text/plain";
  const detected = await fileTypeFromBuffer(sample).catch(() => undefined);
  // file-type calls any XML document application/xml: SVG and XHTML must still be told apart.
  if (detected && detected.mime !== "application/xml") return detected.mime;
  const text = decodeText(sample, isWholeFile);
  if (text === null || looksBinary(text)) return OCTET_STREAM;
  return sniffText(text, name, isWholeFile);
}
