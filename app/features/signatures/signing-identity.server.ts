import { CryptoKeySigner, type Signer } from "@libpdf/core";
import { AppError } from "~/lib/errors";
import { sha256Hex } from "~/lib/sha256";

/**
 * The platform's signing identity (issue 38, ADR 031): one private key and its certificate (a PEM
 * chain, leaf first), kept as Worker secrets `SIGNING_KEY` and `SIGNING_CERT`. `npm start` writes a
 * self-signed pair into .dev.vars; production installs the operator's own (docs/configuration.md).
 * Every sealed envelope is signed with it; the verify page knows "our seal" by the leaf's SHA-256.
 */
export type SigningIdentity = {
  signer: Signer;
  /** DER of the leaf certificate. */
  certificate: Uint8Array;
  /** Hex SHA-256 of the leaf's DER: how the verify page recognises this instance's seal. */
  fingerprint: string;
  /** An optional RFC 3161 timestamp authority (`SIGNING_TSA_URL`); nothing is fetched without one. */
  timestampUrl: string | null;
};

type IdentityEnv = { SIGNING_KEY?: string; SIGNING_CERT?: string; SIGNING_TSA_URL?: string };

const cache = new Map<string, Promise<SigningIdentity>>();

/** The PEM blocks of a text (secrets pasted with literal "\n" sequences work too). */
export function pemBlocks(text: string, label: string): Uint8Array<ArrayBuffer>[] {
  const normalised = text.replace(/\\n/g, "\n");
  const pattern = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, "g");
  return [...normalised.matchAll(pattern)].map((match) => Uint8Array.from(atob(match[1]!.replace(/\s+/g, "")), (c) => c.charCodeAt(0)));
}

export { sha256Hex };

async function importIdentity(env: IdentityEnv): Promise<SigningIdentity> {
  const [key] = pemBlocks(env.SIGNING_KEY ?? "", "PRIVATE KEY");
  const [certificate, ...chain] = pemBlocks(env.SIGNING_CERT ?? "", "CERTIFICATE");
  if (!key || !certificate) {
    throw new AppError("SERVICE_UNAVAILABLE", "This instance has no signing identity yet: ops install SIGNING_KEY and SIGNING_CERT (docs/configuration.md).");
  }
  // PKCS#8 names its algorithm; try EC P-256 first (the local default), then RSA.
  let signer: Signer;
  try {
    const privateKey = await crypto.subtle.importKey("pkcs8", key, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
    signer = new CryptoKeySigner(privateKey, certificate, "EC", "ECDSA", chain);
  } catch {
    try {
      const privateKey = await crypto.subtle.importKey("pkcs8", key, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
      signer = new CryptoKeySigner(privateKey, certificate, "RSA", "RSASSA-PKCS1-v1_5", chain);
    } catch {
      throw new AppError("SERVICE_UNAVAILABLE", "SIGNING_KEY is neither an EC P-256 nor an RSA private key in PKCS#8 PEM (docs/configuration.md).");
    }
  }
  return { signer, certificate, fingerprint: await sha256Hex(certificate), timestampUrl: env.SIGNING_TSA_URL?.trim() || null };
}

/** The identity, imported once per isolate (a failed import is retried next time). */
export function signingIdentity(env: IdentityEnv): Promise<SigningIdentity> {
  const cacheKey = `${env.SIGNING_KEY ?? ""}|${env.SIGNING_CERT ?? ""}|${env.SIGNING_TSA_URL ?? ""}`;
  let identity = cache.get(cacheKey);
  if (!identity) {
    identity = importIdentity(env);
    identity.catch(() => cache.delete(cacheKey));
    cache.set(cacheKey, identity);
  }
  return identity;
}
