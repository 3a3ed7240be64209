/**
 * Pictures for tests (issues 39 and 40): an EXIF segment written into a JPEG as cameras and
 * phones write them (orientation, maker and model, the time taken, where), and noise to look at.
 */
export type ExifTags = { orientation?: number; make?: string; model?: string; takenAt?: string; latitude?: number; longitude?: number };

/** One IFD entry: ASCII text, SHORT numbers, RATIONAL pairs, or a pointer to a sub-IFD. */
type Entry = { tag: number } & ({ type: 2; text: string } | { type: 3; numbers: number[] } | { type: 5; numbers: number[] } | { type: 4; pointsTo: "exif" | "gps" });

const valueBytes = (entry: Entry) => (entry.type === 2 ? entry.text.length + 1 : entry.type === 3 ? entry.numbers.length * 2 : entry.type === 5 ? entry.numbers.length * 4 : 4);
const countOf = (entry: Entry) => (entry.type === 2 ? entry.text.length + 1 : entry.type === 5 ? entry.numbers.length / 2 : entry.type === 3 ? entry.numbers.length : 1);

/** Degrees as three rationals: degrees, minutes, seconds × 1000. */
function degrees(tag: number, value: number): Entry {
  const whole = Math.floor(value);
  const minutes = Math.floor((value - whole) * 60);
  const seconds = Math.round(((value - whole) * 60 - minutes) * 60 * 1000);
  return { tag, type: 5, numbers: [whole, 1, minutes, 1, seconds, 1000] };
}

/** A TIFF block in either byte order: IFD0 with its Exif and GPS sub-IFDs, values over 4 bytes after each IFD. */
function tiff(ifd0: Entry[], exif: Entry[], gps: Entry[], little: boolean): Uint8Array {
  const ifds: { name: "ifd0" | "exif" | "gps"; entries: Entry[] }[] = [{ name: "ifd0", entries: ifd0 }];
  if (exif.length) ifds.push({ name: "exif", entries: exif });
  if (gps.length) ifds.push({ name: "gps", entries: gps });
  for (const ifd of ifds) ifd.entries.sort((a, b) => a.tag - b.tag);
  const outside = (entry: Entry) => (valueBytes(entry) > 4 ? valueBytes(entry) + (valueBytes(entry) % 2) : 0);
  const offsets: Record<string, number> = {};
  let at = 8;
  for (const ifd of ifds) {
    offsets[ifd.name] = at;
    at += 2 + ifd.entries.length * 12 + 4 + ifd.entries.reduce((sum, entry) => sum + outside(entry), 0);
  }
  const view = new DataView(new ArrayBuffer(at));
  view.setUint16(0, little ? 0x4949 : 0x4d4d);
  view.setUint16(2, 42, little);
  view.setUint32(4, 8, little);
  const writeValue = (entry: Entry, where: number) => {
    if (entry.type === 2) [...new TextEncoder().encode(`${entry.text}\0`)].forEach((byte, index) => view.setUint8(where + index, byte));
    else if (entry.type === 3) entry.numbers.forEach((value, index) => view.setUint16(where + index * 2, value, little));
    else if (entry.type === 5) entry.numbers.forEach((value, index) => view.setUint32(where + index * 4, value, little));
    else view.setUint32(where, offsets[entry.pointsTo]!, little);
  };
  for (const ifd of ifds) {
    let position = offsets[ifd.name]!;
    let data = position + 2 + ifd.entries.length * 12 + 4;
    view.setUint16(position, ifd.entries.length, little);
    position += 2;
    for (const entry of ifd.entries) {
      view.setUint16(position, entry.tag, little);
      view.setUint16(position + 2, entry.type, little);
      view.setUint32(position + 4, countOf(entry), little);
      if (valueBytes(entry) <= 4) writeValue(entry, position + 8);
      else {
        view.setUint32(position + 8, data, little);
        writeValue(entry, data);
        data += outside(entry);
      }
      position += 12;
    }
    view.setUint32(position, 0, little);
  }
  return new Uint8Array(view.buffer);
}

/** The JPEG with an APP1 EXIF segment right after its start-of-image marker (big-endian unless `littleEndian`). */
export function withExif(jpeg: Uint8Array, tags: ExifTags, littleEndian = false): Uint8Array<ArrayBuffer> {
  const ifd0: Entry[] = [];
  const exif: Entry[] = [];
  const gps: Entry[] = [];
  if (tags.make) ifd0.push({ tag: 0x010f, type: 2, text: tags.make });
  if (tags.model) ifd0.push({ tag: 0x0110, type: 2, text: tags.model });
  if (tags.orientation) ifd0.push({ tag: 0x0112, type: 3, numbers: [tags.orientation] });
  if (tags.takenAt) exif.push({ tag: 0x9003, type: 2, text: tags.takenAt });
  if (tags.latitude !== undefined && tags.longitude !== undefined) {
    gps.push(
      { tag: 0x0001, type: 2, text: tags.latitude < 0 ? "S" : "N" },
      degrees(0x0002, Math.abs(tags.latitude)),
      { tag: 0x0003, type: 2, text: tags.longitude < 0 ? "W" : "E" },
      degrees(0x0004, Math.abs(tags.longitude)),
    );
  }
  if (exif.length) ifd0.push({ tag: 0x8769, type: 4, pointsTo: "exif" });
  if (gps.length) ifd0.push({ tag: 0x8825, type: 4, pointsTo: "gps" });
  const body = new Uint8Array([0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff(ifd0, exif, gps, littleEndian)]);
  const segment = new Uint8Array([0xff, 0xe1, (body.byteLength + 2) >> 8, (body.byteLength + 2) & 0xff, ...body]);
  return new Uint8Array([...jpeg.subarray(0, 2), ...segment, ...jpeg.subarray(2)]);
}

/** A JPEG with only an EXIF orientation (1–8), as phones write them. */
export function withExifOrientation(jpeg: Uint8Array, orientation: number, littleEndian = false): Uint8Array<ArrayBuffer> {
  return withExif(jpeg, { orientation }, littleEndian);
}

/** A picture of noise (every pixel different from its neighbours), `width` × `height`, as RGBA. */
export function noisePixels(width: number, height: number): ImageData {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let index = 0; index < data.length; index += 1) data[index] = index % 4 === 3 ? 255 : (index * 7919) % 251;
  return { width, height, data, colorSpace: "srgb" } as ImageData;
}
