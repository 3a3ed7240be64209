/**
 * The text of a Word document (.docx, Office Open XML) without a library: a DOCX is a ZIP whose
 * `word/document.xml` holds the body. We read the ZIP's central directory, inflate that one entry
 * with the runtime's DecompressionStream, and keep the text runs (`<w:t>`), a line per paragraph.
 * Bounded: an entry that inflates past `maxXmlBytes` stops there (a ZIP bomb is read no further).
 */

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export class DocxError extends Error {}

function entryData(bytes: Uint8Array, wanted: string): { method: number; data: Uint8Array } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record is in the last 64 KiB + 22 bytes (its comment is at most 65,535).
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (view.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new DocxError("It is not a ZIP archive, so not a Word document.");
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const decoder = new TextDecoder();
  for (let index = 0; index < count && at + 46 <= bytes.length; index++) {
    if (view.getUint32(at, true) !== CENTRAL) throw new DocxError("The archive's directory is damaged.");
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localOffset = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (name === wanted) {
      if (localOffset + 30 > bytes.length || view.getUint32(localOffset, true) !== LOCAL) throw new DocxError("The archive's entry is damaged.");
      const start = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
      return { method, data: bytes.subarray(start, Math.min(bytes.length, start + compressedSize)) };
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  return null;
}

async function inflate(data: Uint8Array, method: number, maxBytes: number): Promise<Uint8Array> {
  if (method === 0) return data.subarray(0, maxBytes);
  if (method !== 8) throw new DocxError(`The document uses a compression this reader does not know (method ${method}).`);
  const source = new ReadableStream<BufferSource>({
    start(controller) {
      controller.enqueue(new Uint8Array(data));
      controller.close();
    },
  });
  const reader = source.pipeThrough<Uint8Array>(new DecompressionStream("deflate-raw")).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
    if (total >= maxBytes) {
      await reader.cancel();
      break;
    }
  }
  const out = new Uint8Array(Math.min(total, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, out.length - offset);
    out.set(part, offset);
    offset += part.length;
    if (offset >= out.length) break;
  }
  return out;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

/** The body's text: each paragraph a line, tabs and breaks as spaces and lines, nothing of the markup. */
export function documentXmlText(xml: string): string {
  const parts: string[] = [];
  for (const match of xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<\/w:p>|<w:tab\/>|<w:br\/>|<w:cr\/>/g)) {
    if (match[1] !== undefined) parts.push(decodeEntities(match[1]));
    else parts.push(match[0] === "<w:tab/>" ? " " : "\n");
  }
  return parts.join("");
}

/** The text of a .docx file's bytes. Throws DocxError (with a reason a person can read) for what is not a readable Word document. */
export async function docxText(bytes: Uint8Array, maxXmlBytes: number): Promise<string> {
  const entry = entryData(bytes, "word/document.xml");
  if (!entry) throw new DocxError("The archive has no word/document.xml, so it is not a Word document.");
  const xml = await inflate(entry.data, entry.method, maxXmlBytes);
  return documentXmlText(new TextDecoder().decode(xml));
}
