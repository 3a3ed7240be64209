/**
 * Pictures for tests (issues 39 and 40): an EXIF segment written into a JPEG as cameras and
 * phones write them (orientation, maker and model, the time taken, where), and noise to look at.
 */
export type ExifTags = { orientation?: number; make?: string; model?: string; takenAt?: string; latitude?: number; longitude?: number };

type Entry = { tag: number; type: 2 | 3 | 4 | 5; count: number; value: Uint8Array; pointsTo?: "exif" | "gps" };

const ascii = (tag: number, text: string): Entry => ({ tag, type: 2, count: text.length + 1, value: new TextEncoder().encode(`${text}\0`) });
const short = (tag: number, value: number): Entry => ({ tag, type: 3, count: 1, value: new Uint8Array([value >> 8, value & 0xff]) });
/** Degrees as three rationals: degrees, minutes, seconds × 1000. */
function degrees(tag: number, value: number): Entry {
  const whole = Math.floor(value);
  const minutes = Math.floor((value - whole) * 60);
  const seconds = Math.round(((value - whole) * 60 - minutes) * 60 * 1000);
  const bytes = new DataView(new ArrayBuffer(24));
  [whole, 1, minutes, 1, seconds, 1000].forEach((part, index) => bytes.setUint32(index * 4, part));
  return { tag, type: 5, count: 3, value: new Uint8Array(bytes.buffer) };
}

/** A big-endian TIFF block: IFD0 with its Exif and GPS sub-IFDs, values over 4 bytes after each IFD. */
function tiff(ifd0: Entry[], exif: Entry[], gps: Entry[]): Uint8Array {
  const ifds: { name: "ifd0" | "exif" | "gps"; entries: Entry[] }[] = [{ name: "ifd0", entries: ifd0 }];
  if (exif.length) ifds.push({ name: "exif", entries: exif });
  if (gps.length) ifds.push({ name: "gps", entries: gps });
  for (const ifd of ifds) ifd.entries.sort((a, b) => a.tag - b.tag);
  const sizeOf = (entries: Entry[]) => 2 + entries.length * 12 + 4 + entries.reduce((sum, entry) => sum + (entry.value.byteLength > 4 ? entry.value.byteLength + (entry.value.byteLength % 2) : 0), 0);
  const offsets: Record<string, number> = {};
  let at = 8;
  for (const ifd of ifds) {
    offsets[ifd.name] = at;
    at += sizeOf(ifd.entries);
  }
  const view = new DataView(new ArrayBuffer(at));
  view.setUint16(0, 0x4d4d);
  view.setUint16(2, 42);
  view.setUint32(4, 8);
  for (const ifd of ifds) {
    let position = offsets[ifd.name]!;
    let data = position + 2 + ifd.entries.length * 12 + 4;
    view.setUint16(position, ifd.entries.length);
    position += 2;
    for (const entry of ifd.entries) {
      view.setUint16(position, entry.tag);
      view.setUint16(position + 2, entry.pointsTo ? 4 : entry.type);
      view.setUint32(position + 4, entry.pointsTo ? 1 : entry.count);
      if (entry.pointsTo) view.setUint32(position + 8, offsets[entry.pointsTo]!);
      else if (entry.value.byteLength <= 4) entry.value.forEach((byte, index) => view.setUint8(position + 8 + index, byte));
      else {
        view.setUint32(position + 8, data);
        entry.value.forEach((byte, index) => view.setUint8(data + index, byte));
        data += entry.value.byteLength + (entry.value.byteLength % 2);
      }
      position += 12;
    }
    view.setUint32(position, 0);
  }
  return new Uint8Array(view.buffer);
}

/** The JPEG with an APP1 EXIF segment right after its start-of-image marker. */
export function withExif(jpeg: Uint8Array, tags: ExifTags): Uint8Array<ArrayBuffer> {
  const ifd0: Entry[] = [];
  const exif: Entry[] = [];
  const gps: Entry[] = [];
  if (tags.make) ifd0.push(ascii(0x010f, tags.make));
  if (tags.model) ifd0.push(ascii(0x0110, tags.model));
  if (tags.orientation) ifd0.push(short(0x0112, tags.orientation));
  if (tags.takenAt) exif.push(ascii(0x9003, tags.takenAt));
  if (tags.latitude !== undefined && tags.longitude !== undefined) {
    gps.push(ascii(0x0001, tags.latitude < 0 ? "S" : "N"), degrees(0x0002, Math.abs(tags.latitude)), ascii(0x0003, tags.longitude < 0 ? "W" : "E"), degrees(0x0004, Math.abs(tags.longitude)));
  }
  if (exif.length) ifd0.push({ tag: 0x8769, type: 4, count: 1, value: new Uint8Array(4), pointsTo: "exif" });
  if (gps.length) ifd0.push({ tag: 0x8825, type: 4, count: 1, value: new Uint8Array(4), pointsTo: "gps" });
  const body = new Uint8Array([0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff(ifd0, exif, gps)]);
  const segment = new Uint8Array([0xff, 0xe1, (body.byteLength + 2) >> 8, (body.byteLength + 2) & 0xff, ...body]);
  return new Uint8Array([...jpeg.subarray(0, 2), ...segment, ...jpeg.subarray(2)]);
}

/** A picture of noise (every pixel different from its neighbours), `width` × `height`, as RGBA. */
export function noisePixels(width: number, height: number): ImageData {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let index = 0; index < data.length; index += 1) data[index] = index % 4 === 3 ? 255 : (index * 7919) % 251;
  return { width, height, data, colorSpace: "srgb" } as ImageData;
}
