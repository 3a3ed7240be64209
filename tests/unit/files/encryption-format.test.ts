import { describe, expect, it } from "vitest";
import {
  SEALED_SEGMENT_SIZE,
  SEGMENT_SIZE,
  cipherRangeFor,
  encryptedPartSize,
  encryptedSize,
  isEncryptedKey,
  plaintextSize,
  segmentNonce,
} from "~/features/files/encryption-format";

describe("the sealed object layout", () => {
  it("adds one 16-byte tag per 64 KiB segment, an empty file included, and tells the plaintext size back", () => {
    for (const size of [0, 1, SEGMENT_SIZE - 1, SEGMENT_SIZE, SEGMENT_SIZE + 1, 8 * 1024 * 1024 + 70_000]) {
      expect(encryptedSize(size)).toBe(size + 16 * Math.max(1, Math.ceil(size / SEGMENT_SIZE)));
      expect(plaintextSize(encryptedSize(size))).toBe(size);
    }
    // Every full upload part seals to the same size (R2 multipart needs equal parts).
    expect(encryptedPartSize(8 * 1024 * 1024)).toBe((8 * 1024 * 1024 * SEALED_SEGMENT_SIZE) / SEGMENT_SIZE);
  });

  it("maps a plaintext range to the whole segments that hold it", () => {
    const size = 3 * SEGMENT_SIZE + 10;
    expect(cipherRangeFor(SEGMENT_SIZE - 5, 25, size)).toEqual({ firstSegment: 0, offset: 0, length: 2 * SEALED_SEGMENT_SIZE, skip: SEGMENT_SIZE - 5, take: 25 });
    expect(cipherRangeFor(size - 4, 4, size)).toEqual({ firstSegment: 3, offset: 3 * SEALED_SEGMENT_SIZE, length: 10 + 16, skip: 6, take: 4 });
  });

  it("knows a sealed object by its key, and never repeats a nonce within an object", () => {
    expect(isEncryptedKey("files/room-1/e1-0f9c")).toBe(true);
    expect(isEncryptedKey("files/room-1/0f9c")).toBe(false);
    expect(isEncryptedKey("watermarked/room-1/e1-abc")).toBe(true);
    const nonces = new Set([0, 1, 2, 2 ** 32, 2 ** 32 + 1].map((index) => segmentNonce(index).join(",")));
    expect(nonces.size).toBe(5);
  });
});
