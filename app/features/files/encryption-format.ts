/**
 * The layout of an encrypted object in R2 (ADR 021): the plaintext cut into 64 KiB segments, each
 * sealed with AES-256-GCM (its 16-byte tag after it), the last one shorter. A byte range of the
 * plaintext maps to whole segments of the object, so range reads and resumable uploads (whose
 * parts are whole multiples of a segment) keep working. Pure arithmetic, no keys here.
 *
 * An encrypted object is recognised by its key: `files/{space}/e1-{uuid}` (format 1), so every
 * place that carries an object key (files, versions, uploads, zips, jobs) knows without a lookup.
 */

export const SEGMENT_SIZE = 64 * 1024;
export const TAG_SIZE = 16;
export const SEALED_SEGMENT_SIZE = SEGMENT_SIZE + TAG_SIZE;
/** The marker of format 1 in an object key's last part. */
export const ENCRYPTED_KEY_MARKER = "e1-";

export function isEncryptedKey(r2Key: string): boolean {
  return (r2Key.split("/").at(-1) ?? "").startsWith(ENCRYPTED_KEY_MARKER);
}

/** Segments of a plaintext of `size` bytes (an empty file is one empty segment, so it still has a tag). */
export function segmentCount(size: number): number {
  return Math.max(1, Math.ceil(size / SEGMENT_SIZE));
}

/** The stored size of a plaintext of `size` bytes. */
export function encryptedSize(size: number): number {
  return size + TAG_SIZE * segmentCount(size);
}

/** The plaintext size of a stored (sealed) object of `stored` bytes. */
export function plaintextSize(stored: number): number {
  return stored - TAG_SIZE * Math.max(1, Math.ceil(stored / SEALED_SEGMENT_SIZE));
}

/** The stored bytes of `length` plaintext bytes starting at a segment boundary (one upload part). */
export function encryptedPartSize(length: number): number {
  return length + TAG_SIZE * Math.max(1, Math.ceil(length / SEGMENT_SIZE));
}

export type CipherRange = {
  /** The first segment read. */
  firstSegment: number;
  /** Where in the object the read starts, and how many bytes. */
  offset: number;
  length: number;
  /** Plaintext bytes to drop from the first segment, and how many to keep in all. */
  skip: number;
  take: number;
};

/** The object bytes that hold plaintext [offset, offset + length) of a file of `size` bytes. */
export function cipherRangeFor(offset: number, length: number, size: number): CipherRange {
  const firstSegment = Math.floor(offset / SEGMENT_SIZE);
  const lastSegment = length === 0 ? firstSegment : Math.floor((offset + length - 1) / SEGMENT_SIZE);
  const start = firstSegment * SEALED_SEGMENT_SIZE;
  const end = Math.min(encryptedSize(size), (lastSegment + 1) * SEALED_SEGMENT_SIZE);
  return { firstSegment, offset: start, length: end - start, skip: offset - firstSegment * SEGMENT_SIZE, take: length };
}

/** The nonce of segment `index`: each object has its own key, so the index alone never repeats. */
export function segmentNonce(index: number): Uint8Array<ArrayBuffer> {
  const nonce = new Uint8Array(12);
  new DataView(nonce.buffer).setUint32(8, index);
  new DataView(nonce.buffer).setUint32(4, Math.floor(index / 2 ** 32));
  return nonce;
}

/** Authenticated data: whether the segment is the last, so a cut-off object does not decrypt. */
export function segmentAad(isLast: boolean): Uint8Array<ArrayBuffer> {
  return new Uint8Array([isLast ? 1 : 0]);
}
