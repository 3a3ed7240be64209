import { scrypt, timingSafeEqual, randomBytes } from "node:crypto";
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { readConfig } from "~/lib/config.server";

/**
 * Password hashing (S9): scrypt from node:crypto with an OWASP-equivalent cost (N=2^14, r=8,
 * p=5; OWASP lists this as equivalent to N=2^17, p=1 while needing 16 MiB instead of 128 MiB,
 * which a 128 MB isolate cannot spare) and an explicit maxmem. The parameters travel with the
 * hash, so they can be raised later and old hashes still verify (and are re-hashed at sign-in).
 */
export const SCRYPT_PARAMS = { N: 2 ** 14, r: 8, p: 5, keyLength: 32 } as const;
/**
 * PASSWORD_HASH_COST = "fast": the test servers only (config refuses it in production). About a
 * hundredth of the standard cost, so a test suite that makes thousands of members spends its time
 * on behaviour; hashes keep their parameters, so a fast hash is re-hashed on a standard server.
 */
export const FAST_SCRYPT_PARAMS = { N: 2 ** 10, r: 8, p: 1, keyLength: 32 } as const;
const MAXMEM = 64 * 1024 * 1024;

export type ScryptParams = { N: number; r: number; p: number; keyLength: number };

/** The parameters new hashes get on this deployment. */
export function scryptParamsFor(env: Env): ScryptParams {
  return readConfig(env).PASSWORD_HASH_COST === "fast" ? FAST_SCRYPT_PARAMS : SCRYPT_PARAMS;
}

function derive(password: string, salt: Uint8Array, params: ScryptParams) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, params.keyLength, { N: params.N, r: params.r, p: params.p, maxmem: MAXMEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(password: string, params: ScryptParams): Promise<string> {
  const salt = new Uint8Array(randomBytes(16));
  const key = await derive(password, salt, params);
  const { N, r, p } = params;
  return `scrypt$${N}$${r}$${p}$${encodeBase64(salt)}$${encodeBase64(new Uint8Array(key))}`;
}

export type PasswordCheck = { valid: boolean; needsRehash: boolean };

/** `current`: the parameters of this deployment; a hash made with others is flagged for re-hashing. */
export async function verifyPassword(password: string, stored: string, current: ScryptParams): Promise<PasswordCheck> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return { valid: false, needsRehash: false };
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const expected = decodeBase64(hashText);
  const params = { N: Number(n), r: Number(r), p: Number(p), keyLength: expected.length };
  const key = await derive(password, decodeBase64(saltText), params);
  const valid = key.length === expected.length && timingSafeEqual(key, expected);
  const needsRehash = params.N !== current.N || params.r !== current.r || params.p !== current.p;
  return { valid, needsRehash };
}

/**
 * A hash of a random password, verified against when the e-mail is unknown so that a sign-in
 * for a missing account costs the same time as one for a real account (S12).
 */
const dummyHashes = new Map<number, Promise<string>>();
export function dummyPasswordHash(params: ScryptParams): Promise<string> {
  let hash = dummyHashes.get(params.N);
  if (!hash) {
    hash = hashPassword(encodeBase64(new Uint8Array(randomBytes(18))), params);
    dummyHashes.set(params.N, hash);
  }
  return hash;
}

let commonPasswords: Promise<Set<string>> | undefined;

/**
 * The common-password list (S10): zxcvbn-ts's ranked list of ~30,000 leaked passwords, loaded on
 * first use (not at Worker start-up) and kept for the isolate's life.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  commonPasswords ??= import("@zxcvbn-ts/language-common").then(({ dictionary }) => new Set(dictionary["passwords-common"]));
  const list = await commonPasswords;
  return list.has(password.toLowerCase());
}
