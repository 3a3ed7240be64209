import { FILE_NAME_MAX, FOLDER_LABEL_MAX, MAX_UPLOAD_SIZE, formatBytes } from "~/features/files/files.constants";

/**
 * The rules a receive page puts on what a visitor sends (issue 24), shared by the public page (to
 * say so before anything is sent) and the server (which enforces every one of them again).
 */

const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\/:*?"<>|]/g;

/**
 * A name from a visitor's computer made safe to keep: Unicode NFC, no control characters, none of
 * the characters Windows refuses (replaced by "_"), no leading or trailing dots and spaces, single
 * spaces, within the length limit (the extension is kept), and never empty.
 */
export function cleanReceivedName(raw: string, kind: "file" | "folder" = "file"): string {
  const max = kind === "file" ? FILE_NAME_MAX : FOLDER_LABEL_MAX;
  let name = raw.normalize("NFC").replace(UNSAFE_CHARACTERS, "_").replace(/\s+/g, " ").replace(/^[\s.]+|[\s.]+$/g, "");
  if (!name) name = kind === "file" ? "file" : "folder";
  if ([...name].length <= max) return name;
  // Too long: the stem is cut (by characters, never inside one), a short extension is kept.
  const dot = kind === "file" ? name.lastIndexOf(".") : -1;
  const extension = dot > 0 && name.length - dot <= 16 ? [...name.slice(dot)] : [];
  const stem = [...(extension.length > 0 ? name.slice(0, dot) : name)];
  return [...stem.slice(0, max - extension.length), ...extension].join("").trim();
}

/** The extension of a file name, lower-case without the dot ("" for none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** The folder a person's files go in, when the page keeps a folder per person: "Ada Lovelace (ada@example.com)". */
export function uploaderFolderLabel(name: string | null, email: string | null): string {
  const label = name && email ? `${name} (${email})` : (name ?? email ?? "");
  return cleanReceivedName(label, "folder");
}

export type FileRules = { allowedTypes: readonly string[]; maxFileMb: number | null };

/** Why a page does not take this file (its type or size), or null when it does. */
export function fileRefusal(rules: FileRules, file: { name: string; size: number }): string | null {
  const extension = extensionOf(file.name);
  if (rules.allowedTypes.length > 0 && !rules.allowedTypes.includes(extension)) {
    return `“${file.name}” is not a type this page takes. It takes ${rules.allowedTypes.map((type) => type.toUpperCase()).join(", ")} files.`;
  }
  const largest = rules.maxFileMb === null ? MAX_UPLOAD_SIZE : Math.min(MAX_UPLOAD_SIZE, rules.maxFileMb * 1024 * 1024);
  const label = rules.maxFileMb !== null && largest === rules.maxFileMb * 1024 * 1024 ? `${rules.maxFileMb.toLocaleString("en-US")} MB` : formatBytes(largest);
  if (file.size > largest) return `“${file.name}” is larger than this page takes (${label} a file).`;
  if (file.size === 0) return `“${file.name}” is empty: there is nothing to send.`;
  return null;
}

/**
 * The content types a file with this extension may have once its first bytes are read (S13): a
 * page that takes PDFs gets PDFs, not a renamed program. Extensions not listed are held to their
 * name only. Office formats are ZIP or OLE containers underneath, which the sniffer may report.
 */
const OFFICE_OPENXML = ["application/zip", "application/x-zip-compressed"];
const OLE = ["application/x-cfb", "application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint"];
const TEXT = ["text/plain", "text/csv", "text/markdown", "application/json"];
export const SNIFFED_TYPES: Record<string, readonly string[]> = {
  pdf: ["application/pdf"],
  docx: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document", ...OFFICE_OPENXML],
  xlsx: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ...OFFICE_OPENXML],
  pptx: ["application/vnd.openxmlformats-officedocument.presentationml.presentation", ...OFFICE_OPENXML],
  doc: OLE,
  xls: OLE,
  ppt: OLE,
  odt: ["application/vnd.oasis.opendocument.text", ...OFFICE_OPENXML],
  ods: ["application/vnd.oasis.opendocument.spreadsheet", ...OFFICE_OPENXML],
  jpg: ["image/jpeg"],
  jpeg: ["image/jpeg"],
  png: ["image/png"],
  gif: ["image/gif"],
  webp: ["image/webp"],
  heic: ["image/heic", "image/heif"],
  tif: ["image/tiff"],
  tiff: ["image/tiff"],
  zip: OFFICE_OPENXML,
  mp4: ["video/mp4"],
  mov: ["video/quicktime"],
  mp3: ["audio/mpeg"],
  txt: TEXT,
  csv: TEXT,
  md: TEXT,
  json: TEXT,
};

/** Whether a file's sniffed type fits its extension, when the page limits types. */
export function sniffedTypeFits(name: string, contentType: string): boolean {
  const expected = SNIFFED_TYPES[extensionOf(name)];
  return !expected || expected.includes(contentType);
}

/** Why a visitor's file is not kept when its types are limited and its first bytes do not match its name (S13), or null. */
export function contentRefusal(limitsTypes: boolean, name: string, contentType: string): string | null {
  if (!limitsTypes || sniffedTypeFits(name, contentType)) return null;
  return `“${name}” does not look like what its name says (its content is ${contentType}), so it was not kept. Send the file itself.`;
}
