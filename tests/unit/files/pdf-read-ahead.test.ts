import { describe, expect, it } from "vitest";
import { createReadAhead } from "~/features/files/components/preview-fetch";

const KiB = 1024;

describe("PDF range read-ahead", () => {
  it("asks for exactly the chunk pdf.js wants when reads jump around the file", () => {
    const end = createReadAhead(4 * KiB, 256 * KiB, 10_000 * KiB);
    expect(end(400 * KiB, 404 * KiB)).toBe(404 * KiB);
    expect(end(8 * KiB, 12 * KiB)).toBe(12 * KiB);
    expect(end(900 * KiB, 904 * KiB)).toBe(904 * KiB);
  });

  it("doubles each request while reads follow on from the previous one, up to the maximum", () => {
    const end = createReadAhead(4 * KiB, 32 * KiB, 10_000 * KiB);
    let begin = 0;
    const sizes: number[] = [];
    for (let step = 0; step < 6; step++) {
      const to = end(begin, begin + 4 * KiB);
      sizes.push((to - begin) / KiB);
      begin = to;
    }
    expect(sizes).toEqual([4, 8, 16, 32, 32, 32]);
    // A jump elsewhere starts small again.
    expect(end(5_000 * KiB, 5_004 * KiB)).toBe(5_004 * KiB);
  });

  it("never asks for less than pdf.js wants, never past the end, and keeps ends chunk-aligned", () => {
    const size = 100 * KiB + 123;
    const end = createReadAhead(4 * KiB, 64 * KiB, size);
    expect(end(0, 40 * KiB)).toBe(40 * KiB);
    expect(end(40 * KiB, 44 * KiB)).toBe(48 * KiB);
    expect(end(48 * KiB, 52 * KiB)).toBe(64 * KiB);
    expect(end(64 * KiB, 68 * KiB)).toBe(96 * KiB);
    expect(end(96 * KiB, 100 * KiB)).toBe(size);
    for (const to of [40 * KiB, 48 * KiB, 64 * KiB, 96 * KiB]) expect(to % (4 * KiB)).toBe(0);
  });
});
