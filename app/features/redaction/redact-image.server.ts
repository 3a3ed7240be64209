import { decodeImage, encodeImage, imageDimensions } from "~/features/watermark/image-codecs.server";
import { AppError } from "~/lib/errors";
import type { RedactionMark } from "./redaction-types";

/**
 * Redacting a picture (issue 39): PNG and JPEG files get each mark painted black into their
 * pixels (the watermark engine's codecs, ADR 020), checked before encoding (every pixel under a
 * mark is black), and written again in their own format, which also drops their metadata (EXIF:
 * camera, place, time). WebP waits for a codec that works in workerd.
 */

export const REDACTABLE_IMAGE_TYPES = ["image/png", "image/jpeg"] as const;
export type RedactableImageType = (typeof REDACTABLE_IMAGE_TYPES)[number];
export const isRedactableImage = (contentType: string): contentType is RedactableImageType => (REDACTABLE_IMAGE_TYPES as readonly string[]).includes(contentType);

/** 12 megapixels (a phone's photo): 48 MB of RGBA while it is painted. */
export const REDACT_IMAGE_MAX_PIXELS = 12_000_000;

/** A mark in the picture's pixels: whole pixels, every one it touches. */
function pixelBox(mark: RedactionMark, width: number, height: number) {
  const left = Math.max(0, Math.floor(mark.x * width));
  const top = Math.max(0, Math.floor(mark.y * height));
  return { left, top, right: Math.min(width, Math.ceil((mark.x + mark.w) * width)), bottom: Math.min(height, Math.ceil((mark.y + mark.h) * height)) };
}

export async function redactImage(bytes: Uint8Array, type: RedactableImageType, marks: readonly RedactionMark[], name: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; pixelsCleared: number }> {
  if (marks.some((mark) => mark.page !== 0)) throw new AppError("VALIDATION_ERROR", "A picture has one page: every mark goes on page 1.");
  const size = imageDimensions(bytes, type);
  if (!size) throw new AppError("UNPROCESSABLE", `“${name}” could not be read as a picture, so nothing in it can be redacted.`);
  if (size.width * size.height > REDACT_IMAGE_MAX_PIXELS) throw new AppError("PAYLOAD_TOO_LARGE", `“${name}” has ${(size.width * size.height / 1_000_000).toFixed(1)} megapixels; pictures up to 12 megapixels can be redacted. Upload a smaller copy.`);
  let image: ImageData;
  try {
    image = await decodeImage(bytes, type);
  } catch {
    throw new AppError("UNPROCESSABLE", `“${name}” could not be read as a picture, so nothing in it can be redacted.`);
  }
  const { width, height, data } = image;
  let pixelsCleared = 0;
  for (const mark of marks) {
    const box = pixelBox(mark, width, height);
    for (let y = box.top; y < box.bottom; y += 1) {
      data.fill(0, (y * width + box.left) * 4, (y * width + box.right) * 4);
      for (let x = box.left; x < box.right; x += 1) data[(y * width + x) * 4 + 3] = 255;
      pixelsCleared += Math.max(0, box.right - box.left);
    }
  }
  // The check, before anything is written: every pixel under every mark is opaque black.
  for (const mark of marks) {
    const box = pixelBox(mark, width, height);
    for (let y = box.top; y < box.bottom; y += 1) {
      for (let x = box.left; x < box.right; x += 1) {
        const at = (y * width + x) * 4;
        if (data[at] !== 0 || data[at + 1] !== 0 || data[at + 2] !== 0 || data[at + 3] !== 255) throw new AppError("INTERNAL_ERROR", "The picture's marked pixels could not be cleared.");
      }
    }
  }
  return { bytes: await encodeImage(image, type), pixelsCleared };
}
