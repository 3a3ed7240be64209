import { previewKindOf } from "~/features/files/files.constants";

/**
 * Which files can carry a room's watermark (ADR 020): PDFs (text in every page) and JPEG and PNG
 * images (drawn into the pixels). Shared by the server, which stamps them and refuses the rest,
 * and the file page, which says so instead of asking.
 */
export const STAMPABLE_IMAGE_TYPES = ["image/jpeg", "image/png"] as const;
export type StampableImageType = (typeof STAMPABLE_IMAGE_TYPES)[number];

export function isStampableImage(contentType: string): contentType is StampableImageType {
  return (STAMPABLE_IMAGE_TYPES as readonly string[]).includes(contentType);
}

export function canCarryWatermark(contentType: string, name: string): boolean {
  return previewKindOf(contentType, name) === "pdf" || isStampableImage(contentType);
}
