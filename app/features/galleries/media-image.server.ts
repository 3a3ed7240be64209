import { protectionFor } from "~/features/datarooms/room-authority.server";
import { FILE_CONTENT_SECURITY_POLICY, contentDisposition, matchesIfNoneMatch } from "~/features/files/content-headers";
import { entityTagOf } from "~/features/files/content.server";
import { derivedKey, type DerivedObject } from "~/features/files/derived-objects";
import { readStoredObject } from "~/features/files/encryption.server";
import { requireFileAccess } from "~/features/files/spaces.server";
import { watermarkedCopy, watermarkViewerOf } from "~/features/watermark/watermark.server";
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

export async function deliverDerivative(ctx: ServiceContext, userId: string, fileId: string, kind: DerivedObject, request: DerivativeRequest): Promise<{ status: 200 | 304; headers: Headers; body: ReadableStream | null }> {
  const { file, roomPermissions } = await requireFileAccess(ctx, userId, fileId, "files.view");
  if (!isGalleryImage(file.contentType)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", `“${file.name}” is not a picture, so it has no ${kind === "thumb" ? "thumbnail" : "screen size"}.`);
  const item = await findMediaItem(ctx.db, file.r2Key);
  if (!item) {
    await requestDerivatives(ctx, file, file.r2Key);
    throw new AppError("NOT_FOUND", `The ${kind === "thumb" ? "thumbnail" : "screen size"} of “${file.name}” is still being made. Try again in a moment.`);
  }
  if (item.status !== "ready") throw new AppError("UNPROCESSABLE", `No ${kind === "thumb" ? "thumbnail" : "screen size"} could be made of “${file.name}”: ${item.error ?? "the picture could not be read"}`);

  const derived = { r2Key: derivedKey(file.r2Key, kind), size: (kind === "thumb" ? item.thumbBytes : item.screenBytes) ?? 0 };
  const watermark = roomPermissions ? (await protectionFor(ctx, file.spaceId, userId)).watermark : null;
  // The derivative as a file of its own for the watermark engine (its key names its bytes).
  const source = watermark
    ? await watermarkedCopy(ctx, { ...file, ...derived, contentType: "image/jpeg" }, await watermarkViewerOf(ctx, userId, file.spaceId), watermark)
    : { key: derived.r2Key, size: derived.size, etag: await entityTagOf(derived) };
  const headers = new Headers({
    "Content-Type": "image/jpeg",
    "Content-Disposition": contentDisposition("inline", `${file.name.replace(/\.[^.]*$/, "")} (${kind === "thumb" ? "thumbnail" : "screen size"}).jpg`),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": FILE_CONTENT_SECURITY_POLICY,
    "Cross-Origin-Resource-Policy": "same-origin",
    // Never `public`: the picture is this member's to see, not a shared cache's.
    "Cache-Control": request.version === String(file.version) ? "private, max-age=31536000, immutable" : "private, no-cache",
    ETag: source.etag,
  });
  if (matchesIfNoneMatch(request.ifNoneMatch, source.etag)) return { status: 304, headers, body: null };
  headers.set("Content-Length", String(source.size));
  if (request.method === "HEAD") return { status: 200, headers, body: null };
  const body = await readStoredObject(ctx, source.key, source.size);
  if (!body) {
    ctx.logger.error("galleries.derivative_missing", { fileId: file.id, kind });
    throw new AppError("NOT_FOUND", `The ${kind === "thumb" ? "thumbnail" : "screen size"} of “${file.name}” is missing.`);
  }
  return { status: 200, headers, body };
}
