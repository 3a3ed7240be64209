import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { sha256Hex } from "./signing-identity.server";
import type { PdfVerification, VerifiedSignature } from "./verify-types";

export type { PdfVerification, VerifiedSignature };

/**
 * Checks every signature in a PDF (issue 38, the verify page): whether the bytes each one signs
 * are intact and its CMS signature matches its certificate, who signed and when, and whether
 * anything was appended after the last signature ("modified after signing"). No chain or
 * revocation checking: a signature is "this instance's seal" when its certificate is ours (by
 * SHA-256), otherwise an outside certificate shown with its subject, issuer and validity.
 * Agrees with poppler's pdfsig on valid, multi-signature, flipped-byte and appended files.
 */

const OID_COMMON_NAME = "2.5.4.3";
const OID_SIGNING_TIME = "1.2.840.113549.1.9.5";
const OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
const OID_TIMESTAMP_TOKEN = "1.2.840.113549.1.9.16.2.14";
const DIGESTS: Record<string, string> = {
  "1.3.14.3.2.26": "SHA-1",
  "2.16.840.1.101.3.4.2.1": "SHA-256",
  "2.16.840.1.101.3.4.2.2": "SHA-384",
  "2.16.840.1.101.3.4.2.3": "SHA-512",
};
const NAMES: Record<string, string> = { "2.5.4.3": "CN", "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST", "1.2.840.113549.1.9.1": "E" };

type Found = { range: [number, number, number, number]; dictionary: string };

/** Every /ByteRange in the file with the text of the dictionary around it. */
function findSignatures(text: string): Found[] {
  const found: Found[] = [];
  const pattern = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (const match of text.matchAll(pattern)) {
    const range = match.slice(1, 5).map(Number) as [number, number, number, number];
    const start = text.lastIndexOf("<<", match.index);
    found.push({ range, dictionary: text.slice(Math.max(0, start), match.index + match[0].length + 400) });
  }
  return found;
}

function nameText(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues.map((entry) => `${NAMES[entry.type] ?? entry.type}=${entry.value.valueBlock.value}`).join(", ");
}

function commonName(name: pkijs.RelativeDistinguishedNames): string {
  const entry = name.typesAndValues.find((candidate) => candidate.type === OID_COMMON_NAME);
  return entry ? String(entry.value.valueBlock.value) : nameText(name);
}

