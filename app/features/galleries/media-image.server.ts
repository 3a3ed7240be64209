import type { WatermarkSettings } from "~/features/datarooms/protection";
import { protectionFor } from "~/features/datarooms/room-authority.server";
import { FILE_CONTENT_SECURITY_POLICY, contentDisposition, matchesIfNoneMatch } from "~/features/files/content-headers";
import { entityTagOf } from "~/features/files/content.server";
import { derivedKey, type DerivedObject } from "~/features/files/derived-objects";
import { readStoredObject } from "~/features/files/encryption.server";
import type { FileRow } from "~/features/files/folders.queries.server";
import { requireFileAccess } from "~/features/files/spaces.server";
import { watermarkedCopy, watermarkViewerOf, type WatermarkViewer } from "~/features/watermark/watermark.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { requestDerivatives } from "./galleries.jobs";
import { isGalleryImage } from "./media.constants";
import { findMediaItem } from "./media.queries.server";

/**
 * GET /api/files/:id/image/:size (thumb | screen): a picture's derivative for a member who may
 * view the file (issue 40). In a data room whose watermark applies to them, it is their stamped
 * copy of the derivative (the watermark engine, like the preview). With `?v=` the file's current
 * version, the answer may be cached for a year (a new version has a new address); without it, it
 * is revalidated by its ETag. Thumbnails in a grid are a listing, not an opening: no audit entry.
 * A picture whose derivatives are not there yet (a copy, a file from before galleries) asks for
 * them and answers 404 until they are made.
 */
export type DerivativeRequest = { version: string | null; ifNoneMatch: string | null; method: string };
export type DerivativeDelivery = { status: 200 | 304; headers: Headers; body: ReadableStream | null };

const sizeName = (kind: DerivedObject) => (kind === "thumb" ? "thumbnail" : "screen size");

export async function deliverDerivative(ctx: ServiceContext, userId: string, fileId: string, kind: DerivedObject, request: DerivativeRequest): Promise<DerivativeDelivery> {
  const { file, roomPermissions } = await requireFileAccess(ctx, userId, fileId, "files.view");
  const watermark = roomPermissions ? (await protectionFor(ctx, file.spaceId, userId)).watermark : null;
  const mark = watermark ? { settings: watermark, viewer: await watermarkViewerOf(ctx, userId, file.spaceId) } : null;
  // Never `public`: the picture is this member's to see, not a shared cache's.
  const cacheControl = request.version === String(file.version) ? "private, max-age=31536000, immutable" : "private, no-cache";
  return sendDerivative(ctx, file, kind, mark, request, { cacheControl, disposition: "inline" });
}

/**
 * A picture's derivative as an answer, for a member or a gallery's visitor: the stored JPEG, or the
 * watermark engine's copy of it stamped for this viewer; 304 for a copy the browser holds; 404
 * (and the job asked for) while it is still being made, 422 when the picture could not be read.
 */
export async function sendDerivative(
  ctx: ServiceContext,
  file: FileRow,
  kind: DerivedObject,
  mark: { settings: WatermarkSettings; viewer: WatermarkViewer } | null,
  request: Omit<DerivativeRequest, "version">,
  /** `onSend`: called when the bytes are about to leave (not for 304 or HEAD): a gallery visit counts it. */
  answer: { cacheControl: string; disposition: "inline" | "attachment"; onSend?: () => Promise<void> },
): Promise<DerivativeDelivery> {
  if (!isGalleryImage(file.contentType)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", `“${file.name}” is not a picture, so it has no ${sizeName(kind)}.`);
  const item = await findMediaItem(ctx.db, file.r2Key);
  if (!item) {
    await requestDerivatives(ctx, file, file.r2Key);
    throw new AppError("NOT_FOUND", `The ${sizeName(kind)} of “${file.name}” is still being made. Try again in a moment.`);
  }
  if (item.status !== "ready") throw new AppError("UNPROCESSABLE", `No ${sizeName(kind)} could be made of “${file.name}”: ${item.error ?? "the picture could not be read"}`);

  const derived = { r2Key: derivedKey(file.r2Key, kind), size: (kind === "thumb" ? item.thumbBytes : item.screenBytes) ?? 0 };
  // The derivative as a file of its own for the watermark engine (its key names its bytes).
  const source = mark ? await watermarkedCopy(ctx, { ...file, ...derived, contentType: "image/jpeg" }, mark.viewer, mark.settings) : { key: derived.r2Key, size: derived.size, etag: await entityTagOf(derived) };
  const base = file.name.replace(/\.[^.]*$/, "");
  const headers = new Headers({
    "Content-Type": "image/jpeg",
    "Content-Disposition": answer.disposition === "attachment" ? contentDisposition("attachment", `${base}.jpg`) : contentDisposition("inline", `${base} (${sizeName(kind)}).jpg`),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": FILE_CONTENT_SECURITY_POLICY,
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": answer.cacheControl,
    ETag: source.etag,
  });
  if (matchesIfNoneMatch(request.ifNoneMatch, source.etag)) return { status: 304, headers, body: null };
  headers.set("Content-Length", String(source.size));
  if (request.method === "HEAD") return { status: 200, headers, body: null };
  await answer.onSend?.();
  const body = await readStoredObject(ctx, source.key, source.size);
  if (!body) {
    ctx.logger.error("galleries.derivative_missing", { fileId: file.id, kind });
    throw new AppError("NOT_FOUND", `The ${sizeName(kind)} of “${file.name}” is missing.`);
  }
  return { status: 200, headers, body };
}
