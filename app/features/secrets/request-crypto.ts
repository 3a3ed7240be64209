import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { newKdfParams, passphraseMaterial, type KdfParams, type SecretPayload } from "./secret-crypto";

/**
 * "Request a secret" in the browser (issue 23, docs/secrets.md), WebCrypto only:
 *
 * - The member's browser makes an ECDH P-256 key pair. The public key goes into the request (and
 *   so to visitors); the private key leaves the browser only wrapped: AES-256-GCM with a key
 *   derived (argon2id, then HKDF) from a passphrase the member chooses and the server never sees.
 * - A visitor's browser makes a one-time key pair, derives a shared secret with the request's
 *   public key (ECDH), turns it into an AES-256-GCM key (HKDF over both public keys) and seals
 *   the answer. It sends its one-time public key and the ciphertext.
 * - The member unwraps the private key with the passphrase and opens each answer.
 */

const SALT = new TextEncoder().encode("strongroom secret request v1");
const ECDH = { name: "ECDH", namedCurve: "P-256" } as const;

const bytes = (text: string) => decodeBase64urlIgnorePadding(text) as Uint8Array<ArrayBuffer>;

async function hkdfAesKey(material: Uint8Array<ArrayBuffer>, info: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", material, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: SALT, info }, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

async function seal(key: CryptoKey, plain: Uint8Array<ArrayBuffer>): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  return `v1.${encodeBase64urlNoPadding(iv)}.${encodeBase64urlNoPadding(new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, plain)))}`;
}

async function open(key: CryptoKey, sealed: string): Promise<Uint8Array | null> {
  const [version, iv, body] = sealed.split(".");
  if (version !== "v1" || !iv || !body) return null;
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes(iv) }, key, bytes(body)));
  } catch {
    return null;
  }
}

async function wrappingKey(passphrase: string, kdf: KdfParams): Promise<CryptoKey> {
  return hkdfAesKey(await passphraseMaterial(passphrase, kdf), new TextEncoder().encode("private key wrapping"));
}

export type NewRequestKeys = { publicKey: string; wrappedKey: string; kdf: KdfParams };

/** A new key pair for a request: the public key, and the private key wrapped with the passphrase. */
export async function newRequestKeys(passphrase: string): Promise<NewRequestKeys> {
  const pair = await crypto.subtle.generateKey(ECDH, true, ["deriveBits"]);
  const publicKey = encodeBase64urlNoPadding(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)));
  const kdf = newKdfParams();
  const privateKey = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  return { publicKey, wrappedKey: await seal(await wrappingKey(passphrase, kdf), privateKey), kdf };
}

/** The answer's content key and its files' keys, from the ECDH secret and both public keys. */
async function answerKeys(privateKey: CryptoKey, otherPublic: Uint8Array<ArrayBuffer>, ephemeralRaw: Uint8Array<ArrayBuffer>, requestRaw: Uint8Array<ArrayBuffer>) {
  const other = await crypto.subtle.importKey("raw", otherPublic, ECDH, false, []);
  const shared = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: other }, privateKey, 256));
  const info = (suffix: string) => {
    const tail = new TextEncoder().encode(suffix);
    const out = new Uint8Array(ephemeralRaw.length + requestRaw.length + tail.length);
    out.set(ephemeralRaw, 0);
    out.set(requestRaw, ephemeralRaw.length);
    out.set(tail, ephemeralRaw.length + requestRaw.length);
    return out;
  };
  return { contentKey: await hkdfAesKey(shared, info("")), fileKey: (index: number) => hkdfAesKey(shared, info(`file ${index}`)) };
}

export type SealedAnswer = { ephemeralKey: string; ciphertext: string; size: number };

/** The visitor's side: the answer sealed to the request's public key, and its files' keys. */
export async function sealAnswer(requestPublicKey: string, payload: SecretPayload): Promise<SealedAnswer & { fileKey: (index: number) => Promise<CryptoKey> }> {
  const requestRaw = bytes(requestPublicKey);
  const pair = await crypto.subtle.generateKey(ECDH, true, ["deriveBits"]);
  const ephemeralRaw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const keys = await answerKeys(pair.privateKey, requestRaw, ephemeralRaw, requestRaw);
  const plain = new TextEncoder().encode(JSON.stringify(payload));
  return { ephemeralKey: encodeBase64urlNoPadding(ephemeralRaw), ciphertext: await seal(keys.contentKey, plain), size: new TextEncoder().encode(payload.text).byteLength, fileKey: keys.fileKey };
}

export type OpenedAnswer = SecretPayload & { fileKey: (index: number) => Promise<CryptoKey> };
export type RequestOpener = (answer: { ephemeralKey: string; ciphertext: string }) => Promise<OpenedAnswer | null>;

/** The member's side: null when the passphrase does not unwrap the key; else a function that opens answers. */
export async function unlockRequest(passphrase: string, request: { publicKey: string; wrappedKey: string; kdf: KdfParams }): Promise<RequestOpener | null> {
  const pkcs8 = await open(await wrappingKey(passphrase, request.kdf), request.wrappedKey);
  if (!pkcs8) return null;
  const privateKey = await crypto.subtle.importKey("pkcs8", new Uint8Array(pkcs8), ECDH, false, ["deriveBits"]);
  const requestRaw = bytes(request.publicKey);
  return async (answer) => {
    try {
      const ephemeralRaw = bytes(answer.ephemeralKey);
      const keys = await answerKeys(privateKey, ephemeralRaw, ephemeralRaw, requestRaw);
      const plain = await open(keys.contentKey, answer.ciphertext);
      if (!plain) return null;
      const value = JSON.parse(new TextDecoder().decode(plain)) as SecretPayload | null;
      if (!value || typeof value !== "object" || typeof value.text !== "string") return null;
      const files = Array.isArray(value.files) ? value.files.filter((file) => typeof file?.name === "string").map((file) => ({ name: file.name, size: Number(file.size) || 0, type: typeof file.type === "string" ? file.type : "" })) : undefined;
      return files ? { text: value.text, files, fileKey: keys.fileKey } : { text: value.text, fileKey: keys.fileKey };
    } catch {
      return null;
    }
  };
}
