import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { checkFeature } from "~/features/access/access-check";
import type { MemberAccess } from "~/features/access/access.server";
import { readConfig } from "~/lib/config.server";
import type { ServiceContext } from "~/lib/service-context.server";
import {
  ENCRYPTED_KEY_MARKER,
  SEALED_SEGMENT_SIZE,
  SEGMENT_SIZE,
  cipherRangeFor,
  encryptedSize,
  isEncryptedKey,
  plaintextSize,
  segmentAad,
  segmentCount,
  segmentNonce,
} from "./encryption-format";
import { countUnsealedFiles, findSpaceKey, insertSpaceKeyIfAbsent, listSpaceKeysNotWrappedWith, updateSpaceKeyWrapping } from "./encryption.queries.server";

/**
 * Encryption at rest for data rooms (ADR 021): every object of a room is sealed before it reaches
 * R2 with a key of its own, derived (HKDF-SHA-256) from the room's key and the object's R2 key.
 * The room's key is 32 random bytes, stored only wrapped (AES-GCM) by the key-encryption key of
 * the environment (`FILES_ENCRYPTION_KEY`); rotating that secret re-wraps the room keys (nightly,
 * `rewrapSpaceKeys`) and never re-encrypts a file. What it protects against: a leaked bucket or
 * a copied R2 object. What it does not: a compromised Worker, which holds the key-encryption key.
 */

const encoder = new TextEncoder();

type Kek = { id: string; key: CryptoKey };

async function kekFromRaw(raw: Uint8Array<ArrayBuffer>): Promise<Kek> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array([...encoder.encode("strongroom kek id\n"), ...raw])));
  const id = [...digest.subarray(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return { id, key: await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]) };
}

/** A configured key (base64 of 32 bytes), or, without one (development, tests), one derived from SESSION_SECRET. */
async function rawKek(value: string | undefined, sessionSecret: string): Promise<Uint8Array<ArrayBuffer>> {
  if (value) return new Uint8Array(decodeBase64(value.trim()));
  const base = await crypto.subtle.importKey("raw", encoder.encode(sessionSecret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: encoder.encode("strongroom"), info: encoder.encode("files key-encryption key v1") }, base, 256);
  return new Uint8Array(bits);
}

const keks = new WeakMap<object, Promise<{ current: Kek; previous: Kek | null }>>();

function keyEncryptionKeys(env: Env): Promise<{ current: Kek; previous: Kek | null }> {
  let found = keks.get(env);
  if (!found) {
    const config = readConfig(env);
    found = (async () => ({
      current: await kekFromRaw(await rawKek(config.FILES_ENCRYPTION_KEY, config.SESSION_SECRET)),
      previous: config.FILES_ENCRYPTION_KEY_PREVIOUS ? await kekFromRaw(await rawKek(config.FILES_ENCRYPTION_KEY_PREVIOUS, config.SESSION_SECRET)) : null,
    }))();
    keks.set(env, found);
  }
  return found;
}

async function wrap(kek: Kek, spaceId: string, raw: Uint8Array<ArrayBuffer>): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(spaceId) }, kek.key, raw));
  return encodeBase64(new Uint8Array([...iv, ...sealed]));
}

async function unwrap(kek: Kek, spaceId: string, wrapped: string): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = decodeBase64(wrapped);
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: encoder.encode(spaceId) }, kek.key, bytes.slice(12)));
}

const roomKeys = new WeakMap<ServiceContext, Map<string, Promise<CryptoKey>>>();

/** The room's key (as HKDF key material), made on first use; kept for the rest of the request. */
function roomKeyFor(ctx: ServiceContext, spaceId: string): Promise<CryptoKey> {
  let perRequest = roomKeys.get(ctx);
  if (!perRequest) roomKeys.set(ctx, (perRequest = new Map()));
  let pending = perRequest.get(spaceId);
  if (!pending) {
    pending = (async () => {
      const { current, previous } = await keyEncryptionKeys(ctx.env);
      let row = await findSpaceKey(ctx.db, spaceId);
      if (!row) {
        await insertSpaceKeyIfAbsent(ctx.db, { spaceId, wrapped: await wrap(current, spaceId, crypto.getRandomValues(new Uint8Array(32))), kekId: current.id, now: ctx.now() });
        row = await findSpaceKey(ctx.db, spaceId);
      }
      if (!row) throw new Error("The room's encryption key could not be stored.");
      const kek = row.kekId === current.id ? current : row.kekId === previous?.id ? previous : null;
      if (!kek) throw new Error(`The room's key is wrapped by key-encryption key ${row.kekId}, which is not configured (FILES_ENCRYPTION_KEY / _PREVIOUS).`);
      return crypto.subtle.importKey("raw", await unwrap(kek, spaceId, row.wrapped), "HKDF", false, ["deriveKey"]);
    })();
    perRequest.set(spaceId, pending);
    pending.catch(() => perRequest.delete(spaceId));
  }
  return pending;
}

