import type { WatermarkSettings } from "~/features/datarooms/protection";
import { AppError } from "~/lib/errors";
import { stampPixels } from "./image-stamp";
import type { StampableImageType } from "./watermark.constants";

/**
 * Images re-encoded with the mark drawn into their pixels (ADR 020): JPEG and PNG through the
 * Squoosh codecs (@jsquash, WebAssembly). workerd forbids compiling WebAssembly at run time, so
 * each codec's .wasm is imported as a module (compiled at deploy) and handed to its `init`. The
 * codecs load lazily (a dynamic import of this file), so only requests that stamp pay for them.
 */

export const WATERMARK_IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** 16 megapixels: 64 MB of RGBA, half of a Worker's memory. */
export const WATERMARK_IMAGE_MAX_PIXELS = 16_000_000;


/** Width and height from the header, before anything is decoded (so a huge image is refused cheaply). */
export function imageDimensions(bytes: Uint8Array, type: StampableImageType): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === "image/png") {
    if (bytes.byteLength < 24) return null;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  // JPEG: walk the markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC).
  let offset = 2;
  while (offset + 9 < bytes.byteLength) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const length = view.getUint16(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

let codecs: Promise<{
  decodeJpeg: (buffer: ArrayBuffer) => Promise<ImageData>;
  encodeJpeg: (data: ImageData, options: { quality: number }) => Promise<ArrayBuffer>;
  decodePng: (buffer: ArrayBuffer) => Promise<ImageData>;
  encodePng: (data: ImageData) => Promise<ArrayBuffer>;
}> | null = null;

function loadCodecs() {
  codecs ??= (async () => {
    const [jpegDecode, jpegEncode, pngDecode, pngEncode, jpegDecWasm, jpegEncWasm, pngWasm] = await Promise.all([
      import("@jsquash/jpeg/decode.js"),
      import("@jsquash/jpeg/encode.js"),
      import("@jsquash/png/decode.js"),
      import("@jsquash/png/encode.js"),
      import("@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm"),
      import("@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm"),
      import("@jsquash/png/codec/pkg/squoosh_png_bg.wasm"),
    ]);
    // The PNG codec's .wasm has typings of its exports next to it; imported here it is the compiled module.
    const pngModule = (pngWasm as unknown as { default: WebAssembly.Module }).default;
    await Promise.all([jpegDecode.init(jpegDecWasm.default), jpegEncode.init(jpegEncWasm.default), pngDecode.init(pngModule), pngEncode.init(pngModule)]);
    return {
      decodeJpeg: (buffer: ArrayBuffer) => jpegDecode.default(buffer),
      encodeJpeg: (data: ImageData, options: { quality: number }) => jpegEncode.default(data, options),
      decodePng: (buffer: ArrayBuffer) => pngDecode.default(buffer),
      encodePng: (data: ImageData) => pngEncode.default(data),
    };
  })();
  codecs.catch(() => (codecs = null));
  return codecs;
}

const megapixels = (pixels: number) => `${(pixels / 1_000_000).toFixed(1)} megapixels`;

/** Decodes the image, stamps `text` into its pixels and encodes it again in its own format. */
export async function stampImage(bytes: Uint8Array, type: StampableImageType, text: string, settings: WatermarkSettings): Promise<Uint8Array> {
  const size = imageDimensions(bytes, type);
  if (!size) throw new AppError("UNPROCESSABLE", "This image could not be read, so it cannot carry the room's watermark and cannot be shown here.");
  if (size.width * size.height > WATERMARK_IMAGE_MAX_PIXELS) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `This image has ${megapixels(size.width * size.height)}; watermarked viewing works for images up to ${megapixels(WATERMARK_IMAGE_MAX_PIXELS)}. Ask the room's owner for a smaller copy.`,
    );
  }
  let image: ImageData;
  try {
    image = await decodeImage(bytes, type);
  } catch {
    throw new AppError("UNPROCESSABLE", "This image could not be read, so it cannot carry the room's watermark and cannot be shown here.");
  }
  stampPixels(image, text, settings);
  return encodeImage(image, type);
}

export async function decodeImage(bytes: Uint8Array, type: StampableImageType): Promise<ImageData> {
  const codec = await loadCodecs();
  const buffer = bytes.slice().buffer;
  return type === "image/png" ? codec.decodePng(buffer) : codec.decodeJpeg(buffer);
}

/** PNG stays lossless; JPEG is written at quality 85 (the mark is not worth a visible loss). */
export async function encodeImage(image: ImageData, type: StampableImageType): Promise<Uint8Array<ArrayBuffer>> {
  const codec = await loadCodecs();
  return new Uint8Array(type === "image/png" ? await codec.encodePng(image) : await codec.encodeJpeg(image, { quality: 85 }));
}
