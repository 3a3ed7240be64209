import { makeZip, predictLength } from "client-zip";
import type { FolderKind } from "~/db/schema";
import { auditRefusal, auditRoom } from "~/features/datarooms/audit-record.server";
import { NO_PROTECTION, WATERMARK_UNSUPPORTED_MESSAGE, WATERMARK_ZIP_MESSAGE } from "~/features/datarooms/protection";
import { protectionFor } from "~/features/datarooms/room-authority.server";
import { canCarryWatermark } from "~/features/watermark/watermark.constants";
import { watermarkedCopy, watermarkViewerOf, type DeliverableObject, type WatermarkViewer } from "~/features/watermark/watermark.server";
import type { WatermarkSettings } from "~/features/datarooms/protection";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import {
  FILE_CONTENT_SECURITY_POLICY,
  contentDisposition,
  contentRange,
  decideRange,
  downloadContentType,
  ifRangeAllows,
  matchesIfNoneMatch,
  previewContentType,
} from "./content-headers";
import { listChosenFiles, listFileVersions, listZipTree } from "./content.queries.server";
import { readStoredObject } from "./encryption.server";
import { ZIP_MAX_BYTES, ZIP_MAX_ENTRIES, formatBytes, previewKindOf, type PreviewKind } from "./files.constants";
import { isReadOnlyRole, type EffectiveSpaceRole } from "./files.permissions";
import { findBreadcrumbs, type FileRow } from "./folders.queries.server";
import { canDo, requireFileAccess, requireFolderAccess } from "./spaces.server";
import { zipPaths } from "./zip-paths";
import { isRedactableType } from "~/features/redaction/redaction-types";
import { isUuidShape } from "~/lib/uuid-shape";

/**
 * File content: downloads and previews streamed from R2 with ranges and validators (S15, G8),
 * the file page, and folder zips with caps checked before the first byte (S16).
 */

// ---- downloads and previews -----------------------------------------------------------------------

/** What a GET or HEAD for a file's bytes asked for (the transport copies the headers here). */
export type ContentRequest = {
  method: "GET" | "HEAD";
  range: string | null;
  ifNoneMatch: string | null;
  ifRange: string | null;
};

/** The answer, still to be put into a Response by the transport: status, headers, and R2's stream. */
export type ContentDelivery = { status: 200 | 206 | 304 | 416; headers: Headers; body: ReadableStream | string | null };

export type DeliveryMode = "download" | "preview";

/**
 * A strong validator from the R2 key: every upload (and every new version) writes a fresh key, so
 * the key names the bytes exactly, and a 304 costs no R2 call. Hashed, so the key stays private.
 */
