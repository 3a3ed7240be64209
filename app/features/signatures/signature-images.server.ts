import { PDF } from "@libpdf/core";
import { ENCRYPTED_KEY_MARKER, isEncryptedKey } from "~/features/files/encryption-format";
import { plaintextSizeOf, putStoredObject, readStoredBytes } from "~/features/files/encryption.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { IMAGE_PREFIX, type SignField } from "./signature-fields";
import { SIGNATURE_IMAGE_MAX_BYTES, SIGNATURE_IMAGES_PER_RECIPIENT } from "./signatures.constants";
import { sha256Hex } from "./signing-identity.server";

/**
 * Pictures of signatures (issue 38): a signer may upload a PNG or JPEG of their handwritten
 * signature instead of drawing it. The picture is checked (a real PNG or JPEG the seal can embed,
 * at most 1 MB and 4000 px a side), kept in R2 under its envelope (sealed like the envelope's
 * document when the space encrypts), named by its SHA-256, and referred to by "image:<sha256>".
 * Once the envelope is sealed, voided, declined or expired the pictures are deleted: the sealed
 * PDF holds the one that was used.
 */

type EnvelopeKeys = { id: string; spaceId: string; documentKey: string };

export const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const isPng = (bytes: Uint8Array) => PNG_MAGIC.every((byte, index) => bytes[index] === byte);
const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

const imagesPrefix = (envelope: Pick<EnvelopeKeys, "id" | "spaceId">) => `signatures/${envelope.spaceId}/img-${envelope.id}/`;

export function signatureImageKey(envelope: EnvelopeKeys, recipientId: string, sha256: string): string {
  return `${imagesPrefix(envelope)}${isEncryptedKey(envelope.documentKey) ? ENCRYPTED_KEY_MARKER : ""}${recipientId}-${sha256}`;
}

/** The picture's bytes, if it is one the seal can draw; otherwise a message the signer can act on. */
export function checkSignatureImage(bytes: Uint8Array): { contentType: "image/png" | "image/jpeg" } {
  if (bytes.byteLength === 0) throw new AppError("VALIDATION_ERROR", "Choose a picture of your signature.");
  if (bytes.byteLength > SIGNATURE_IMAGE_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "This picture is larger than 1 MB: use a smaller PNG or JPEG of your signature.");
  const contentType = isPng(bytes) ? "image/png" : isJpeg(bytes) ? "image/jpeg" : null;
  if (!contentType) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Use a PNG or JPEG picture of your signature.");
  let size: { width: number; height: number };
  try {
    size = PDF.create().embedImage(bytes);
  } catch {
    throw new AppError("VALIDATION_ERROR", "This picture could not be read. Save it again as PNG or JPEG and upload it.");
  }
  if (size.width < 10 || size.height < 10 || size.width > 4000 || size.height > 4000) throw new AppError("VALIDATION_ERROR", "Use a picture between 10 and 4000 pixels on each side.");
  return { contentType };
}

/** Stores the recipient's picture and returns the value that refers to it. */
export async function storeSignatureImage(ctx: ServiceContext, envelope: EnvelopeKeys, recipientId: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const { contentType } = checkSignatureImage(bytes);
  const sha256 = await sha256Hex(bytes);
  const key = signatureImageKey(envelope, recipientId, sha256);
  const mine = await ctx.env.FILES.list({ prefix: `${imagesPrefix(envelope)}${isEncryptedKey(key) ? ENCRYPTED_KEY_MARKER : ""}${recipientId}-`, limit: SIGNATURE_IMAGES_PER_RECIPIENT + 1 });
  if (!mine.objects.some((object) => object.key === key)) {
    if (mine.objects.length >= SIGNATURE_IMAGES_PER_RECIPIENT) throw new AppError("RATE_LIMITED", `You have uploaded ${SIGNATURE_IMAGES_PER_RECIPIENT} pictures for this document, the most it keeps. Draw or type your signature instead.`);
    await putStoredObject(ctx, key, bytes, { httpMetadata: { contentType } });
  }
  return `${IMAGE_PREFIX}${sha256}`;
}

/** The picture a value refers to, or null when it was never uploaded for this recipient. */
export async function readSignatureImage(ctx: ServiceContext, envelope: EnvelopeKeys, recipientId: string, value: string): Promise<Uint8Array<ArrayBuffer> | null> {
  const key = signatureImageKey(envelope, recipientId, value.slice(IMAGE_PREFIX.length));
  const head = await ctx.env.FILES.head(key);
  if (!head) return null;
  return readStoredBytes(ctx, key, plaintextSizeOf(key, head.size));
}

/** Whether each picture in a recipient's values was uploaded by them. */
export async function missingImageFields(ctx: ServiceContext, envelope: EnvelopeKeys, recipientId: string, values: Record<string, string>): Promise<string[]> {
  const missing: string[] = [];
  for (const [fieldId, value] of Object.entries(values)) {
    if (value.startsWith(IMAGE_PREFIX) && !(await ctx.env.FILES.head(signatureImageKey(envelope, recipientId, value.slice(IMAGE_PREFIX.length))))) missing.push(fieldId);
  }
  return missing;
}

/** Field id → picture bytes, for every picture value in the envelope (the seal draws them). */
export async function imagesForSeal(ctx: ServiceContext, envelope: EnvelopeKeys & { fields: SignField[] }, recipients: { id: string; roleId: string; values: Record<string, string> | null }[]): Promise<Record<string, Uint8Array>> {
  const images: Record<string, Uint8Array> = {};
  for (const recipient of recipients) {
    for (const [fieldId, value] of Object.entries(recipient.values ?? {})) {
      if (!value.startsWith(IMAGE_PREFIX)) continue;
      const bytes = await readSignatureImage(ctx, envelope, recipient.id, value);
      if (!bytes) throw new AppError("INTERNAL_ERROR", `The picture of a signature in envelope ${envelope.id} is missing.`);
      images[fieldId] = bytes;
    }
  }
  return images;
}

/** Deletes every picture kept for an envelope (once sealed, voided, declined or expired; on erasure). */
export async function deleteSignatureImages(ctx: ServiceContext, envelope: Pick<EnvelopeKeys, "id" | "spaceId">): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await ctx.env.FILES.list({ prefix: imagesPrefix(envelope), cursor });
    if (page.objects.length) await ctx.env.FILES.delete(page.objects.map((object) => object.key));
    deleted += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}
