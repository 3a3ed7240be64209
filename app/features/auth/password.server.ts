import { scrypt, timingSafeEqual, randomBytes } from "node:crypto";
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";

/**
 * Password hashing (S9): scrypt from node:crypto with an OWASP-equivalent cost (N=2^14, r=8,
 * p=5; OWASP lists this as equivalent to N=2^17, p=1 while needing 16 MiB instead of 128 MiB,
 * which a 128 MB isolate cannot spare) and an explicit maxmem. The parameters travel with the
 * hash, so they can be raised later and old hashes still verify (and are re-hashed at sign-in).
 */
export const SCRYPT_PARAMS = { N: 2 ** 14, r: 8, p: 5, keyLength: 32 } as const;
const MAXMEM = 64 * 1024 * 1024;

function derive(password: string, salt: Uint8Array, params: { N: number; r: number; p: number; keyLength: number }) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, params.keyLength, { N: params.N, r: params.r, p: params.p, maxmem: MAXMEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = new Uint8Array(randomBytes(16));
  const key = await derive(password, salt, SCRYPT_PARAMS);
  const { N, r, p } = SCRYPT_PARAMS;
  return `scrypt$${N}$${r}$${p}$${encodeBase64(salt)}$${encodeBase64(new Uint8Array(key))}`;
}

export type PasswordCheck = { valid: boolean; needsRehash: boolean };

export async function verifyPassword(password: string, stored: string): Promise<PasswordCheck> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return { valid: false, needsRehash: false };
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const expected = decodeBase64(hashText);
  const params = { N: Number(n), r: Number(r), p: Number(p), keyLength: expected.length };
  const key = await derive(password, decodeBase64(saltText), params);
  const valid = key.length === expected.length && timingSafeEqual(key, expected);
  const needsRehash = params.N !== SCRYPT_PARAMS.N || params.r !== SCRYPT_PARAMS.r || params.p !== SCRYPT_PARAMS.p;
  return { valid, needsRehash };
}

/**
 * A hash of a random password, verified against when the e-mail is unknown so that a sign-in
 * for a missing account costs the same time as one for a real account (S12).
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(encodeBase64(new Uint8Array(randomBytes(18))));
  return dummyHash;
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
