/**
 * Files and folders: names, limits and pure helpers shared by the server and the browser (no zod,
 * no bindings). The numbers here are the product's rules; docs/files.md explains each one.
 */

/** Spec §9: deleted items can be restored from the trash for 30 days. */
export const TRASH_RETENTION_DAYS = 30;
export const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** Rows per page in every file list (G1, G2, G4 measure this size). */
export const PAGE_SIZE = 100;

export const FOLDER_LABEL_MAX = 120;
export const FILE_NAME_MAX = 255;
export const FOLDER_DEPTH_MAX = 32;

export const FILE_SORTS = ["name", "created", "size"] as const;
export type FileSort = (typeof FILE_SORTS)[number];
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export const FILE_SORT_LABELS: Record<FileSort, string> = { name: "Name", created: "Date added", size: "Size" };

/** Folder kinds a member can see (the root is the hidden top of every space). */
export const VISIBLE_FOLDER_KINDS = ["regular", "inbox", "outbox", "gallery"] as const;
export type VisibleFolderKind = (typeof VISIBLE_FOLDER_KINDS)[number];

export const FOLDER_KIND_LABELS: Record<VisibleFolderKind, string> = {
  regular: "Folder",
  inbox: "Inbox",
  outbox: "Outbox",
  gallery: "Gallery",
};

// ---- uploads (tus on R2 multipart; G7) -------------------------------------------------------

const MiB = 1024 * 1024;
/** R2: every part but the last has the same size, at least 5 MiB; a request body stays < 100 MB. */
export const MIN_PART_SIZE = 8 * MiB;
export const MAX_PART_SIZE = 90 * MiB;
export const MAX_PARTS = 10_000;
/** The largest single file (R2's multipart ceiling with our largest part). */
export const MAX_UPLOAD_SIZE = MAX_PART_SIZE * MAX_PARTS;
/** An upload nobody touched for this long expires; the purge aborts it. */
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

/**
 * The part size for a file of `length` bytes: the same on the server and in the browser, so the
 * tus client sends chunks that are exactly one R2 part each. Whole MiB, between 8 MiB and 90 MiB.
 */
export function partSizeFor(length: number): number {
  const needed = Math.ceil(length / MAX_PARTS);
  const rounded = Math.ceil(needed / MiB) * MiB;
  return Math.min(MAX_PART_SIZE, Math.max(MIN_PART_SIZE, rounded));
}

// ---- downloads --------------------------------------------------------------------------------

/**
 * A folder downloaded as a zip: at most this many files and bytes (S16). Each file is one R2 read,
 * and a Worker request may make 1,000 subrequests on the Paid plan: the entry cap stays below it.
 */
export const ZIP_MAX_ENTRIES = 900;
export const ZIP_MAX_BYTES = 4 * 1024 * MiB;

// ---- tags and metadata -----------------------------------------------------------------------

export const TAG_MAX_LENGTH = 40;
export const TAGS_PER_FILE_MAX = 20;
export const METADATA_KEY_MAX = 64;
export const METADATA_VALUE_MAX = 1000;
export const METADATA_PER_FILE_MAX = 50;

// ---- presentation helpers ------------------------------------------------------------------

const UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/** 1536 → "1.5 KB" (binary multiples, one decimal below 10). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "0 B";
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

export type PreviewKind = "pdf" | "image" | "video" | "audio" | "text" | "markdown" | "csv" | "none";

/** How a file of this (sniffed) type and name is previewed. SVG is shown as an image, never inline HTML. */
export function previewKindOf(contentType: string, name: string): PreviewKind {
  const lower = name.toLowerCase();
  if (contentType === "application/pdf") return "pdf";
  if (/^image\/(png|jpeg|gif|webp|avif|bmp|svg\+xml)$/.test(contentType)) return "image";
  if (/^video\/(mp4|webm|ogg|quicktime)$/.test(contentType)) return "video";
  if (/^audio\/(mpeg|ogg|wav|x-wav|webm|mp4|aac|flac|x-flac)$/.test(contentType)) return "audio";
  if (contentType.startsWith("text/") || contentType === "application/json") {
    if (lower.endsWith(".md") || lower.endsWith(".markdown")) return "markdown";
    if (lower.endsWith(".csv") || contentType === "text/csv") return "csv";
    if (contentType === "text/html") return "none";
    return "text";
  }
  return "none";
}
