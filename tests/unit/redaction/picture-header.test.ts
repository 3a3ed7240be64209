import { describe, expect, it } from "vitest";
import { isAnimatedWebp, jpegOrientation } from "~/lib/picture-header";
import { withExifOrientation } from "~tests/shared/picture-fixtures";

// The smallest stand-in for a JPEG's markers: start of image, then start of scan.
const BARE_JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9]);

describe("reading a picture's header", () => {
  it("reads a JPEG's EXIF orientation in either byte order, and calls a JPEG without one upright", () => {
    expect(jpegOrientation(BARE_JPEG)).toBe(1);
    for (const orientation of [1, 3, 6, 8]) {
      expect(jpegOrientation(withExifOrientation(BARE_JPEG, orientation))).toBe(orientation);
      expect(jpegOrientation(withExifOrientation(BARE_JPEG, orientation, true))).toBe(orientation);
    }
    // Nonsense values and truncated files are upright rather than a crash.
    expect(jpegOrientation(withExifOrientation(BARE_JPEG, 42))).toBe(1);
    expect(jpegOrientation(withExifOrientation(BARE_JPEG, 6).subarray(0, 20))).toBe(1);
    expect(jpegOrientation(new TextEncoder().encode("not a picture"))).toBe(1);
  });

  it("tells an animated WebP from a still one", () => {
    const webp = (chunk: string, flags: number) => new Uint8Array([...new TextEncoder().encode(`RIFF\0\0\0\0WEBP${chunk}`), 10, 0, 0, 0, flags, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(isAnimatedWebp(webp("VP8X", 0x02))).toBe(true);
    expect(isAnimatedWebp(webp("VP8X", 0x10))).toBe(false);
    expect(isAnimatedWebp(webp("VP8 ", 0x02))).toBe(false);
    expect(isAnimatedWebp(new Uint8Array(4))).toBe(false);
  });
});
