import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";

/**
 * The browser's half of a secret (issue 23, docs/secrets.md): everything here runs in the page,
 * never on the server, and uses WebCrypto only (argon2id, for a passphrase, loads on demand).
 *
 * - The link key: 32 random bytes, base64url in the link's #fragment (browsers never send it).
 * - With a passphrase: argon2id(passphrase, salt) gives 32 more bytes of key material.
 * - From the key material, HKDF-SHA-256 derives two unrelated values: the AES-256-GCM content
 *   key, and a "proof" the visitor sends to reveal. The server keeps SHA-256(proof) to check it:
 *   a wrong passphrase or a cut-off link is refused (and counted) without using up a view, and
 *   the proof says nothing about the content key.
 * - Sealed payload: "v1." + base64url(iv) + "." + base64url(AES-GCM(JSON payload)).
 */

export const SECRET_KEY_BYTES = 32;
const HKDF_SALT = new TextEncoder().encode("strongroom secret v1");
const CONTENT_INFO = new TextEncoder().encode("content key");
const PROOF_INFO = new TextEncoder().encode("reveal proof");

/** argon2id's cost for a passphrase (OWASP's minimum: 19 MiB, 2 passes), stored with each secret. */
export type KdfParams = { alg: "argon2id"; salt: string; m: number; t: number; p: number };
export const DEFAULT_KDF = { m: 19_456, t: 2, p: 1 } as const;

/** An attached file as the sealed payload describes it (the server sees only its stored size). */
export type SecretFileMeta = { name: string; size: number; type: string };
/** What a secret holds once opened. */
export type SecretPayload = { text: string; files?: SecretFileMeta[] };

export function newLinkKey(): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(SECRET_KEY_BYTES)));
}

/** The link's key from its #fragment, or null when it is missing or not a key (a cut-off link). */
export function parseLinkKey(fragment: string): Uint8Array<ArrayBuffer> | null {
  const text = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  try {
    const bytes = decodeBase64urlIgnorePadding(text);
    return bytes.length === SECRET_KEY_BYTES ? new Uint8Array(bytes) : null;
  } catch {
    return null;
  }
}

export function newKdfParams(): KdfParams {
  return { alg: "argon2id", salt: encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(16))), ...DEFAULT_KDF };
}

/** 32 bytes from a passphrase (argon2id, loaded only when a passphrase is used). */
export async function passphraseMaterial(passphrase: string, params: KdfParams, onProgress?: (fraction: number) => void): Promise<Uint8Array<ArrayBuffer>> {
  const { argon2idAsync } = await import("@noble/hashes/argon2.js");
  const out = await argon2idAsync(passphrase.normalize("NFC"), decodeBase64urlIgnorePadding(params.salt), { m: params.m, t: params.t, p: params.p, dkLen: 32, onProgress });
  return new Uint8Array(out);
}

export type SecretKeys = { contentKey: CryptoKey; proof: string; fileKey: (index: number) => Promise<CryptoKey> };

/** The content key and the reveal proof from the link key (and the passphrase's material). */
export async function deriveSecretKeys(linkKey: Uint8Array<ArrayBuffer>, passphrase: Uint8Array<ArrayBuffer> | null): Promise<SecretKeys> {
  const material = new Uint8Array(linkKey.length + (passphrase?.length ?? 0));
  material.set(linkKey, 0);
  if (passphrase) material.set(passphrase, linkKey.length);
  const base = await crypto.subtle.importKey("raw", material, "HKDF", false, ["deriveKey", "deriveBits"]);
  const contentKey = await crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: HKDF_SALT, info: CONTENT_INFO }, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  const proof = new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: HKDF_SALT, info: PROOF_INFO }, base, 256));
  // Each attached file has its own key (its segments' nonces are their numbers).
  const fileKey = (index: number) => crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: HKDF_SALT, info: new TextEncoder().encode(`file ${index}`) }, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  return { contentKey, proof: encodeBase64urlNoPadding(proof), fileKey };
}

export async function sealPayload(key: CryptoKey, payload: SecretPayload): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(JSON.stringify(payload))));
  return `v1.${encodeBase64urlNoPadding(iv)}.${encodeBase64urlNoPadding(sealed)}`;
}

/** The payload, or null when the key does not open it. */
export async function openPayload(key: CryptoKey, sealed: string): Promise<SecretPayload | null> {
  const [version, iv, body] = sealed.split(".");
  if (version !== "v1" || !iv || !body) return null;
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: decodeBase64urlIgnorePadding(iv) as Uint8Array<ArrayBuffer> }, key, decodeBase64urlIgnorePadding(body) as Uint8Array<ArrayBuffer>);
    const value = JSON.parse(new TextDecoder().decode(plain)) as unknown;
    if (!value || typeof value !== "object" || typeof (value as SecretPayload).text !== "string") return null;
    const files = (value as SecretPayload).files;
    return Array.isArray(files) ? { text: (value as SecretPayload).text, files: files.filter((file) => typeof file?.name === "string" && typeof file.size === "number").map((file) => ({ name: file.name, size: file.size, type: typeof file.type === "string" ? file.type : "" })) } : { text: (value as SecretPayload).text };
  } catch {
    return null;
  }
}
