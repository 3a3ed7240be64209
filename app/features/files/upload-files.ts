import type { DetailedError } from "tus-js-client";

/**
 * The browser's side of uploading files (the file manager's upload panel and receive pages): what
 * a drop holds (folders walked, their structure kept), progress, and the server's refusals.
 */

/** How many uploads run at once; how long a failed request waits before each retry. */
export const UPLOAD_CONCURRENCY = 3;
export const UPLOAD_RETRY_DELAYS = [0, 1000, 3000, 5000, 10000];

export type UploadStatus = "queued" | "uploading" | "paused" | "done" | "error";

export type UploadItem = {
  key: string;
  name: string;
  /** Folders inside a dropped folder ("Reports/2026"), created on the server; "" for none. */
  relativePath: string;
  size: number;
  bytesSent: number;
  status: UploadStatus;
  error: string | null;
};

export type PendingFile = { file: File; relativePath: string };

/** The folder part of a path inside a dropped or chosen folder: "Reports/2026/a.pdf" → "Reports/2026". */
export function directoryOf(path: string): string {
  const parts = path.split("/").filter(Boolean);
  return parts.slice(0, -1).join("/");
}

/** Bytes sent and total across the uploads still on the list (finished ones count as whole). */
export function overallProgress(items: readonly UploadItem[]): { sent: number; total: number; percent: number } {
  let sent = 0;
  let total = 0;
  for (const item of items) {
    total += item.size;
    sent += item.status === "done" ? item.size : item.bytesSent;
  }
  return { sent, total, percent: total === 0 ? 100 : (sent / total) * 100 };
}

/** The server's message of a refused upload (its JSON `message`), else the error's own text. */
export function uploadErrorMessage(error: Error | DetailedError): string {
  const response = "originalResponse" in error ? error.originalResponse : null;
  if (response) {
    const status = response.getStatus();
    try {
      const body = JSON.parse(response.getBody()) as { message?: unknown };
      if (typeof body.message === "string" && body.message) return body.message;
    } catch {
      // not JSON: fall through
    }
    if (status === 401) return "Your session has ended. Sign in again to upload.";
    if (status) return `The upload failed (HTTP ${status}). Please try again.`;
  }
  return "The upload could not reach the server. Check your connection and press Resume.";
}

// ---- reading dropped folders (File and Directory Entries API) -----------------------------------

function readAllEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const entries: FileSystemEntry[] = [];
    const readBatch = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(entries);
        else {
          entries.push(...batch);
          readBatch();
        }
      }, reject);
    readBatch();
  });
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every file below a dropped entry, with the folder path it sits in (the dropped folder's name first). */
async function walkEntry(entry: FileSystemEntry, parentPath: string, into: PendingFile[]): Promise<void> {
  if (entry.isFile) {
    into.push({ file: await fileOf(entry as FileSystemFileEntry), relativePath: parentPath });
    return;
  }
  if (entry.isDirectory) {
    const path = parentPath ? `${parentPath}/${entry.name}` : entry.name;
    for (const child of await readAllEntries((entry as FileSystemDirectoryEntry).createReader())) await walkEntry(child, path, into);
  }
}

export type DroppedItem = { entry: FileSystemEntry | null; file: File | null };

/**
 * What was dropped, taken synchronously: a DataTransfer is only readable while its event is being
 * dispatched, but the entries and files taken from it stay usable afterwards.
 */
export function takeDropped(dataTransfer: DataTransfer): DroppedItem[] {
  const items = [...dataTransfer.items].filter((item) => item.kind === "file");
  if (items.length === 0) return [...dataTransfer.files].map((file) => ({ entry: null, file }));
  return items.map((item) => ({ entry: typeof item.webkitGetAsEntry === "function" ? item.webkitGetAsEntry() : null, file: item.getAsFile() }));
}

/** The files to upload from a drop; folders are walked (structure kept) only when allowed. */
export async function filesFromDrop(dropped: DroppedItem[], includeFolders: boolean): Promise<PendingFile[]> {
  const files: PendingFile[] = [];
  for (const { entry, file } of dropped) {
    if (entry?.isDirectory) {
      if (includeFolders) await walkEntry(entry, "", files);
    } else if (file) files.push({ file, relativePath: "" });
    else if (entry?.isFile) files.push({ file: await fileOf(entry as FileSystemFileEntry), relativePath: "" });
  }
  return files;
}