function dictionaryValue(dictionary: string, key: string): string | null {
  const match = new RegExp(`/${key}\\s*(?:/([^\\s/<>\\[\\]()]+)|\\(((?:[^()\\\\]|\\\\.)*)\\))`).exec(dictionary);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** "D:20261127041312Z" or "D:20261127041312+01'00'" → ISO. */
function pdfDate(value: string | null): string | null {
  const match = value && /^D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:([Z+-])(\d{2})?'?(\d{2})?)?/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, sign, oh, om] = match;
  const offset = sign && sign !== "Z" ? `${sign}${oh ?? "00"}:${om ?? "00"}` : "Z";
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

const EC_CURVES: Record<string, { name: string; size: number }> = {
  "1.2.840.10045.3.1.7": { name: "P-256", size: 32 },
  "1.3.132.0.34": { name: "P-384", size: 48 },
  "1.3.132.0.35": { name: "P-521", size: 66 },
};

/** An ECDSA signature in DER (SEQUENCE { r, s }) as WebCrypto's fixed-size r || s. */
function ecdsaRaw(der: Uint8Array, size: number): Uint8Array<ArrayBuffer> | null {
  const asn = asn1js.fromBER(der);
  if (asn.offset === -1 || !(asn.result instanceof asn1js.Sequence)) return null;
  const out = new Uint8Array(size * 2);
  const parts = asn.result.valueBlock.value;
  for (const [index, part] of parts.slice(0, 2).entries()) {
    if (!(part instanceof asn1js.Integer)) return null;
    let value = new Uint8Array(part.valueBlock.valueHexView);
    while (value.length > size && value[0] === 0) value = value.subarray(1);
    if (value.length > size) return null;
    out.set(value, index * size + (size - value.length));
  }
  return out;
}

/** The CMS signature over the signed attributes, checked with the certificate's own key. */
async function signatureMatches(signerInfo: pkijs.SignerInfo, certificate: pkijs.Certificate, hash: string): Promise<boolean> {
  try {
    const encoded = signerInfo.signedAttrs?.encodedValue;
    if (!encoded || encoded.byteLength === 0) return false;
    const data = new Uint8Array(encoded.slice(0));
    data[0] = 0x31; // signed over as a SET, stored as [0] IMPLICIT
    const spki = new Uint8Array(certificate.subjectPublicKeyInfo.toSchema().toBER(false));
    const keyAlgorithm = certificate.subjectPublicKeyInfo.algorithm.algorithmId;
    const signature = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
    if (keyAlgorithm === "1.2.840.10045.2.1") {
      const params = certificate.subjectPublicKeyInfo.algorithm.algorithmParams;
      const curve = params instanceof asn1js.ObjectIdentifier ? EC_CURVES[params.valueBlock.toString()] : undefined;
      const raw = curve ? ecdsaRaw(signature, curve.size) : null;
      if (!curve || !raw) return false;
      const key = await crypto.subtle.importKey("spki", spki, { name: "ECDSA", namedCurve: curve.name }, false, ["verify"]);
      return await crypto.subtle.verify({ name: "ECDSA", hash }, key, raw, data);
    }
    if (keyAlgorithm === "1.2.840.113549.1.1.1") {
      const key = await crypto.subtle.importKey("spki", spki, { name: "RSASSA-PKCS1-v1_5", hash }, false, ["verify"]);
      return await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key, signature, data);
    }
    return false;
  } catch {
    return false;
  }
}

async function checkOne(bytes: Uint8Array, text: string, found: Found, ourFingerprint: string | null): Promise<VerifiedSignature> {
  const [a, b, c, d] = found.range;
  const base: VerifiedSignature = {
    subFilter: dictionaryValue(found.dictionary, "SubFilter"),
    intact: false,
    signatureValid: false,
    signer: null,
    signedAt: pdfDate(dictionaryValue(found.dictionary, "M")),
    timestamped: false,
    ours: false,
    coversBytes: c + d,
    problem: null,
  };
  if (a !== 0 || b <= 0 || c <= b || c + d > bytes.length) return { ...base, problem: "Its byte range does not fit this file, so it cannot be checked." };
  const contentsHex = text.slice(b + 1, c - 1).replace(/[^0-9a-fA-F]/g, "");
  const contents = Uint8Array.from(contentsHex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  let signedData: pkijs.SignedData;
  try {
    const asn = asn1js.fromBER(contents);
    if (asn.offset === -1) throw new Error("bad BER");
    signedData = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: asn.result }).content });
  } catch {
    return { ...base, problem: "Its signature data could not be read." };
  }
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) return { ...base, problem: "It holds no signer." };
  const signed = new Uint8Array(b + d);
  signed.set(bytes.subarray(0, b), 0);
  signed.set(bytes.subarray(c, c + d), b);

  const certificates = (signedData.certificates ?? []).filter((cert): cert is pkijs.Certificate => cert instanceof pkijs.Certificate);
  const sid = signerInfo.sid;
  const certificate =
    certificates.find((cert) => sid instanceof pkijs.IssuerAndSerialNumber && cert.serialNumber.isEqual(sid.serialNumber) && cert.issuer.isEqual(sid.issuer)) ?? certificates[0] ?? null;
  let signer: VerifiedSignature["signer"] = null;
  let ours = false;
  if (certificate) {
    const der = new Uint8Array(certificate.toSchema(true).toBER(false));
    const fingerprint = await sha256Hex(der);
    ours = ourFingerprint !== null && fingerprint === ourFingerprint;
    signer = {
      commonName: commonName(certificate.subject),
      subject: nameText(certificate.subject),
      issuer: nameText(certificate.issuer),
      notBefore: certificate.notBefore.value.toISOString(),
      notAfter: certificate.notAfter.value.toISOString(),
      fingerprint,
    };
  }
  const attributes = signerInfo.signedAttrs?.attributes ?? [];
  const signingTime = attributes.find((attribute) => attribute.type === OID_SIGNING_TIME)?.values[0];
  const signedAt = signingTime && "toDate" in signingTime && typeof signingTime.toDate === "function" ? (signingTime.toDate() as Date).toISOString() : base.signedAt;
  const timestamped = (signerInfo.unsignedAttrs?.attributes ?? []).some((attribute) => attribute.type === OID_TIMESTAMP_TOKEN);

  // The digest of the signed bytes against the one the signature carries.
  const algorithm = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  const claimed = attributes.find((attribute) => attribute.type === OID_MESSAGE_DIGEST)?.values[0];
  let intact = false;
  if (algorithm && claimed instanceof asn1js.OctetString) {
    intact = equalBytes(new Uint8Array(await crypto.subtle.digest(algorithm, signed)), new Uint8Array(claimed.valueBlock.valueHexView));
  }
  const signatureValid = Boolean(algorithm && certificate && intact && (await signatureMatches(signerInfo, certificate, algorithm)));
  const problem = !algorithm
    ? "It uses a digest this page does not check."
    : !intact
      ? "The signed bytes were changed after signing."
      : !signatureValid
        ? "The signature does not match its certificate."
        : null;
  return { ...base, intact, signatureValid: intact && signatureValid, signer, signedAt, timestamped, ours, problem };
}

export async function verifyPdf(bytes: Uint8Array, ourFingerprint: string | null): Promise<PdfVerification> {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (!head.includes("%PDF-")) return { kind: "not-pdf" };
  const sha256 = await sha256Hex(bytes);
  const text = new TextDecoder("latin1").decode(bytes);
  const found = findSignatures(text);
  if (found.length === 0) return { kind: "unsigned", size: bytes.length, sha256 };
  const signatures: VerifiedSignature[] = [];
  for (const one of found) signatures.push(await checkOne(bytes, text, one, ourFingerprint));
  const lastEnd = Math.max(...found.map((one) => one.range[2] + one.range[3]));
  // Trailing line breaks after %%EOF are not a change.
  const tail = text.slice(lastEnd);
  const bytesAfterLastSignature = /^[\r\n\s]*$/.test(tail) ? 0 : bytes.length - lastEnd;
  return {
    kind: "signed",
    size: bytes.length,
    sha256,
    signatures,
    bytesAfterLastSignature,
    modifiedAfterSigning: bytesAfterLastSignature > 0,
    allValid: signatures.every((signature) => signature.signatureValid),
  };
}
