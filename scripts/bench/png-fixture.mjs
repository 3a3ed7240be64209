// PNGs written by hand (zlib for the pixel rows), for the demo's pictures, the gallery bench and
// the end-to-end tests: one colour per row, each picture its own bytes.
import { crc32, deflateSync } from "node:zlib";

/** A PNG of `width` × `height` pixels (8-bit RGB), each row in the colour `rowColour(y)` gives. */
export function makePng(width, height, rowColour) {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, check]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Array.from({ length: height }, (_, y) => {
    const [r, g, b] = rowColour(y).map(Math.round);
    return Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, index) => [r, g, b][index % 3])]);
  });
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows))), chunk("IEND", Buffer.alloc(0))]);
}

/** A PNG of `width` × `height` pixels of one colour. */
export function solidPng(width, height, colour) {
  return makePng(width, height, () => colour);
}