/** The space an object key belongs to (`files/{space}/…`, `watermarked/{space}/…`). */
function spaceOfKey(r2Key: string): string {
  const spaceId = r2Key.split("/")[1];
  if (!spaceId) throw new Error(`Not an object key of a space: ${r2Key}`);
  return spaceId;
}

async function objectCipherKey(ctx: ServiceContext, r2Key: string): Promise<CryptoKey> {
  const roomKey = await roomKeyFor(ctx, spaceOfKey(r2Key));
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode(r2Key), info: encoder.encode("strongroom object v1") },
    roomKey,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** A new object key in `prefix/{space}/`: sealed (format 1) when `encrypted`. */
export function newObjectKey(prefix: "files" | "watermarked" | "signatures", spaceId: string, encrypted: boolean, name: string = crypto.randomUUID()): string {
  return `${prefix}/${spaceId}/${encrypted ? ENCRYPTED_KEY_MARKER : ""}${name}`;
}

/** What R2 stores for `size` plaintext bytes under `r2Key`. */
export function storedSize(r2Key: string, size: number): number {
  return isEncryptedKey(r2Key) ? encryptedSize(size) : size;
}

/** Cuts a byte stream into pieces of exactly `size` (the last may be shorter) and hands each to `each`. */
function segmenting(size: number, each: (piece: Uint8Array<ArrayBuffer>, controller: TransformStreamDefaultController<Uint8Array>) => Promise<void>, atEnd: (controller: TransformStreamDefaultController<Uint8Array>, rest: Uint8Array<ArrayBuffer>) => Promise<void>) {
  let buffer = new Uint8Array(0);
  return new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      const joined = new Uint8Array(buffer.byteLength + chunk.byteLength);
      joined.set(buffer);
      joined.set(chunk, buffer.byteLength);
      let start = 0;
      // Keep the final piece back until the end: only then is it known to be the last.
      while (joined.byteLength - start > size) {
        await each(joined.slice(start, start + size), controller);
        start += size;
      }
      buffer = joined.slice(start);
    },
    async flush(controller) {
      await atEnd(controller, buffer);
    },
  });
}

/**
 * Seals plaintext that starts at segment `firstSegment` of an object of `totalSize` plaintext
 * bytes (one upload part, or the whole object). Output length: `encryptedPartSize(input length)`.
 */
export async function sealingStream(ctx: ServiceContext, r2Key: string, firstSegment: number, totalSize: number): Promise<TransformStream<Uint8Array, Uint8Array>> {
  const key = await objectCipherKey(ctx, r2Key);
  const lastIndex = segmentCount(totalSize) - 1;
  let index = firstSegment;
  const seal = async (piece: Uint8Array<ArrayBuffer>, controller: TransformStreamDefaultController<Uint8Array>) => {
    const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv: segmentNonce(index), additionalData: segmentAad(index === lastIndex) }, key, piece);
    controller.enqueue(new Uint8Array(sealed));
    index++;
  };
  return segmenting(SEGMENT_SIZE, seal, async (controller, rest) => {
    // The rest is a whole or partial last segment; an empty rest is a segment only for an empty object.
    if (rest.byteLength > 0 || (index === 0 && totalSize === 0)) await seal(rest, controller);
  });
}

/**
 * Opens sealed segments read from the object (starting at `range.firstSegment`) and yields the
 * plaintext bytes the range asked for. A segment that does not authenticate (a changed or cut
 * object) errors the stream.
 */
async function openingStream(ctx: ServiceContext, r2Key: string, size: number, range: ReturnType<typeof cipherRangeFor>): Promise<TransformStream<Uint8Array, Uint8Array>> {
  const key = await objectCipherKey(ctx, r2Key);
  const lastIndex = segmentCount(size) - 1;
  let index = range.firstSegment;
  let skip = range.skip;
  let left = range.take;
  const open = async (piece: Uint8Array<ArrayBuffer>, controller: TransformStreamDefaultController<Uint8Array>) => {
    let plain: Uint8Array;
    try {
      plain = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: segmentNonce(index), additionalData: segmentAad(index === lastIndex) }, key, piece));
    } catch {
      ctx.logger.error("sealed object did not authenticate", { r2Key, segment: index });
      throw new Error(`Segment ${index} of a stored object did not authenticate: the object was changed or cut.`);
    }
    index++;
    const from = Math.min(skip, plain.byteLength);
    skip -= from;
    const part = plain.subarray(from, from + Math.min(left, plain.byteLength - from));
    left -= part.byteLength;
    if (part.byteLength > 0) controller.enqueue(part);
  };
  return segmenting(SEALED_SEGMENT_SIZE, open, async (controller, rest) => {
    if (rest.byteLength > 0) await open(rest, controller);
  });
}

