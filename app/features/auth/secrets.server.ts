import { sha256 } from "@oslojs/crypto/sha2";
import { decodeBase64urlIgnorePadding, encodeBase32LowerCaseNoPadding, encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { hmacSign, randomToken } from "~/lib/crypto.server";

/**
 * The secrets accounts hand out and how they are stored (S1):
 * - link tokens: 256 random bits in the URL, SHA-256 in D1;
 * - 6-digit e-mail codes: from the CSPRNG, stored as an HMAC bound to the session they were sent to;
 * - recovery codes: 50 random bits each, stored as an HMAC;
 * - the TOTP key, and a share link's token for its owner's copy button: AES-GCM encrypted with a
 *   key derived (HKDF, one per purpose) from SESSION_SECRET.
 */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomToken(32);
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Six digits, uniformly from the CSPRNG (rejection sampling: no modulo bias). */
export function newSixDigitCode(): string {
  const buffer = new Uint32Array(1);
  const limit = Math.floor(0xffffffff / 1_000_000) * 1_000_000;
  for (;;) {
    crypto.getRandomValues(buffer);
    if (buffer[0]! < limit) return String(buffer[0]! % 1_000_000).padStart(6, "0");
  }
}

export function hashCode(secret: string, scope: string, code: string): Promise<string> {
  return hmacSign(secret, `code:${scope}:${code}`);
}

export const RECOVERY_CODE_COUNT = 10;

/** `xxxxx-xxxxx`, lower-case base32 (50 bits). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = new Uint8Array(7);
    crypto.getRandomValues(bytes);
    const text = encodeBase32LowerCaseNoPadding(bytes).slice(0, 10);
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

export function normalizeRecoveryCode(input: string): string {
  const compact = input.toLowerCase().replace(/[^a-z0-9]/g, "");
  return `${compact.slice(0, 5)}-${compact.slice(5)}`;
}

/** What a sealed secret is for: each purpose has its own key (HKDF), so one can never open another's. */
export type SecretPurpose = "totp" | "share-link" | "secret-request" | "receive-page" | "form-webhook" | "signing-link" | "workflow-webhook";

async function secretKey(appSecret: string, purpose: SecretPurpose): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(appSecret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new TextEncoder().encode(`strongroom-${purpose}`), info: new TextEncoder().encode(`${purpose}-key-v1`) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export async function encryptSecret(appSecret: string, plain: Uint8Array<ArrayBuffer>, purpose: SecretPurpose = "totp"): Promise<string> {
  const iv = new Uint8Array(12);
  crypto.getRandomValues(iv);
  const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await secretKey(appSecret, purpose), plain));
  return `v1.${encodeBase64urlNoPadding(iv)}.${encodeBase64urlNoPadding(cipher)}`;
}

export async function decryptSecret(appSecret: string, sealed: string, purpose: SecretPurpose = "totp"): Promise<Uint8Array | null> {
  const [version, ivText, cipherText] = sealed.split(".");
  if (version !== "v1" || !ivText || !cipherText) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: new Uint8Array(decodeBase64urlIgnorePadding(ivText)) },
      await secretKey(appSecret, purpose),
      new Uint8Array(decodeBase64urlIgnorePadding(cipherText)),
    );
    return new Uint8Array(plain);
  } catch {
    return null;
  }
}
