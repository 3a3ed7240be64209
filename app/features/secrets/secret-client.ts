import { deriveSecretKeys, newKdfParams, newLinkKey, openPayload, parseLinkKey, passphraseMaterial, sealPayload, type KdfParams, type SecretPayload } from "./secret-crypto";

/**
 * What the browser sends and reads for secrets (issue 23): the create request (sealed content and
 * the proof; never the key, the passphrase or the text) and the reveal (the proof; the ciphertext
 * is opened here). Used by the pages and by the tests that check what leaves the browser.
 */

export type NewSecretInput = { text: string; passphrase: string; expiresInHours: number; maxViews: number; label: string };
export type CreateSecretBody = { ciphertext: string; proof: string; kdf: KdfParams | null; size: number; expiresInHours: number; maxViews: number; label: string };

export async function sealNewSecret(input: NewSecretInput, onProgress?: (fraction: number) => void): Promise<{ linkKey: string; body: CreateSecretBody }> {
  const linkKey = newLinkKey();
  const kdf = input.passphrase ? newKdfParams() : null;
  const material = kdf ? await passphraseMaterial(input.passphrase, kdf, onProgress) : null;
  const keys = await deriveSecretKeys(parseLinkKey(linkKey)!, material);
  const ciphertext = await sealPayload(keys.contentKey, { text: input.text });
  return {
    linkKey,
    body: { ciphertext, proof: keys.proof, kdf, size: new TextEncoder().encode(input.text).byteLength, expiresInHours: input.expiresInHours, maxViews: input.maxViews, label: input.label },
  };
}

/** The link a member shares: the page's address, then the key after #. */
export function secretLink(origin: string, token: string, linkKey: string): string {
  return `${origin}/secret/${token}#${linkKey}`;
}

export type RevealKeys = { proof: string; open: (ciphertext: string) => Promise<SecretPayload | null> };

/** The proof to send, and how to open what comes back; null when the link's key is missing or cut off. */
export async function revealKeys(fragment: string, passphrase: string, kdf: KdfParams | null, onProgress?: (fraction: number) => void): Promise<RevealKeys | null> {
  const linkKey = parseLinkKey(fragment);
  if (!linkKey) return null;
  const material = kdf ? await passphraseMaterial(passphrase, kdf, onProgress) : null;
  const keys = await deriveSecretKeys(linkKey, material);
  return { proof: keys.proof, open: (ciphertext) => openPayload(keys.contentKey, ciphertext) };
}