export async function entityTagOf(file: Pick<FileRow, "r2Key" | "size">): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${file.r2Key}:${file.size}`));
  const hex = [...new Uint8Array(digest).slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `"${hex}"`;
}

function baseHeaders(file: FileRow, mode: DeliveryMode, source: DeliverableObject): Headers {
  const headers = new Headers({
    "Content-Type": mode === "download" ? downloadContentType(file.contentType) : previewContentType(file.contentType),
    "Content-Disposition": contentDisposition(mode === "download" ? "attachment" : "inline", file.name),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": FILE_CONTENT_SECURITY_POLICY,
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "private, no-store",
    "Accept-Ranges": "bytes",
    ETag: source.etag,
    "Last-Modified": source.lastModified.toUTCString(),
  });
  return headers;
}

export type Deliverable = DeliverableObject & { watermarked: boolean };

/**
 * What leaves R2 for this person: the original, or, where the room's watermark applies to them,
 * their stamped copy (ADR 020). A file that cannot carry the mark is not previewed then; its
 * download (where `download` allows one) is the original, as the room's settings page says.
 */
async function deliverableFor(ctx: ServiceContext, userId: string, file: FileRow, mode: DeliveryMode, inRoom: boolean): Promise<Deliverable> {
  const original = async (): Promise<Deliverable> => ({ key: file.r2Key, size: file.size, etag: await entityTagOf(file), lastModified: file.updatedAt, watermarked: false });
  if (!inRoom) return original();
  const { watermark } = await protectionFor(ctx, file.spaceId, userId);
  if (!watermark) return original();
  if (!canCarryWatermark(file.contentType, file.name)) {
    if (mode === "download") return original();
    await auditRefusal(ctx, file.spaceId, userId, WATERMARK_UNSUPPORTED_MESSAGE, { type: "file", id: file.id, name: file.name });
    throw new AppError("FORBIDDEN", WATERMARK_UNSUPPORTED_MESSAGE);
  }
  const copy = await watermarkedCopy(ctx, file, await watermarkViewerOf(ctx, userId, file.spaceId), watermark);
  return { ...copy, watermarked: true };
}

/**
 * GET/HEAD /api/files/:id/download (right `files.download`) and /preview (`files.view`): the
 * member's file from R2 (or their watermarked copy), whole or one byte range, never buffered in
 * the Worker.
 */
export async function deliverFileContent(
  ctx: ServiceContext,
  userId: string,
  fileId: string,
  mode: DeliveryMode,
  request: ContentRequest,
): Promise<ContentDelivery> {
  const { file, roomPermissions } = await requireFileAccess(ctx, userId, fileId, mode === "download" ? "files.download" : "files.view");
  const source = await deliverableFor(ctx, userId, file, mode, roomPermissions !== null);
  // In a data room, every opening is in the room's log before a byte leaves.
  const audit = roomPermissions ? { roomId: file.spaceId, actorId: userId as string | null, detail: source.watermarked ? "watermarked copy" : null } : null;
  return sendDeliverable(ctx, file, source, mode, request, audit);
}

/**
 * The bytes of a file someone may have (a member, or a share link's visitor: sharing/), from R2:
 * validators, one byte range or the whole object, never buffered. With `audit`, the opening (the
 * whole file, or a first range from byte 0: the PDF viewer's later ranges are the same view) is in
 * the room's log before a byte leaves.
 */
export async function sendDeliverable(
  ctx: ServiceContext,
  file: FileRow,
  source: Deliverable,
  mode: DeliveryMode,
  request: ContentRequest,
  audit: { roomId: string; actorId: string | null; detail: string | null } | null,
  /** Called once per opening (the whole file, or its first range) before the bytes leave: a share link's visit counts it. */
  onOpening?: () => Promise<void>,
): Promise<ContentDelivery> {
  const headers = baseHeaders(file, mode, source);

  if (matchesIfNoneMatch(request.ifNoneMatch, source.etag)) return { status: 304, headers, body: null };

  // Range applies to GET only (RFC 9110 §14.2); If-Range falls back to the whole file when stale.
  const useRange = request.method === "GET" && ifRangeAllows(request.ifRange, source.etag, headers.get("Last-Modified")!);
  const decision = useRange ? decideRange(request.range, source.size) : ({ kind: "full" } as const);

  if (decision.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${source.size}`);
    headers.set("Content-Type", "application/json");
    headers.delete("Content-Disposition");
    const message = `The requested range is outside the file, which has ${source.size} bytes.`;
    return { status: 416, headers, body: JSON.stringify({ message, code: "RANGE_NOT_SATISFIABLE" }) };
  }

  if (request.method === "HEAD") {
    headers.set("Content-Length", String(source.size));
    return { status: 200, headers, body: null };
  }

  const range = decision.kind === "partial" ? { offset: decision.offset, length: decision.length } : undefined;
  if (!range || range.offset === 0) {
    const action = mode === "download" ? "file.download" : "file.view";
    if (audit) await auditRoom(ctx, audit.roomId, audit.actorId, { action, target: { type: "file", id: file.id, name: file.name }, detail: audit.detail }, { required: true });
    await onOpening?.();
  }
  // Sealed objects (a data room's, ADR 021) are opened segment by segment on the way out.
  const body = await readStoredObject(ctx, source.key, source.size, range);
  if (!body) {
    ctx.logger.error("file content missing in R2", { fileId: file.id });
    throw new AppError("NOT_FOUND", "The content of this file is missing. Please upload it again.");
  }
  if (range) {
    headers.set("Content-Range", contentRange(range.offset, range.length, source.size));
    headers.set("Content-Length", String(range.length));
    return { status: 206, headers, body };
  }
  headers.set("Content-Length", String(source.size));
  return { status: 200, headers, body };
}

