import { loadMemberAccess, assertWithinLimit, requireFeature } from "~/features/access/access.server";
import { notifyFilesAddedJob } from "~/features/datarooms/datarooms.jobs";
import { requestUploadTriggers } from "~/features/workflows/workflows.jobs";
import { enqueueJob } from "~/features/jobs/enqueue-job.server";
import { AppError, type AppErrorCode } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { FOLDER_DEPTH_MAX, FOLDER_LABEL_MAX, MAX_UPLOAD_SIZE, UPLOAD_EXPIRY_MS, formatBytes, partSizeFor } from "./files.constants";
import { hashFileJob, hashJobId, newSha256Stream, toHex } from "./files.jobs";
import { requestContentIndexing } from "~/features/search/search.jobs";
import { SEGMENT_SIZE, encryptedPartSize, isEncryptedKey } from "./encryption-format";
import { newObjectKey, putStoredObject, putStoredStream, readStoredObject, sealingStream, sealsObjects, storedSize } from "./encryption.server";
import { fileNameSchema } from "./files.schema";
import { completeSecretFile, secretUploadTarget } from "~/features/secrets/secret-files.server";
import { uploadGrantOwner } from "~/features/secrets/secret-requests.server";
import { receiveDelivery, receiveGrantHolder, settleSubmission } from "~/features/receive/receive-delivery.server";
import { formFileDelivery, formGrantHolder, settleFormSubmission } from "~/features/forms/form-files.server";
import type { VisitorDelivery } from "./visitor-delivery";
import { freeNames } from "./free-names.server";
import { movedName } from "./move.server";
import { SNIFF_BYTES, sniffContentType } from "./sniff.server";
import { announceFilesChanged, assertSpaceRight, requireFolderAccess } from "./spaces.server";
import { assertUploadFits, spaceUsage } from "./storage.server";
import { requestDerivatives } from "~/features/galleries/galleries.jobs";
import {
  deleteUploadRow,
  findLiveFileByName,
  findLiveFolderByLabel,
  findOwnUpload,
  findUploadById,
  findUploadedHash,
  insertCompletedFile,
  insertFolderIfAbsent,
  insertUpload,
  insertVersionedFile,
  listExpiredUploads,
  listUploadParts,
  markSecretUploadCompleted,
  markUploadCompleting,
  recordPart,
  setUploadMultipart,
  type UploadRow,
} from "./uploads.queries.server";

/**
 * Resumable uploads: the tus 1.0 protocol (core + creation + termination) on top of R2 multipart
 * uploads (QUALITY G7, S13, S14). Every PATCH carries whole parts (the part size is fixed at
 * creation: partSizeFor(length)), so every R2 part but the last has the same size, each part is
 * streamed into R2 with a known length and never held in memory, and the offset only moves when a
 * part is stored. The declared length is reserved against the quota from creation on; nothing is
 * created when an upload is refused. See docs/files.md.
 */

export const TUS_VERSION = "1.0.0";
export const TUS_EXTENSIONS = "creation,termination";
export const TUS_CONTENT_TYPE = "application/offset+octet-stream";

/** A refusal that also tells the tus client something in headers (the offset, the part size). */
export class UploadError extends AppError {
  readonly headers: Record<string, string>;
  constructor(code: AppErrorCode, message: string, headers: Record<string, string> = {}) {
    super(code, message);
    this.headers = headers;
  }
}

const uploadGone = () => new AppError("NOT_FOUND", "This upload does not exist or has expired. Start it again.");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

// ---- request parsing --------------------------------------------------------------------------

function parseByteCount(value: string | undefined, header: string): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (!/^\d{1,16}$/.test(trimmed)) throw new AppError("VALIDATION_ERROR", `${header} must be a whole number of bytes.`);
  const parsed = Number(trimmed);
  if (!Number.isSafeInteger(parsed)) throw new AppError("VALIDATION_ERROR", `${header} is too large.`);
  return parsed;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeBase64Utf8(value: string, key: string): string {
  try {
    const binary = atob(value);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return utf8.decode(bytes);
  } catch {
    throw new AppError("VALIDATION_ERROR", `Upload-Metadata: the value of "${key}" is not base64-encoded UTF-8.`);
  }
}

