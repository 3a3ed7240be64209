import { sealedFileSize } from "./secret-files";
import { deriveSecretKeys, newKdfParams, newLinkKey, openPayload, parseLinkKey, passphraseMaterial, sealPayload, type KdfParams, type SecretPayload } from "./secret-crypto";

/**
 * What the browser sends and reads for secrets (issue 23): the create request (sealed content and
 * the proof; never the key, the passphrase or the text) and the reveal (the proof; the ciphertext
 * is opened here). Used by the pages and by the tests that check what leaves the browser.
 */

export type NewSecretInput = { text: string; passphrase: string; expiresInHours: number; maxViews: number; label: string; files?: readonly File[] };
export type CreateSecretBody = { ciphertext: string; proof: string; kdf: KdfParams | null; size: number; expiresInHours: number; maxViews: number; label: string; files: { storedSize: number }[] };

/** The create request (files: their names and types sealed inside, only their sealed sizes outside), and the files' keys for their upload. */
export async function sealNewSecret(input: NewSecretInput, onProgress?: (fraction: number) => void): Promise<{ linkKey: string; body: CreateSecretBody; fileKey: (index: number) => Promise<CryptoKey> }> {
  const linkKey = newLinkKey();
  const kdf = input.passphrase ? newKdfParams() : null;
  const material = kdf ? await passphraseMaterial(input.passphrase, kdf, onProgress) : null;
  const keys = await deriveSecretKeys(parseLinkKey(linkKey)!, material);
  const files = input.files ?? [];
  const ciphertext = await sealPayload(keys.contentKey, files.length > 0 ? { text: input.text, files: files.map((file) => ({ name: file.name, size: file.size, type: file.type })) } : { text: input.text });
  return {
    linkKey,
    fileKey: keys.fileKey,
    body: {
      ciphertext,
      proof: keys.proof,
      kdf,
      size: new TextEncoder().encode(input.text).byteLength,
      expiresInHours: input.expiresInHours,
      maxViews: input.maxViews,
      label: input.label,
      files: files.map((file) => ({ storedSize: sealedFileSize(file.size) })),
    },
  };
}

/** The link a member shares: the page's address, then the key after #. */
export function secretLink(origin: string, token: string, linkKey: string): string {
  return `${origin}/secret/${token}#${linkKey}`;
}

export type RevealKeys = { proof: string; open: (ciphertext: string) => Promise<SecretPayload | null>; fileKey: (index: number) => Promise<CryptoKey> };

/** The proof to send, and how to open what comes back; null when the link's key is missing or cut off. */
export async function revealKeys(fragment: string, passphrase: string, kdf: KdfParams | null, onProgress?: (fraction: number) => void): Promise<RevealKeys | null> {
  const linkKey = parseLinkKey(fragment);
  if (!linkKey) return null;
  const material = kdf ? await passphraseMaterial(passphrase, kdf, onProgress) : null;
  const keys = await deriveSecretKeys(linkKey, material);
  return { proof: keys.proof, open: (ciphertext) => openPayload(keys.contentKey, ciphertext), fileKey: keys.fileKey };
}