/**
 * What a share link's visitor gets of a file: the original, or a copy stamped for them (the room's
 * watermark, or the link's). A file that cannot carry a mark is not previewed then; its download
 * (where the link allows one) is the original, as in the room.
 */
export async function deliverableForVisitor(ctx: ServiceContext, file: FileRow, mode: DeliveryMode, watermark: { settings: WatermarkSettings; viewer: WatermarkViewer } | null): Promise<Deliverable> {
  const original: Deliverable = { key: file.r2Key, size: file.size, etag: await entityTagOf(file), lastModified: file.updatedAt, watermarked: false };
  if (!watermark) return original;
  if (!canCarryWatermark(file.contentType, file.name)) {
    if (mode === "download") return original;
    throw new AppError("FORBIDDEN", WATERMARK_UNSUPPORTED_MESSAGE);
  }
  return { ...(await watermarkedCopy(ctx, file, watermark.viewer, watermark.settings)), watermarked: true };
}

// ---- the file page ------------------------------------------------------------------------------

export type FileCrumb = { uid: string; label: string; kind: FolderKind };
export type FileVersionSummary = { id: string; version: number; size: number; type: string; createdAt: number };

export type FilePage = {
  file: {
    id: string;
    name: string;
    size: number;
    type: string;
    version: number;
    folderId: string;
    createdAt: number;
    updatedAt: number;
    previewKind: PreviewKind;
  };
  role: EffectiveSpaceRole;
  /** The data room the file is in (its page then follows the room's live permission changes), or null. */
  dataroomId: string | null;
  /** The room's protection as it applies to the viewer: their preview is a watermarked copy, print is off, download is off by download protection. */
  protection: { watermarked: boolean; printProtected: boolean; downloadProtected: boolean };
  canDownload: boolean;
  canEdit: boolean;
  canRedact: boolean;
  /** May make a share link of it: `share` in a room that is not archived; the owner of personal files. */
  canShare: boolean;
  crumbs: FileCrumb[];
  versions: FileVersionSummary[];
};

/** /files/:id: the file, the folders above it and its earlier versions (right `files.view`). */
export async function getFilePage(ctx: ServiceContext, userId: string, fileId: string): Promise<FilePage> {
  const { file, role, roomPermissions } = await requireFileAccess(ctx, userId, fileId, "files.view");
  const [crumbs, versions, protection] = await Promise.all([
    findBreadcrumbs(ctx.db, file.folderId),
    listFileVersions(ctx.db, file.id),
    roomPermissions ? protectionFor(ctx, file.spaceId, userId) : NO_PROTECTION,
  ]);
  return {
    file: {
      id: file.id,
      name: file.name,
      size: file.size,
      type: file.contentType,
      version: file.version,
      folderId: file.folderId,
      createdAt: file.createdAt.getTime(),
      updatedAt: file.updatedAt.getTime(),
      previewKind: previewKindOf(file.contentType, file.name),
    },
    role,
    dataroomId: roomPermissions ? file.spaceId : null,
    protection: { watermarked: protection.watermark !== null, printProtected: protection.printProtection, downloadProtected: protection.downloadProtection },
    canDownload: canDo(role, roomPermissions, "files.download"),
    canEdit: canDo(role, roomPermissions, "files.edit"),
    // Redaction (issue 39): PDFs and PNG, JPEG or WebP pictures, for those who may edit them and, in a room, redact there.
    canRedact: isRedactableType(file.contentType) && canDo(role, roomPermissions, "files.edit") && (!roomPermissions || roomPermissions.redact),
    canShare: roomPermissions ? roomPermissions.share && !isReadOnlyRole(role) : role === "owner",
    crumbs: crumbs.map((crumb) => ({ uid: crumb.id, label: crumb.label, kind: crumb.kind })),
    versions: versions.map((version) => ({
      id: version.id,
      version: version.version,
      size: version.size,
      type: version.contentType,
      createdAt: version.createdAt.getTime(),
    })),
  };
}

