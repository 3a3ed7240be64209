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

/**
 * A JPEG as the browser shows it: one whose EXIF says it is turned (phone photos) is turned
 * upright (quality 100, its EXIF dropped); any other is returned as it is, without a call.
 */
export async function uprightJpeg(images: ImagesBinding | undefined, bytes: Uint8Array): Promise<Uint8Array> {
  if (jpegOrientation(bytes) === 1) return bytes;
  if (!images) throw new Error("The IMAGES binding is missing: a turned JPEG cannot be made upright.");
  return convertPicture(images, bytes, "image/jpeg", 100);
}
