import { renderWatermarkText, templateUses, type WatermarkSettings } from "~/features/datarooms/protection";
import type { FileRow } from "~/features/files/folders.queries.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { isEncryptedKey } from "~/features/files/encryption-format";
import { newObjectKey, plaintextSizeOf, putStoredObject, readStoredObject } from "~/features/files/encryption.server";
import { findWatermarkNames } from "./watermark.queries.server";
import { stampImage, WATERMARK_IMAGE_MAX_BYTES } from "./image-codecs.server";
import { isStampableImage } from "./watermark.constants";
import { stampPdf, WATERMARK_PDF_MAX_BYTES } from "./pdf-stamp.server";
import { uprightJpeg } from "./picture-convert.server";
import { sha256Hex } from "~/lib/sha256";

/**
 * Watermarked copies (ADR 020): what the server sends a person the room's watermark applies to.
 * The copy is made once per file, viewer, settings, address (when the text names it) and UTC day,
 * and kept in R2 under `watermarked/`, so a PDF viewer's range reads all hit the same bytes and a
 * second visit costs no stamping. The nightly job deletes copies older than two days.
 */

export const WATERMARKED_PREFIX = "watermarked/";
export const WATERMARKED_RETENTION_MS = 2 * 24 * 60 * 60 * 1000;

export type WatermarkViewer = { userId: string; email: string; ip: string | null; roomName: string };

/** The person asking, as the mark names them: e-mail (the session's, else the account's), address, room. */
export async function watermarkViewerOf(ctx: ServiceContext, userId: string, spaceId: string): Promise<WatermarkViewer> {
  const names = await findWatermarkNames(ctx.db, userId, spaceId);
  const email = ctx.actor?.userId === userId && ctx.actor.email ? ctx.actor.email : names.email;
  return { userId, email, ip: ctx.client.ip, roomName: names.roomName };
}

/** An object to deliver: the original or a stamped copy. */
export type DeliverableObject = { key: string; size: number; etag: string; lastModified: Date };


/**
 * The stamper for a file's type, with its size cap. A JPEG whose EXIF says it is turned (a phone
 * photo) is made upright first: the stamped copy has no EXIF, so it must be stamped as shown.
 */
function stamperFor(file: FileRow, images: ImagesBinding | undefined): { maxBytes: number; what: string; stamp: (bytes: Uint8Array, text: string, settings: WatermarkSettings) => Promise<Uint8Array> } {
  if (isStampableImage(file.contentType)) {
    const type = file.contentType;
    return { maxBytes: WATERMARK_IMAGE_MAX_BYTES, what: "image", stamp: async (bytes, text, settings) => stampImage(type === "image/jpeg" ? await uprightJpeg(images, bytes) : bytes, type, text, settings) };
  }
  return { maxBytes: WATERMARK_PDF_MAX_BYTES, what: "PDF", stamp: stampPdf };
}

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * The stamped copy of `file` for `viewer`: found in R2, or made now (the original read whole,
 * stamped, written back). {{date}} and {{time}} are when the copy was made (UTC).
 */
export async function watermarkedCopy(ctx: ServiceContext, file: FileRow, viewer: WatermarkViewer, settings: WatermarkSettings): Promise<DeliverableObject> {
  const now = ctx.now();
  const day = now.toISOString().slice(0, 10);
  // "upright": copies stamped before turned JPEGs were made upright are not reused.
  const identity = JSON.stringify([file.r2Key, viewer.userId, viewer.email, settings, templateUses(settings.template, "ip") ? viewer.ip : null, day, "upright"]);
  const digest = await sha256Hex(new TextEncoder().encode(identity));
  // A sealed room file gets a sealed copy (ADR 021): no plaintext of it ever sits in R2.
  const key = newObjectKey("watermarked", file.spaceId, isEncryptedKey(file.r2Key), digest);
  const etag = `"w${digest.slice(0, 32)}"`;

  const existing = await ctx.env.FILES.head(key);
  if (existing) return { key, size: plaintextSizeOf(key, existing.size), etag, lastModified: existing.uploaded };

  const stamper = stamperFor(file, ctx.env.IMAGES);
  if (file.size > stamper.maxBytes) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `This ${stamper.what} is ${Math.round(file.size / (1024 * 1024))} MB; watermarked viewing works for ${stamper.what === "PDF" ? "PDFs" : "images"} up to ${stamper.maxBytes / (1024 * 1024)} MB. Ask the room's owner for a smaller copy.`,
    );
  }
  const original = await readStoredObject(ctx, file.r2Key, file.size);
  if (!original) {
    ctx.logger.error("file content missing in R2", { fileId: file.id });
    throw new AppError("NOT_FOUND", "The content of this file is missing. Please upload it again.");
  }
  const text = renderWatermarkText(settings.template, {
    email: viewer.email,
    date: day,
    time: `${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}`,
    ip: viewer.ip ?? "unknown address",
    room: viewer.roomName,
  });
  const started = Date.now();
  const stamped = await stamper.stamp(new Uint8Array(await new Response(original).arrayBuffer()), text, settings);
  ctx.logger.info("watermarked copy made", { fileId: file.id, bytes: stamped.byteLength, ms: Date.now() - started });
  const written = await putStoredObject(ctx, key, new Uint8Array(stamped), {
    httpMetadata: { contentType: file.contentType },
    customMetadata: { fileId: file.id, viewer: viewer.userId },
  });
  return { key, size: stamped.byteLength, etag, lastModified: written?.uploaded ?? now };
}

/** Nightly: deletes stamped copies older than two days (they are made again on the next view). */
export async function purgeWatermarkedCopies(ctx: ServiceContext): Promise<number> {
  const cutoff = ctx.now().getTime() - WATERMARKED_RETENTION_MS;
  let cursor: string | undefined;
  let deleted = 0;
  do {
    const page = await ctx.env.FILES.list({ prefix: WATERMARKED_PREFIX, cursor, limit: 1000 });
    const old = page.objects.filter((object) => object.uploaded.getTime() < cutoff).map((object) => object.key);
    if (old.length > 0) {
      await ctx.env.FILES.delete(old);
      deleted += old.length;
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}