// ---- folder zip ---------------------------------------------------------------------------------

export type ZipCaps = { maxEntries: number; maxBytes: number };
export const DEFAULT_ZIP_CAPS: ZipCaps = { maxEntries: ZIP_MAX_ENTRIES, maxBytes: ZIP_MAX_BYTES };

/** Refuses (413, naming the cap) a zip with more entries or bytes than allowed (S16). */
export function assertWithinZipCaps(entries: number, bytes: number, caps: ZipCaps): void {
  if (entries > caps.maxEntries) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `This folder holds more than ${caps.maxEntries.toLocaleString("en-US")} files and folders; a zip download holds at most ${caps.maxEntries.toLocaleString("en-US")}. Download its subfolders one at a time.`,
    );
  }
  if (bytes > caps.maxBytes) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `This folder holds ${formatBytes(bytes)}; a zip download holds at most ${formatBytes(caps.maxBytes)}. Download its subfolders one at a time.`,
    );
  }
}

export type ZipEntry =
  | { kind: "folder"; name: string; lastModified: Date }
  | { kind: "file"; name: string; lastModified: Date; size: number; r2Key: string };

export type FolderZip = { fileName: string; length: number; entries: ZipEntry[] };

/**
 * Everything a folder zip will hold, read (one D1 round trip) and checked against the caps
 * before anything is streamed, so a refusal is a clean 413 and never a broken download.
 */
export async function prepareFolderZip(ctx: ServiceContext, userId: string, folderId: string, caps: ZipCaps = DEFAULT_ZIP_CAPS): Promise<FolderZip> {
  const access = await requireFolderAccess(ctx, userId, folderId, "files.download");
  if (access.roomPermissions && (await protectionFor(ctx, access.spaceId, userId)).watermark) {
    await auditRefusal(ctx, access.spaceId, userId, WATERMARK_ZIP_MESSAGE, { type: "folder", id: folderId });
    throw new AppError("FORBIDDEN", WATERMARK_ZIP_MESSAGE);
  }
  const tree = await listZipTree(ctx.db, access.spaceId, folderId, caps.maxEntries + 2);
  const root = tree.folders.find((folder) => folder.id === folderId);
  if (!root) throw new AppError("NOT_FOUND", "This folder does not exist or you don't have access to it.");

  const totalBytes = tree.files.reduce((sum, file) => sum + file.size, 0);
  assertWithinZipCaps(tree.folders.length - 1 + tree.files.length, totalBytes, caps);

  const paths = zipPaths(folderId, tree.folders, tree.files);
  const entries: ZipEntry[] = [];
  for (const folder of tree.folders) {
    const name = paths.folders.get(folder.id);
    if (name) entries.push({ kind: "folder", name, lastModified: new Date(folder.updatedAt) });
  }
  for (const file of tree.files) {
    const name = paths.files.get(file.id);
    if (name) entries.push({ kind: "file", name, lastModified: new Date(file.updatedAt), size: file.size, r2Key: file.r2Key });
  }
  const length = Number(predictLength(entries.map((entry) => (entry.kind === "folder" ? { name: entry.name } : { name: entry.name, size: entry.size }))));
  if (access.roomPermissions) {
    const detail = `${tree.files.length} file${tree.files.length === 1 ? "" : "s"}, ${formatBytes(totalBytes)}`;
    await auditRoom(ctx, access.spaceId, userId, { action: "folder.download", target: { type: "folder", id: folderId, name: root.label }, detail }, { required: true });
  }
  const label = root.label.replace(/[\u0000-\u001f\u007f-\u009f/\\]/g, "").trim() || "Folder";
  return { fileName: `${label}.zip`, length, entries };
}

/** A selection zip names at most this many files (the gallery's and the folder page's selections). */
export const ZIP_SELECTION_MAX = 500;

/**
 * Some files of one folder as a zip (a gallery's selection): the same rights, caps, watermark rule
 * and audit entry as the whole folder's zip. A chosen file that is no longer in the folder is a 404
 * naming no file (nothing of another folder is confirmed or denied).
 */
