import { DERIVED_OBJECTS, derivedKey, type DerivedObject } from "~/features/files/derived-objects";
import { putStoredObject, readStoredBytes } from "~/features/files/encryption.server";
import { imageDimensions } from "~/features/watermark/image-codecs.server";
import { requireImages } from "~/features/watermark/picture-convert.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { DERIVATIVE_SIZES, DERIVATIVE_SOURCE_MAX_BYTES, isGalleryImage } from "./media.constants";
import { findFileSource, findMediaItem, insertMediaItem, type MediaItemRow } from "./media.queries.server";

/**
 * A picture's thumbnail and screen size, and its EXIF, made once per stored object (issue 40, ADR
 * 033). Cloudflare Images decodes, turns upright and resizes outside the Worker's memory (decoding a
 * 12-megapixel photo with WebAssembly in the Worker needs several hundred MB). The derivatives are
 * written before the row, and under keys fixed by the original's, so a second delivery of the job
 * writes the same objects again at worst and then finds the row: the outcome is the same.
 */

export type DerivativesOutcome = "made" | "exists" | "not-a-picture" | "superseded" | "failed";

export type PictureFacts = { takenAt: string | null; takenAtMs: number | null; camera: string | null; latitude: number | null; longitude: number | null };

const NO_FACTS: PictureFacts = { takenAt: null, takenAtMs: null, camera: null, latitude: null, longitude: null };

/** "2026:05:14 09:30:00" (EXIF's form, no zone) as milliseconds read as UTC; null when it is not a date. */
export function exifDateMs(text: string | null): number | null {
  const parts = text ? /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text) : null;
  if (!parts) return null;
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number) as [number, number, number, number, number, number];
  if (year < 1800 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** Date, camera and place from the picture's EXIF, when it has them (never an error). */
export async function readPictureFacts(bytes: Uint8Array): Promise<PictureFacts> {
  try {
    const { default: exifr } = await import("exifr");
    const tags = (await exifr.parse(bytes, { tiff: true, exif: true, gps: true, xmp: false, icc: false, iptc: false, jfif: false, ihdr: false, reviveValues: false, pick: ["Make", "Model", "DateTimeOriginal", "CreateDate", "DateTime", "GPSLatitude", "GPSLatitudeRef", "GPSLongitude", "GPSLongitudeRef", "latitude", "longitude"] })) as Record<string, unknown> | undefined;
    if (!tags) return NO_FACTS;
    const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.replace(/\0/g, "").trim() : null);
    const make = text(tags.Make);
    const model = text(tags.Model);
    // The model often repeats the maker ("Canon" / "Canon EOS R6"): say it once.
    const camera = model && make && model.toLowerCase().startsWith(make.toLowerCase()) ? model : [make, model].filter(Boolean).join(" ") || null;
    const number = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? Math.round(value * 1e6) / 1e6 : null);
    const takenAt = text(tags.DateTimeOriginal) ?? text(tags.CreateDate) ?? text(tags.DateTime);
    return { takenAt, takenAtMs: exifDateMs(takenAt), camera, latitude: number(tags.latitude), longitude: number(tags.longitude) };
  } catch {
    return NO_FACTS;
  }
}

async function resize(images: ImagesBinding, bytes: Uint8Array, kind: DerivedObject): Promise<Uint8Array<ArrayBuffer>> {
  const { box, quality } = DERIVATIVE_SIZES[kind];
  const result = await images
    .input(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream())
    .transform({ width: box, height: box, fit: "scale-down" })
    .output({ format: "image/jpeg", quality, background: "#ffffff" });
  return new Uint8Array(await new Response(result.image()).arrayBuffer());
}

export async function makeDerivatives(ctx: ServiceContext, fileId: string, sourceKey: string): Promise<DerivativesOutcome> {
  const file = await findFileSource(ctx.db, fileId);
  // A newer version has its own job; a deleted file needs none.
  if (!file || file.r2Key !== sourceKey) return "superseded";
  if (!isGalleryImage(file.contentType)) return "not-a-picture";
  if (await findMediaItem(ctx.db, sourceKey)) return "exists";
  const row: MediaItemRow = { sourceKey, fileId, status: "failed", error: null, width: null, height: null, thumbBytes: null, screenBytes: null, takenAt: null, takenAtMs: null, camera: null, latitude: null, longitude: null, createdAt: ctx.now() };
  const fail = async (error: string): Promise<DerivativesOutcome> => {
    ctx.logger.warn("galleries.derivatives_failed", { fileId, error });
    await insertMediaItem(ctx.db, { ...row, error });
    return "failed";
  };
  if (file.size > DERIVATIVE_SOURCE_MAX_BYTES) return fail("The picture is larger than 50 MB.");
  const images = requireImages(ctx.env.IMAGES);
  const bytes = await readStoredBytes(ctx, file.r2Key, file.size);
  if (!bytes) return fail("The picture's content is missing.");

  // Filled for every kind below before it is read (one at a time: one picture in memory at once).
  const made = {} as Record<DerivedObject, Uint8Array<ArrayBuffer>>;
  try {
    for (const kind of DERIVED_OBJECTS) made[kind] = await resize(images, bytes, kind);
  } catch (error) {
    // Images answers a picture it cannot read with an error of its own (not worth retrying).
    if (error instanceof Error && "code" in error) return fail(`Cloudflare Images could not read the picture: ${error.message}`);
    throw error;
  }
  const facts = await readPictureFacts(bytes);
  for (const kind of DERIVED_OBJECTS) {
    await putStoredObject(ctx, derivedKey(sourceKey, kind), made[kind], { httpMetadata: { contentType: "image/jpeg" }, customMetadata: { fileId } });
  }
  const { thumb, screen } = made;
  // The screen size is the whole picture when it fits (never enlarged): its size is the picture's
  // as shown, up to 2048; beyond, the original's proportions at that size.
  const shown = imageDimensions(screen, "image/jpeg");
  await insertMediaItem(ctx.db, { ...row, status: "ready", width: shown?.width ?? null, height: shown?.height ?? null, thumbBytes: thumb.byteLength, screenBytes: screen.byteLength, ...facts });
  ctx.logger.info("galleries.derivatives_made", { fileId, thumb: thumb.byteLength, screen: screen.byteLength });
  return "made";
}
