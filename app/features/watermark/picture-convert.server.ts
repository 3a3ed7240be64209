import { AppError } from "~/lib/errors";
import { jpegOrientation } from "~/lib/picture-header";

/**
 * Pictures converted by Cloudflare Images (the `IMAGES` binding, ADR 033): outside the Worker's
 * memory, and turned upright by their EXIF orientation on the way. Shared by the watermark engine
 * and redaction, which both paint into pixels and must paint the picture as the browser shows it.
 */
export async function convertPicture(images: ImagesBinding, bytes: Uint8Array, format: "image/png" | "image/jpeg" | "image/webp", quality?: number): Promise<Uint8Array<ArrayBuffer>> {
  const result = await images.input(new Blob([bytes.slice()]).stream()).output({ format, ...(quality ? { quality } : {}) });
  return new Uint8Array(await new Response(result.image()).arrayBuffer());
}

/** The binding, or a 503 saying the picture service is not there (it is declared in every environment). */
export function requireImages(images: ImagesBinding | undefined): ImagesBinding {
  if (!images) throw new AppError("SERVICE_UNAVAILABLE", "The picture service is not available right now. Please try again later.");
  return images;
}

/**
 * A JPEG as the browser shows it: one whose EXIF says it is turned (phone photos) is turned
 * upright (quality 100, its EXIF dropped); any other is returned as it is, without a call.
 */
export async function uprightJpeg(images: ImagesBinding | undefined, bytes: Uint8Array): Promise<Uint8Array> {
  if (jpegOrientation(bytes) === 1) return bytes;
  return convertPicture(requireImages(images), bytes, "image/jpeg", 100);
}