/** tus Upload-Metadata: comma-separated `key base64value` pairs (the value may be absent). */
export function parseUploadMetadata(header: string | undefined): Map<string, string> {
  const metadata = new Map<string, string>();
  if (!header) return metadata;
  if (header.length > 8192) throw new AppError("VALIDATION_ERROR", "Upload-Metadata is too long.");
  for (const pair of header.split(",")) {
    const trimmed = pair.trim();
    if (!trimmed) continue;
    const parts = trimmed.split(" ");
    const key = parts[0] ?? "";
    if (parts.length > 2 || !/^[A-Za-z0-9_.-]{1,64}$/.test(key)) throw new AppError("VALIDATION_ERROR", "Upload-Metadata must be pairs of a key and a base64 value.");
    if (metadata.has(key)) throw new AppError("VALIDATION_ERROR", `Upload-Metadata names "${key}" twice.`);
    metadata.set(key, parts[1] === undefined ? "" : decodeBase64Utf8(parts[1], key));
  }
  return metadata;
}

/** A file name as members see it (fileNameSchema), or 400 naming the Upload-Metadata field. */
export function validateFileName(raw: string | undefined): string {
  const parsed = fileNameSchema.safeParse(raw ?? "");
  if (!parsed.success) throw new AppError("VALIDATION_ERROR", `filename: ${parsed.error.issues[0]?.message ?? "That is not a valid file name."}`);
  return parsed.data;
}

/** The folders of a dropped folder ("Reports/2026"): relative, no "." or "..", each a valid label. */
export function parseRelativePath(raw: string | undefined): string[] {
  if (raw === undefined || raw === "") return [];
  if (raw.startsWith("/") || raw.startsWith("\\") || /^[A-Za-z]:/.test(raw)) throw new AppError("VALIDATION_ERROR", "relativePath: The folder path must be relative.");
  if (raw.includes("\\") || CONTROL_CHARS.test(raw)) throw new AppError("VALIDATION_ERROR", "relativePath: The folder path cannot contain \\ or control characters.");
  const segments = raw.replace(/\/+$/, "").split("/");
  if (segments.length > FOLDER_DEPTH_MAX) throw new AppError("VALIDATION_ERROR", `relativePath: At most ${FOLDER_DEPTH_MAX} nested folders.`);
  return segments.map((segment) => {
    const label = segment.trim();
    if (!label || label === "." || label === "..") throw new AppError("VALIDATION_ERROR", "relativePath: The folder path cannot contain empty, \".\" or \"..\" parts.");
    if ([...label].length > FOLDER_LABEL_MAX) throw new AppError("VALIDATION_ERROR", `relativePath: A folder name is at most ${FOLDER_LABEL_MAX} characters.`);
    return label;
  });
}

// ---- creation ---------------------------------------------------------------------------------

export type CreateUploadInput = { uploadLength: string | undefined; deferLength: string | undefined; metadata: string | undefined };
export type UploadState = { id: string; offset: number; length: number; partSize: number; expiresAt: Date; fileId: string | null; sha256?: string | null };

/**
 * POST /api/uploads. Everything is checked before anything is created: the input, the folder
 * right "files.upload", the plan (folder uploads need bulk_upload), the quota with every
 * in-progress upload reserved, and the files and folders limits.
 */
