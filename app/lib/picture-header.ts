/**
 * What a picture's header says before anything is decoded: a JPEG's EXIF orientation (phones
 * store photos sideways and say so in EXIF; browsers show them turned) and whether a WebP is
 * animated. Pure byte reading, no library: both are a few fields at known places.
 */

/** EXIF orientation 1–8 of a JPEG (1 = upright), or 1 when it has none or it cannot be read. */
export function jpegOrientation(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 4 || view.getUint16(0) !== 0xffd8) return 1;
  let offset = 2;
  while (offset + 4 <= bytes.byteLength) {
    if (bytes[offset] !== 0xff) return 1;
    const marker = bytes[offset + 1]!;
    // Start of scan or image data: the headers are over.
    if (marker === 0xda || marker === 0xd9) return 1;
    const length = view.getUint16(offset + 2);
    if (marker === 0xe1 && length >= 16 && offset + 2 + length <= bytes.byteLength && view.getUint32(offset + 4) === 0x45786966 && view.getUint16(offset + 8) === 0) {
      return tiffOrientation(view, offset + 10, offset + 2 + length);
    }
    offset += 2 + length;
  }
  return 1;
}

function tiffOrientation(view: DataView, tiff: number, end: number): number {
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return 1;
  const little = order === 0x4949;
  const firstIfd = tiff + view.getUint32(tiff + 4, little);
  if (firstIfd + 2 > end) return 1;
  const entries = view.getUint16(firstIfd, little);
  for (let index = 0; index < entries; index += 1) {
    const entry = firstIfd + 2 + index * 12;
    if (entry + 12 > end) return 1;
    if (view.getUint16(entry, little) === 0x0112) {
      const value = view.getUint16(entry + 8, little);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** True when a WebP file says it holds an animation (the VP8X chunk's animation flag). */
export function isAnimatedWebp(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 21) return false;
  const tag = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  return tag(0) === "RIFF" && tag(8) === "WEBP" && tag(12) === "VP8X" && (bytes[20]! & 0x02) !== 0;
}