/**
 * The plaintext of a stored object (whole, or `range`), opened on the way when it is sealed; null
 * when the object is missing. `size` is the plaintext size (D1 has it).
 */
export async function readStoredObject(ctx: ServiceContext, r2Key: string, size: number, range?: { offset: number; length: number }): Promise<ReadableStream<Uint8Array> | null> {
  if (!isEncryptedKey(r2Key)) {
    const object = await ctx.env.FILES.get(r2Key, range ? { range } : undefined);
    return object?.body ?? null;
  }
  const wanted = cipherRangeFor(range?.offset ?? 0, range?.length ?? size, size);
  const object = await ctx.env.FILES.get(r2Key, { range: { offset: wanted.offset, length: wanted.length } });
  if (!object) return null;
  return object.body.pipeThrough(await openingStream(ctx, r2Key, size, wanted));
}

/** A whole stored object's plaintext in memory (documents a use case reads whole: PDFs to seal or redact), or null when it is missing. */
export async function readStoredBytes(ctx: ServiceContext, r2Key: string, size: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const body = await readStoredObject(ctx, r2Key, size);
  return body ? new Uint8Array(await new Response(body).arrayBuffer()) : null;
}

/** Writes `size` plaintext bytes from `body` under `r2Key` in one put, sealed when the key says so. */
export async function putStoredStream(ctx: ServiceContext, r2Key: string, size: number, body: ReadableStream<Uint8Array>, options?: R2PutOptions): Promise<R2Object | null> {
  const fixed = new FixedLengthStream(storedSize(r2Key, size));
  const source = isEncryptedKey(r2Key) ? body.pipeThrough(await sealingStream(ctx, r2Key, 0, size)) : body;
  const [written] = await Promise.all([ctx.env.FILES.put(r2Key, fixed.readable, options), source.pipeTo(fixed.writable)]);
  return written;
}

/** Writes `bytes` under `r2Key`, sealed when the key says so. */
export function putStoredObject(ctx: ServiceContext, r2Key: string, bytes: Uint8Array<ArrayBuffer>, options?: R2PutOptions): Promise<R2Object | null> {
  return putStoredStream(ctx, r2Key, bytes.byteLength, new Blob([bytes]).stream(), options);
}

/** The plaintext size of an object as R2 reports it (its stored size). */
export function plaintextSizeOf(r2Key: string, stored: number): number {
  return isEncryptedKey(r2Key) ? plaintextSize(stored) : stored;
}

/** Whether new objects of a space are sealed: data rooms whose owner's plan has encryption_at_rest (every standard plan). */
export function sealsObjects(isRoom: boolean, ownerAccess: MemberAccess): boolean {
  return isRoom && checkFeature(ownerAccess, "encryption_at_rest");
}

/**
 * Nightly after a key-encryption key rotation: every room key still wrapped by another key is
 * unwrapped with FILES_ENCRYPTION_KEY_PREVIOUS and wrapped with FILES_ENCRYPTION_KEY. Files are
 * never re-encrypted. Idempotent (a re-wrapped row is no longer listed).
 */
export async function rewrapSpaceKeys(ctx: ServiceContext): Promise<{ rewrapped: number; unreadable: number }> {
  const { current, previous } = await keyEncryptionKeys(ctx.env);
  let rewrapped = 0;
  let unreadable = 0;
  for (const row of await listSpaceKeysNotWrappedWith(ctx.db, current.id, 500)) {
    if (!previous || row.kekId !== previous.id) {
      unreadable++;
      ctx.logger.error("room key wrapped by an unknown key-encryption key", { spaceId: row.spaceId, kekId: row.kekId });
      continue;
    }
    const raw = await unwrap(previous, row.spaceId, row.wrapped);
    if (await updateSpaceKeyWrapping(ctx.db, { spaceId: row.spaceId, fromKekId: previous.id, wrapped: await wrap(current, row.spaceId, raw), kekId: current.id, now: ctx.now() })) rewrapped++;
  }
  return { rewrapped, unreadable };
}

/** What the room's security page says about encryption at rest. */
export async function roomEncryptionStatus(ctx: ServiceContext, spaceId: string, ownerAccess: MemberAccess): Promise<{ sealsNewFiles: boolean; unsealedFiles: number }> {
  return { sealsNewFiles: sealsObjects(true, ownerAccess), unsealedFiles: await countUnsealedFiles(ctx.db, spaceId) };
}