export async function createUpload(ctx: ServiceContext, userId: string, input: CreateUploadInput): Promise<UploadState> {
  if (input.deferLength !== undefined) throw new AppError("VALIDATION_ERROR", "Uploads of unknown length are not supported: send the file's size in Upload-Length.");
  const length = parseByteCount(input.uploadLength, "Upload-Length");
  if (length === null) throw new AppError("VALIDATION_ERROR", "Upload-Length is required: uploads of unknown length are not supported.");
  if (length > MAX_UPLOAD_SIZE) throw new AppError("PAYLOAD_TOO_LARGE", `This file is larger than the largest upload allowed (${formatBytes(MAX_UPLOAD_SIZE)}).`);
  const metadata = parseUploadMetadata(input.metadata);
  const secretFileId = metadata.get("secretFileId");
  if (secretFileId !== undefined) return createSecretFileUpload(ctx, userId, length, secretFileId);
  const folderId = metadata.get("folderId") ?? "";
  if (!UUID.test(folderId)) throw new AppError("VALIDATION_ERROR", "folderId: Choose the folder to upload into.");
  const name = validateFileName(metadata.get("filename"));
  const path = parseRelativePath(metadata.get("relativePath"));

  const folder = await requireFolderAccess(ctx, userId, folderId, "files.upload");
  if (path.length > 0) requireFeature(await loadMemberAccess(ctx, userId), "bulk_upload");
  const usage = await spaceUsage(ctx, folder.spaceId);
  const isNewFile = path.length > 0 || !(await findLiveFileByName(ctx.db, folderId, name));
  assertUploadFits(usage, name, length, { isNewFile });
  if (path.length > 0) {
    const missing = await countMissingFolders(ctx, folder.spaceId, folderId, path);
    if (missing > 0) assertWithinLimit(usage.access, "max_dataroom_folders", usage.folderCount, missing);
  }

  const id = crypto.randomUUID();
  // A data room's files are sealed before they reach R2 (ADR 021); the key says so.
  const r2Key = newObjectKey("files", folder.spaceId, sealsObjects(folder.roomPermissions !== null, usage.access));
  const partSize = partSizeFor(length);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + UPLOAD_EXPIRY_MS);
  const multipart = length > partSize ? await ctx.env.FILES.createMultipartUpload(r2Key) : null;
  try {
    await insertUpload(ctx.db, {
      id,
      spaceId: folder.spaceId,
      folderId,
      userId,
      name,
      relativePath: path.join("/"),
      length,
      partSize,
      r2Key,
      r2UploadId: multipart?.uploadId ?? null,
      now,
      expiresAt,
    });
  } catch (error) {
    await multipart?.abort().catch(() => undefined);
    throw error;
  }
  ctx.logger.info("upload created", { uploadId: id, length, partSize, parts: Math.max(1, Math.ceil(length / partSize)) });

  if (length === 0) {
    // An empty file is complete on creation (tus: nothing to PATCH).
    await putStoredObject(ctx, r2Key, new Uint8Array(0));
    await markUploadCompleting(ctx.db, id, now);
    const upload = await findUploadById(ctx.db, id);
    if (!upload) throw uploadGone();
    const fileId = await completeUpload(ctx, upload, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    return { id, offset: 0, length, partSize, expiresAt, fileId };
  }
  return { id, offset: 0, length, partSize, expiresAt, fileId: null };
}

/**
 * A secret's file, sealed in the browser (issue 23): the same resumable path, into the secret's
 * own R2 key, checked by the secrets module (the member's pending file, its exact sealed size).
 * Ciphertext is neither sniffed nor hashed, and it lands in no folder.
 */
async function createSecretFileUpload(ctx: ServiceContext, userId: string, length: number, secretFileId: string): Promise<UploadState> {
  const target = await secretUploadTarget(ctx, userId, secretFileId, length);
  const id = crypto.randomUUID();
  const partSize = partSizeFor(length);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + UPLOAD_EXPIRY_MS);
  const multipart = length > partSize ? await ctx.env.FILES.createMultipartUpload(target.r2Key) : null;
  try {
    await insertUpload(ctx.db, { id, spaceId: target.spaceId, folderId: secretFileId, userId, name: "sealed secret file", relativePath: "", length, partSize, r2Key: target.r2Key, r2UploadId: multipart?.uploadId ?? null, now, expiresAt, secretFileId });
  } catch (error) {
    await multipart?.abort().catch(() => undefined);
    throw error;
  }
  ctx.logger.info("secret file upload created", { uploadId: id, length, partSize });
  return { id, offset: 0, length, partSize, expiresAt, fileId: null };
}

/**
 * A visitor without an account holds a grant: for an answer's sealed file (issue 23), or for the
 * files of their submission to a receive page (issue 24) or a form (issue 37). The upload runs in the name of the
 * request's or page's owner, and only for what the grant covers: a secret's file (its creation
 * names it; every later request is for the upload made for it), or the uploads the submission
 * made (they exist already: a receive grant creates nothing).
 */
export async function uploaderForGrant(ctx: ServiceContext, grantToken: string, request: { uploadId?: string; metadata?: string }): Promise<string> {
  const receiving = await receiveGrantHolder(ctx, grantToken);
  const answering = receiving ? null : await formGrantHolder(ctx, grantToken);
  if (receiving || answering) {
    if (request.uploadId === undefined || !UUID.test(request.uploadId)) throw uploadGone();
    const upload = await findUploadById(ctx.db, request.uploadId);
    const belongs = receiving ? upload?.receiveSubmissionId === receiving.submissionId : upload?.formSubmissionId === answering!.submissionId;
    if (!upload || !belongs) throw uploadGone();
    return (receiving ?? answering)!.userId;
  }
  const grant = await uploadGrantOwner(ctx, grantToken);
  const fileId =
    request.uploadId !== undefined
      ? UUID.test(request.uploadId)
        ? (await findUploadById(ctx.db, request.uploadId))?.secretFileId
        : null
      : parseUploadMetadata(request.metadata).get("secretFileId");
  if (fileId !== grant.fileId) throw uploadGone();
  return grant.userId;
}

