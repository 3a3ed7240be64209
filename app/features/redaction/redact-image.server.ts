import { decodeImage, encodeImage, imageDimensions } from "~/features/watermark/image-codecs.server";
import { AppError } from "~/lib/errors";
import { convertPicture, requireImages, uprightJpeg } from "~/features/watermark/picture-convert.server";
import { isAnimatedWebp, jpegOrientation } from "~/lib/picture-header";
import type { RedactableImageType, RedactionMark } from "./redaction-types";

/**
 * Redacting a picture (issue 39): each mark is painted black into the pixels, checked before
 * encoding (every pixel under a mark is black), and the picture is written again in its own
 * format, which also drops its metadata (EXIF: camera, place, time).
 *
 * Marks are drawn on the picture as the browser shows it, that is turned upright by its EXIF
 * orientation. A JPEG that says it is turned is first made upright by Cloudflare Images (outside
 * the Worker's memory); PNG and upright JPEG go through the watermark engine's codecs (ADR 020).
 * WebP has no codec that fits in a Worker, so Images converts it to PNG, the PNG is painted and
 * checked, Images writes it back as WebP, and the WebP is read once more to check the marks are
 * still dark (WebP is lossy: the check allows the codec's noise, never the picture's content,
 * which was gone before the encoder saw it). Animated WebP is refused: its other frames would be lost.
 */

/** 12 megapixels (a phone's photo): 48 MB of RGBA while it is painted. */
export const REDACT_IMAGE_MAX_PIXELS = 12_000_000;
/** A redacted WebP is written at this quality. */
const WEBP_QUALITY = 90;
/** After WebP encoding, no pixel under a mark (2 px in from its edge) may be brighter than this. */
const WEBP_DARK_LIMIT = 48;

/** A mark in the picture's pixels: whole pixels, every one it touches. */
function pixelBox(mark: RedactionMark, width: number, height: number, inset = 0) {
  const left = Math.max(0, Math.floor(mark.x * width)) + inset;
  const top = Math.max(0, Math.floor(mark.y * height)) + inset;
  return { left, top, right: Math.min(width, Math.ceil((mark.x + mark.w) * width)) - inset, bottom: Math.min(height, Math.ceil((mark.y + mark.h) * height)) - inset };
}

const unreadable = (name: string) => new AppError("UNPROCESSABLE", `“${name}” could not be read as a picture, so nothing in it can be redacted.`);

function assertPixels(name: string, width: number, height: number) {
  if (width * height > REDACT_IMAGE_MAX_PIXELS) throw new AppError("PAYLOAD_TOO_LARGE", `“${name}” has ${((width * height) / 1_000_000).toFixed(1)} megapixels; pictures up to 12 megapixels can be redacted. Upload a smaller copy.`);
}

/** One conversion through Cloudflare Images (turned upright by EXIF on the way). */
async function convert(images: ImagesBinding, bytes: Uint8Array, format: "image/png" | "image/jpeg" | "image/webp", name: string, quality?: number): Promise<Uint8Array> {
  try {
    return await convertPicture(images, bytes, format, quality);
  } catch {
    throw unreadable(name);
  }
}

function paint(image: ImageData, marks: readonly RedactionMark[]): number {
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
  return pixelsCleared;
}

/** The brightest channel of any pixel under the marks (`inset` pixels in from their edges). */
function brightestUnderMarks(image: ImageData, marks: readonly RedactionMark[], inset: number): number {
  const { width, height, data } = image;
  let brightest = 0;
  for (const mark of marks) {
    const box = pixelBox(mark, width, height, inset);
    for (let y = box.top; y < box.bottom; y += 1) {
      for (let x = box.left; x < box.right; x += 1) {
        const at = (y * width + x) * 4;
        brightest = Math.max(brightest, data[at]!, data[at + 1]!, data[at + 2]!, 255 - data[at + 3]!);
      }
    }
  }
  return brightest;
}

export async function redactImage(images: ImagesBinding | undefined, bytes: Uint8Array, type: RedactableImageType, marks: readonly RedactionMark[], name: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; pixelsCleared: number }> {
  if (marks.some((mark) => mark.page !== 0)) throw new AppError("VALIDATION_ERROR", "A picture has one page: every mark goes on page 1.");
  let work = bytes;
  let workType: "image/png" | "image/jpeg" = type === "image/png" ? "image/png" : "image/jpeg";
  if (type === "image/webp") {
    if (isAnimatedWebp(bytes)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", `“${name}” is an animated WebP; only still pictures can be redacted. Save the frame you need as PNG or JPEG and upload that.`);
    const info = await requireImages(images).info(new Blob([bytes.slice()]).stream()).catch(() => null);
    if (!info || !("width" in info)) throw unreadable(name);
    assertPixels(name, info.width, info.height);
    work = await convert(requireImages(images), bytes, "image/png", name);
    workType = "image/png";
  } else if (type === "image/jpeg" && jpegOrientation(bytes) !== 1) {
    const size = imageDimensions(bytes, "image/jpeg");
    if (!size) throw unreadable(name);
    assertPixels(name, size.width, size.height);
    work = await uprightJpeg(requireImages(images), bytes).catch(() => {
      throw unreadable(name);
    });
  }
  const size = imageDimensions(work, workType);
  if (!size) throw unreadable(name);
  assertPixels(name, size.width, size.height);
  let image: ImageData;
  try {
    image = await decodeImage(work, workType);
  } catch {
    throw unreadable(name);
  }
  const pixelsCleared = paint(image, marks);
  // The check, before anything is written: every pixel under every mark is opaque black.
  if (brightestUnderMarks(image, marks, 0) !== 0) throw new AppError("INTERNAL_ERROR", "The picture's marked pixels could not be cleared.");
  const encoded = await encodeImage(image, workType);
  if (type !== "image/webp") return { bytes: encoded, pixelsCleared };

  const webp = await convert(requireImages(images), encoded, "image/webp", name, WEBP_QUALITY);
  // Read the WebP back as the browser will and check the marks once more.
  const shown = await decodeImage(await convert(requireImages(images), webp, "image/png", name), "image/png");
  if (shown.width !== image.width || shown.height !== image.height || brightestUnderMarks(shown, marks, 2) > WEBP_DARK_LIMIT) {
    throw new AppError("UNPROCESSABLE", `“${name}” could not be written back as WebP with its marks intact, so nothing was saved. Save it as PNG and redact that.`);
  }
  return { bytes: new Uint8Array(webp), pixelsCleared };
}