export async function prepareSelectionZip(ctx: ServiceContext, userId: string, folderId: string, fileIds: readonly string[], caps: ZipCaps = DEFAULT_ZIP_CAPS): Promise<FolderZip> {
  const access = await requireFolderAccess(ctx, userId, folderId, "files.download");
  const chosen = [...new Set(fileIds)];
  if (chosen.length === 0) throw new AppError("VALIDATION_ERROR", "Choose at least one file to download.");
  if (chosen.length > ZIP_SELECTION_MAX) throw new AppError("VALIDATION_ERROR", `A zip of chosen files holds at most ${ZIP_SELECTION_MAX}; download the whole folder instead.`);
  if (!chosen.every(isUuidShape)) throw new AppError("VALIDATION_ERROR", "The chosen files are named by their ids, separated by commas.");
  if (access.roomPermissions && (await protectionFor(ctx, access.spaceId, userId)).watermark) {
    await auditRefusal(ctx, access.spaceId, userId, WATERMARK_ZIP_MESSAGE, { type: "folder", id: folderId });
    throw new AppError("FORBIDDEN", WATERMARK_ZIP_MESSAGE);
  }
  const rows = await listChosenFiles(ctx.db, folderId, chosen);
  if (rows.length !== chosen.length) throw new AppError("NOT_FOUND", "Some of the chosen files are no longer in this folder. Reload the page and choose again.");
  const totalBytes = rows.reduce((sum, file) => sum + file.size, 0);
  assertWithinZipCaps(rows.length, totalBytes, caps);
  const label = (await findBreadcrumbs(ctx.db, folderId)).at(-1)?.label ?? "Folder";
  // The same clean, unique names as the folder's zip (no zip-slip, no two entries alike).
  const paths = zipPaths(folderId, [{ id: folderId, parentId: null, label }], rows.map((file) => ({ id: file.id, folderId, name: file.name })));
  const entries: ZipEntry[] = rows.map((file) => ({ kind: "file", name: paths.files.get(file.id)!, lastModified: file.updatedAt, size: file.size, r2Key: file.r2Key }));
  const length = Number(predictLength(entries.map((entry) => ({ name: entry.name, size: entry.kind === "file" ? entry.size : 0 }))));
  const detail = `${rows.length} chosen file${rows.length === 1 ? "" : "s"}, ${formatBytes(totalBytes)}`;
  if (access.roomPermissions) await auditRoom(ctx, access.spaceId, userId, { action: "folder.download", target: { type: "folder", id: folderId, name: label }, detail }, { required: true });
  const safe = label.replace(/[\u0000-\u001f\u007f-\u009f/\\]/g, "").trim() || "Folder";
  return { fileName: `${safe} (${rows.length} file${rows.length === 1 ? "" : "s"}).zip`, length, entries };
}

/**
 * The zip as a stream: each file is fetched from R2 only when the archive reaches it, so memory
 * stays flat whatever the folder holds. A file whose object vanished meanwhile ends the stream
 * with an error (the browser reports a failed download rather than saving a short archive).
 */
export function streamFolderZip(ctx: ServiceContext, zip: FolderZip): ReadableStream<Uint8Array> {
  async function* inputs() {
    for (const entry of zip.entries) {
      if (entry.kind === "folder") {
        yield { name: entry.name, lastModified: entry.lastModified };
        continue;
      }
      const body = await readStoredObject(ctx, entry.r2Key, entry.size);
      if (!body) {
        ctx.logger.error("zip entry missing in R2", { name: entry.name });
        throw new Error("A file of this folder is missing from storage.");
      }
      yield { name: entry.name, lastModified: entry.lastModified, size: entry.size, input: body };
    }
  }
  return makeZip(inputs(), { buffersAreUTF8: true });
}

/** Headers of a folder zip download. */
export function zipHeaders(zip: FolderZip): Headers {
  return new Headers({
    "Content-Type": "application/zip",
    "Content-Disposition": contentDisposition("attachment", zip.fileName),
    "Content-Length": String(zip.length),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": FILE_CONTENT_SECURITY_POLICY,
    "Cache-Control": "private, no-store",
  });
}