/** How many folders of `path` under `parentId` do not exist yet (they count against the folder limit). */
async function countMissingFolders(ctx: ServiceContext, spaceId: string, parentId: string, path: string[]): Promise<number> {
  let current = parentId;
  for (let index = 0; index < path.length; index++) {
    const found = await findLiveFolderByLabel(ctx.db, spaceId, current, path[index]!);
    if (!found) return path.length - index;
    current = found.id;
  }
  return 0;
}

// ---- reading the state (HEAD) -------------------------------------------------------------------

async function requireOwnUpload(ctx: ServiceContext, userId: string, uploadId: string) {
  if (!UUID.test(uploadId)) throw uploadGone();
  const found = await findOwnUpload(ctx.db, uploadId, userId);
  if (!found) throw uploadGone();
  if (found.upload.status !== "completed" && found.upload.expiresAt.getTime() < ctx.now().getTime()) throw uploadGone();
  // A member who left the space sees nothing of it; one who lost the right is refused.
  if (!found.role) throw uploadGone();
  return { upload: found.upload, role: found.role };
}

function stateOf(upload: UploadRow, fileId: string | null = upload.fileId): UploadState {
  return { id: upload.id, offset: upload.offset, length: upload.length, partSize: upload.partSize, expiresAt: upload.expiresAt, fileId };
}

/**
 * HEAD /api/uploads/:id: the offset to resume from. An upload whose bytes have all arrived but
 * whose completion was interrupted is completed here (idempotently), so a client that resumes
 * and sees offset = length finds its file.
 */
export async function getUploadState(ctx: ServiceContext, userId: string, uploadId: string): Promise<UploadState> {
  const { upload, role } = await requireOwnUpload(ctx, userId, uploadId);
  if (upload.status === "completing") {
    await assertSpaceRight(ctx, userId, { spaceId: upload.spaceId, role }, "files.upload");
    return stateOf(upload, await completeUpload(ctx, upload, null));
  }
  if (upload.status === "completed" && upload.fileId && !upload.secretFileId) {
    // The uploader may learn the digest of what they sent (duplicates are found by it).
    return { ...stateOf(upload), sha256: await findUploadedHash(ctx.db, upload.fileId, upload.r2Key) };
  }
  return stateOf(upload);
}

// ---- PATCH: bytes arrive ----------------------------------------------------------------------

export type ChunkInput = {
  offset: string | undefined;
  contentLength: string | undefined;
  contentType: string | undefined;
  body: ReadableStream<Uint8Array> | null;
};

/**
 * PATCH /api/uploads/:id. Refuses (before reading a byte of the body) a wrong offset (409), a
 * body longer than what remains or not made of whole parts (413). Streams the body part by part
 * into R2, recording each part and moving the offset with a conditional update. When the last
 * byte is stored the upload is completed.
 */
