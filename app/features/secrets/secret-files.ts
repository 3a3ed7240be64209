import { SEALED_SEGMENT_SIZE, SEGMENT_SIZE, encryptedSize, segmentAad, segmentCount, segmentNonce } from "~/features/files/encryption-format";

/**
 * A secret's attached files, sealed in the browser in the file manager's segment format (ADR 021:
 * 64 KiB segments, each AES-256-GCM with its number as nonce and "last or not" as authenticated
 * data), under a key of their own derived from the link's key. So a file of any size is read,
 * sealed and sent part by part (tus), and opened part by part when it comes back.
 */

export { encryptedSize as sealedFileSize };

async function sealSegment(key: CryptoKey, plain: BufferSource, index: number, isLast: boolean): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: segmentNonce(index), additionalData: segmentAad(isLast) }, key, plain));
}

/** The sealed bytes [start, end) of `file`, made from the whole segments that cover them. */
export async function sealedRange(file: Blob, key: CryptoKey, start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
  const segments = segmentCount(file.size);
  const first = Math.floor(start / SEALED_SEGMENT_SIZE);
  const last = Math.min(segments - 1, Math.floor((end - 1) / SEALED_SEGMENT_SIZE));
  const out = new Uint8Array((last - first + 1) * SEALED_SEGMENT_SIZE);
  let length = 0;
  for (let index = first; index <= last; index++) {
    const plain = new Uint8Array(await file.slice(index * SEGMENT_SIZE, Math.min(file.size, (index + 1) * SEGMENT_SIZE)).arrayBuffer());
    const sealed = await sealSegment(key, plain, index, index === segments - 1);
    out.set(sealed, length);
    length += sealed.length;
  }
  const from = start - first * SEALED_SEGMENT_SIZE;
  return out.slice(from, from + (end - start));
}

/** A tus-js-client file reader that hands out the sealed file, part by part (never the plaintext). */
export function sealingReader(key: CryptoKey) {
  return {
    async openFile(input: Blob) {
      const size = encryptedSize(input.size);
      return {
        size,
        async slice(start: number, end: number) {
          const stop = Math.min(end, size);
          // A Blob: tus-js-client measures what it sends by `value.size`.
          return { value: new Blob(start >= stop ? [] : [await sealedRange(input, key, start, stop)]), done: stop >= size };
        },
        close() {},
      };
    },
  };
}

/**
 * Opens a sealed file read from a stream of `storedSize` bytes (exactly those, no more), segment by
 * segment; null when a segment does not open (a wrong key, or bytes changed or cut off).
 */
export async function openSealedFile(read: (length: number) => Promise<Uint8Array | null>, storedSize: number, key: CryptoKey, type: string): Promise<Blob | null> {
  const parts: BlobPart[] = [];
  const segments = Math.max(1, Math.ceil(storedSize / SEALED_SEGMENT_SIZE));
  for (let index = 0; index < segments; index++) {
    const length = Math.min(SEALED_SEGMENT_SIZE, storedSize - index * SEALED_SEGMENT_SIZE);
    const sealed = await read(length);
    if (!sealed || sealed.length !== length) return null;
    try {
      parts.push(new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: segmentNonce(index), additionalData: segmentAad(index === segments - 1) }, key, sealed as Uint8Array<ArrayBuffer>)));
    } catch {
      return null;
    }
  }
  return new Blob(parts, { type: type || "application/octet-stream" });
}

/** Reads exactly `length` bytes at a time from a stream (the reveal's body: a header, then each file). */
export function exactReader(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  let buffer = new Uint8Array(0);
  return async (length: number): Promise<Uint8Array | null> => {
    while (buffer.length < length) {
      const { value, done } = await reader.read();
      if (done) return null;
      const next = new Uint8Array(buffer.length + value.length);
      next.set(buffer, 0);
      next.set(value, buffer.length);
      buffer = next;
    }
    const out = buffer.slice(0, length);
    buffer = buffer.slice(length);
    return out;
  };
}