export async function receiveChunk(ctx: ServiceContext, userId: string, uploadId: string, input: ChunkInput): Promise<UploadState> {
  const mediaType = (input.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== TUS_CONTENT_TYPE) throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Send the bytes as ${TUS_CONTENT_TYPE}.`);
  const { upload, role } = await requireOwnUpload(ctx, userId, uploadId);
  await assertSpaceRight(ctx, userId, { spaceId: upload.spaceId, role }, "files.upload");
  const offset = parseByteCount(input.offset, "Upload-Offset");
  if (offset === null) throw new AppError("VALIDATION_ERROR", "Upload-Offset is required.");
  const contentLength = parseByteCount(input.contentLength, "Content-Length");
  if (contentLength === null) throw new AppError("VALIDATION_ERROR", "Content-Length is required: send the chunk's size.");
  const partSizeHeader = { "Strongroom-Part-Size": String(upload.partSize) };
  if (offset !== upload.offset) {
    throw new UploadError("CONFLICT", `This upload is at byte ${upload.offset}, not ${offset}. Resume from there.`, {
      "Upload-Offset": String(upload.offset),
      ...partSizeHeader,
    });
  }
  const remaining = upload.length - upload.offset;
  if (contentLength > remaining) {
    throw new UploadError("PAYLOAD_TOO_LARGE", `This upload has ${remaining} bytes left, but the request sends ${contentLength}.`, partSizeHeader);
  }
  if (upload.status === "completed") return stateOf(upload);
  if (contentLength === 0) {
    return upload.status === "completing" ? stateOf(upload, await completeUpload(ctx, upload, null)) : stateOf(upload);
  }
  if (contentLength % upload.partSize !== 0 && upload.offset + contentLength !== upload.length) {
    throw new UploadError(
      "PAYLOAD_TOO_LARGE",
      `Send this file in chunks of exactly ${upload.partSize} bytes (${formatBytes(upload.partSize)}), or whatever remains for the last one.`,
      partSizeHeader,
    );
  }
  if (!input.body) throw new AppError("VALIDATION_ERROR", "The request has no body.");

  let current = upload.r2UploadId === null && upload.length > upload.partSize ? await startMultipart(ctx, upload) : upload;
  let sha256: string | null = null;
  try {
    if (current.r2UploadId === null) {
      sha256 = await storeSinglePart(ctx, current, input.body);
      current = { ...current, offset: current.length, status: "completing" };
    } else {
      current = await storeParts(ctx, current, input.body, contentLength);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Usually the client went away mid-part (nobody reads this answer); otherwise R2 failed. Either
    // way the stored offset is exact and the client resumes from it (tus clients retry a 409).
    ctx.logger.warn("upload interrupted", { uploadId, error: error instanceof Error ? error.message : String(error) });
    const stored = (await findUploadById(ctx.db, uploadId))?.offset ?? upload.offset;
    throw new UploadError("CONFLICT", `The upload was interrupted at byte ${stored}. It resumes from there.`, {
      "Upload-Offset": String(stored),
      ...partSizeHeader,
    });
  }
  if (current.offset < current.length) return stateOf(current);
  return stateOf(current, await completeUpload(ctx, current, sha256));
}

/**
 * Uploads made several at once (a receive page's submission) start without their R2 multipart
 * upload; the first PATCH of a file larger than one part starts it. Two PATCHes racing keep one.
 */
async function startMultipart(ctx: ServiceContext, upload: UploadRow): Promise<UploadRow> {
  const multipart = await ctx.env.FILES.createMultipartUpload(upload.r2Key);
  if (await setUploadMultipart(ctx.db, upload.id, multipart.uploadId)) return { ...upload, r2UploadId: multipart.uploadId };
  await multipart.abort().catch(() => undefined);
  const current = await findUploadById(ctx.db, upload.id);
  if (!current?.r2UploadId) throw uploadGone();
  return current;
}

function expiryFrom(ctx: ServiceContext): { now: Date; expiresAt: Date } {
  const now = ctx.now();
  return { now, expiresAt: new Date(now.getTime() + UPLOAD_EXPIRY_MS) };
}

function offsetMoved(upload: UploadRow): AppError {
  return new UploadError("CONFLICT", "Another request already sent these bytes. Ask for the offset and resume from there.", {
    "Strongroom-Part-Size": String(upload.partSize),
  });
}

/** A file of one part: one put with a known length, hashed on the way in. */
async function storeSinglePart(ctx: ServiceContext, upload: UploadRow, body: ReadableStream<Uint8Array>): Promise<string> {
  const digest = newSha256Stream();
  const [toStore, toHash] = body.tee();
  const [object] = await Promise.all([putStoredStream(ctx, upload.r2Key, upload.length, toStore), toHash.pipeTo(digest)]);
  if (!object) throw new Error("R2 did not store the object.");
  const { now, expiresAt } = expiryFrom(ctx);
  const moved = await recordPart(ctx.db, { uploadId: upload.id, partNumber: 1, etag: object.etag, size: upload.length, from: 0, to: upload.length, now, expiresAt });
  if (!moved) throw offsetMoved(upload);
  return toHex(await digest.digest);
}

/**
 * Whole parts of a multipart upload. The common case (one part per PATCH, what the browser and
 * the tus client send) pipes the body straight into the part; a PATCH of several parts is split
 * at the part boundaries as it streams. Each part is recorded as soon as R2 has it.
 */
async function storeParts(ctx: ServiceContext, upload: UploadRow, body: ReadableStream<Uint8Array>, byteCount: number): Promise<UploadRow> {
  const multipart = ctx.env.FILES.resumeMultipartUpload(upload.r2Key, upload.r2UploadId!);
  let position = upload.offset;
  const end = upload.offset + byteCount;
  const record = async (partNumber: number, etag: string, size: number) => {
    const { now, expiresAt } = expiryFrom(ctx);
    const moved = await recordPart(ctx.db, { uploadId: upload.id, partNumber, etag, size, from: position, to: position + size, now, expiresAt });
    if (!moved) throw offsetMoved(upload);
    position += size;
  };

  // A part as R2 stores it: the plaintext, or its sealed segments (the same size for every full part).
  const partStream = async (from: number, partLength: number) => {
    const fixed = new FixedLengthStream(isEncryptedKey(upload.r2Key) ? encryptedPartSize(partLength) : partLength);
    if (!isEncryptedKey(upload.r2Key)) return { readable: fixed.readable, writable: fixed.writable, sealed: Promise.resolve() };
    const sealing = await sealingStream(ctx, upload.r2Key, from / SEGMENT_SIZE, upload.length);
    return { readable: fixed.readable, writable: sealing.writable, sealed: sealing.readable.pipeTo(fixed.writable) };
  };

  const firstPartLength = Math.min(upload.partSize, upload.length - position);
  if (byteCount === firstPartLength) {
    const partNumber = position / upload.partSize + 1;
    const target = await partStream(position, firstPartLength);
    const [part] = await Promise.all([multipart.uploadPart(partNumber, target.readable), body.pipeTo(target.writable), target.sealed]);
    await record(partNumber, part.etag, firstPartLength);
  } else {
    const reader = body.getReader();
    let leftover: Uint8Array | null = null;
    try {
      while (position < end) {
        const partLength = Math.min(upload.partSize, upload.length - position);
        const partNumber = position / upload.partSize + 1;
        const target = await partStream(position, partLength);
        const writer = target.writable.getWriter();
        const writing = (async () => {
          let written = 0;
          while (written < partLength) {
            let chunk: Uint8Array | null = leftover;
            leftover = null;
            if (!chunk) {
              const { done, value } = await reader.read();
              if (done) throw new Error("The request body ended before Content-Length bytes arrived.");
              chunk = value;
            }
            const room = partLength - written;
            if (chunk.byteLength > room) {
              leftover = chunk.subarray(room);
              chunk = chunk.subarray(0, room);
            }
            await writer.write(chunk);
            written += chunk.byteLength;
          }
          await writer.close();
        })().catch(async (error: unknown) => {
          await writer.abort(error).catch(() => undefined);
          throw error;
        });
        const [part] = await Promise.all([multipart.uploadPart(partNumber, target.readable), writing, target.sealed]);
        await record(partNumber, part.etag, partLength);
      }
    } finally {
      reader.releaseLock();
    }
  }
  return { ...upload, offset: position, status: position >= upload.length ? "completing" : upload.status };
}

// ---- completion ---------------------------------------------------------------------------------

/**
 * Turns a fully received upload into a file: completes the R2 multipart upload, sniffs the type
 * from the object's first bytes, creates the folders of a dropped folder, inserts the file (or a
 * new version of a same-named file) and marks the upload completed in one batch, then hashes
 * multipart objects in the background. Idempotent and safe to run concurrently: every step is
 * either repeatable or conditional on the upload not being completed yet.
 */
async function completeUpload(ctx: ServiceContext, upload: UploadRow, sha256: string | null): Promise<string> {
  if (upload.status === "completed" && upload.fileId) return upload.fileId;
  if (upload.r2UploadId !== null) await completeMultipart(ctx, upload);
  if (upload.secretFileId) {
    await completeSecretFile(ctx, upload.secretFileId);
    await markSecretUploadCompleted(ctx.db, upload.id, upload.secretFileId, ctx.now());
    return upload.secretFileId;
  }

  const sample = upload.length === 0 ? new Uint8Array(0) : await readSample(ctx, upload);
  const contentType = await sniffContentType(sample, upload.name, upload.length <= SNIFF_BYTES);
  const received = await visitorDeliveryOf(ctx, upload);
  if (received) await refuseReceivedContent(ctx, upload, received, contentType);
  const folder = await requireFolderAccess(ctx, upload.userId, upload.folderId, "files.upload");
  const folderId = await ensureFolderPath(ctx, folder.spaceId, upload.folderId, upload.relativePath, upload.userId);
  const existing = await findLiveFileByName(ctx.db, folderId, upload.name);
  // A visitor's file never replaces one already there: it takes a free name beside it.
  const isVersion = !received && existing !== undefined && existing.id !== upload.id;
  const name = received && existing && existing.id !== upload.id ? (await freeNames(ctx, "file", folderId, [upload.name], movedName, new Set()))[0]! : upload.name;
  const content = {
    uploadId: upload.id,
    spaceId: upload.spaceId,
    folderId,
    name,
    size: upload.length,
    contentType,
    sha256,
    r2Key: upload.r2Key,
    userId: upload.userId,
    now: ctx.now(),
  };
  if (isVersion) await insertVersionedFile(ctx.db, { ...content, fileId: existing.id });
  else await insertCompletedFile(ctx.db, content);

  const done = await findUploadById(ctx.db, upload.id);
  if (done?.status !== "completed" || !done.fileId) throw new AppError("CONFLICT", "The upload could not be completed. Please try again.");
  if (sha256 === null) {
    await enqueueJob(ctx, { definition: hashFileJob, payload: { fileId: done.fileId, r2Key: upload.r2Key }, jobId: hashJobId(upload.r2Key) });
  }
  await requestContentIndexing(ctx, done.fileId, upload.r2Key);
  await requestDerivatives(ctx, { id: done.fileId, contentType }, upload.r2Key);
  await requestUploadTriggers(ctx, { uploadId: upload.id, fileId: done.fileId, folderId, uploadedBy: upload.userId });
  ctx.logger.info("upload completed", { uploadId: upload.id, fileId: done.fileId, size: upload.length, contentType });
  await announceFilesChanged(ctx, [upload.spaceId], "added", {
    userId: upload.userId,
    events: () => [
      {
        action: "file.upload",
        target: { type: "file", id: done.fileId, name },
        detail: `${formatBytes(upload.length)}, ${contentType}${isVersion ? ", a new version" : ""}${received ? `, ${received.auditDetail}` : ""}`,
      },
    ],
  }, (roomId) =>
    // Everyone else in the room hears about it (grouped per uploader), off this request.
    enqueueJob(ctx, {
      definition: notifyFilesAddedJob,
      payload: { roomId, actorId: upload.userId, uploadId: upload.id, fileId: done.fileId!, fileName: name },
      jobId: `${notifyFilesAddedJob.type}:${upload.id}`,
      priority: "low",
    }),
  );
  if (received) {
    await received.record({ uploadId: upload.id, fileId: done.fileId, name });
    await settleVisitorUpload(ctx, upload);
  }
  return done.fileId;
}

/** What the module a visitor sent the file through does around it (null: a member's own upload). */
async function visitorDeliveryOf(ctx: ServiceContext, upload: UploadRow): Promise<VisitorDelivery | null> {
  if (upload.receiveSubmissionId) return receiveDelivery(ctx, upload.receiveSubmissionId);
  if (upload.formSubmissionId) return formFileDelivery(ctx, upload.formSubmissionId);
  return null;
}

/** A visitor's upload finished, was withdrawn or given up: once none of its submission's is on its way, the owner is told. */
async function settleVisitorUpload(ctx: ServiceContext, upload: Pick<UploadRow, "receiveSubmissionId" | "formSubmissionId" | "spaceId" | "folderId">): Promise<void> {
  if (upload.receiveSubmissionId) await settleSubmission(ctx, upload.receiveSubmissionId, upload);
  if (upload.formSubmissionId) await settleFormSubmission(ctx, upload.formSubmissionId);
}

/**
 * A visitor's file whose first bytes do not match its type, on a page that limits types, is not
 * kept: its bytes and its upload go, the submission settles without it, and the visitor is told.
 */
async function refuseReceivedContent(ctx: ServiceContext, upload: UploadRow, received: VisitorDelivery, contentType: string): Promise<void> {
  const refusal = received.refusal({ uploadId: upload.id, name: upload.name }, contentType);
  if (!refusal) return;
  await ctx.env.FILES.delete(upload.r2Key);
  await deleteUploadRow(ctx.db, upload.id);
  ctx.logger.warn("received file refused by its content", { uploadId: upload.id, contentType });
  await settleVisitorUpload(ctx, upload);
  throw new AppError("UNSUPPORTED_MEDIA_TYPE", refusal);
}

async function completeMultipart(ctx: ServiceContext, upload: UploadRow): Promise<void> {
  const parts = await listUploadParts(ctx.db, upload.id);
  const expected = Math.ceil(upload.length / upload.partSize);
  const isWhole = parts.length === expected && parts.every((part, index) => part.partNumber === index + 1);
  if (!isWhole) throw new AppError("CONFLICT", "Some parts of this upload are missing. Ask for the offset and resume.");
  const multipart = ctx.env.FILES.resumeMultipartUpload(upload.r2Key, upload.r2UploadId!);
  try {
    await multipart.complete(parts.map((part) => ({ partNumber: part.partNumber, etag: part.etag })));
  } catch (error) {
    // Completed by an earlier attempt: the object is there with the full length.
    const head = await ctx.env.FILES.head(upload.r2Key);
    if (head?.size !== storedSize(upload.r2Key, upload.length)) throw error;
  }
}

async function readSample(ctx: ServiceContext, upload: UploadRow): Promise<Uint8Array> {
  const body = await readStoredObject(ctx, upload.r2Key, upload.length, { offset: 0, length: Math.min(SNIFF_BYTES, upload.length) });
  if (!body) throw new AppError("CONFLICT", "The uploaded content is missing. Start the upload again.");
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/**
 * A folder id derived from its parent and label, so the uploads of one dropped folder, completing
 * at the same moment, create each folder once (the insert ignores an existing id).
 */
async function derivedFolderId(spaceId: string, parentId: string, label: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`upload-folder\n${spaceId}\n${parentId}\n${label}`)));
  const bytes = digest.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80; // version 8: application-defined
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = toHex(bytes.slice().buffer);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Finds or creates the folders of `relativePath` under `parentId`; returns the deepest one. */
async function ensureFolderPath(ctx: ServiceContext, spaceId: string, parentId: string, relativePath: string, userId: string): Promise<string> {
  let current = parentId;
  for (const label of relativePath ? relativePath.split("/") : []) {
    let found = await findLiveFolderByLabel(ctx.db, spaceId, current, label);
    if (!found) {
      await insertFolderIfAbsent(ctx.db, { id: await derivedFolderId(spaceId, current, label), spaceId, parentId: current, label, userId, now: ctx.now() });
      found = await findLiveFolderByLabel(ctx.db, spaceId, current, label);
    }
    if (!found) {
      // The derived id belongs to a trashed folder of that name: make a new one.
      const id = crypto.randomUUID();
      await insertFolderIfAbsent(ctx.db, { id, spaceId, parentId: current, label, userId, now: ctx.now() });
      found = { id };
    }
    current = found.id;
  }
  return current;
}

// ---- termination and expiry -----------------------------------------------------------------

/** Removes an unfinished upload's R2 state: the multipart upload and any object at its key. */
async function discardStoredBytes(ctx: ServiceContext, upload: { r2Key: string; r2UploadId: string | null }): Promise<void> {
  if (upload.r2UploadId) {
    try {
      await ctx.env.FILES.resumeMultipartUpload(upload.r2Key, upload.r2UploadId).abort();
    } catch (error) {
      // Already aborted or completed: nothing left to abort.
      ctx.logger.info("multipart upload already gone", { error: error instanceof Error ? error.message : String(error) });
    }
  }
  await ctx.env.FILES.delete(upload.r2Key);
}

/**
 * DELETE /api/uploads/:id (tus termination): the uploader may always withdraw their own upload.
 * R2 first, then the row, so a failure leaves the row for the next try or the nightly purge.
 * A completed upload only forgets its state: the file stays.
 */
export async function terminateUpload(ctx: ServiceContext, userId: string, uploadId: string): Promise<void> {
  if (!UUID.test(uploadId)) throw uploadGone();
  const found = await findOwnUpload(ctx.db, uploadId, userId);
  if (!found || !found.role) throw uploadGone();
  if (found.upload.status !== "completed") await discardStoredBytes(ctx, found.upload);
  await deleteUploadRow(ctx.db, uploadId);
  ctx.logger.info("upload terminated", { uploadId, status: found.upload.status });
  // A visitor who withdraws the last file still on its way completes their submission.
  await settleVisitorUpload(ctx, found.upload);
}

const EXPIRED_BATCH = 100;
const EXPIRED_ROUNDS = 20;

/**
 * For the nightly purge: aborts every upload past its expiry (R2 first, then the row) and forgets
 * completed ones. Idempotent; each call handles up to 2,000 and reports whether more remain.
 */
export async function abortExpiredUploads(ctx: ServiceContext, now: Date): Promise<{ aborted: number; forgotten: number; hasMore: boolean }> {
  let aborted = 0;
  let forgotten = 0;
  for (let round = 0; round < EXPIRED_ROUNDS; round++) {
    const expired = await listExpiredUploads(ctx.db, now, EXPIRED_BATCH);
    for (const upload of expired) {
      if (upload.status === "completed") forgotten++;
      else {
        await discardStoredBytes(ctx, upload);
        aborted++;
      }
      await deleteUploadRow(ctx.db, upload.id);
      // A visitor's abandoned file: the rest of their submission is delivered and its owner told.
      if (upload.status !== "completed") await settleVisitorUpload(ctx, upload);
    }
    if (expired.length < EXPIRED_BATCH) return { aborted, forgotten, hasMore: false };
  }
  return { aborted, forgotten, hasMore: true };
}
