// The platform's signing identity for local use: an EC P-256 key and a self-signed certificate,
// written into .dev.vars as SIGNING_KEY / SIGNING_CERT (PEM). Never committed (.dev.vars is
// ignored); production installs a real one with `wrangler secret put` (docs/configuration.md).
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

const subtle = globalThis.crypto.subtle;

function pem(label, der) {
  const base64 = Buffer.from(der).toString("base64").replace(/(.{64})/g, "$1\n").trim();
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}

/** A fresh key and a self-signed certificate valid for `years` (ten by default). */
export async function createSelfSignedIdentity({ commonName = "Strongroom local seal", years = 10, now = new Date() } = {}) {
  const keys = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  // A positive serial in minimal DER: the first byte is 0x40..0x7f (never zero, whose leading 0x00
  // before a byte under 0x80 is a non-minimal integer that NSS, and so poppler's pdfsig, rejects).
  certificate.serialNumber = new asn1js.Integer({ valueHex: globalThis.crypto.getRandomValues(new Uint8Array(16)).map((b, i) => (i === 0 ? (b & 0x3f) | 0x40 : b)) });
  const name = [
    new pkijs.AttributeTypeAndValue({ type: "2.5.4.3", value: new asn1js.Utf8String({ value: commonName }) }),
    new pkijs.AttributeTypeAndValue({ type: "2.5.4.10", value: new asn1js.Utf8String({ value: "Strongroom (development)" }) }),
  ];
  certificate.subject.typesAndValues = name;
  certificate.issuer.typesAndValues = name;
  certificate.notBefore.value = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + years);
  certificate.notAfter.value = notAfter;
  // digitalSignature + nonRepudiation: what a document-signing certificate carries.
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 });
  certificate.extensions = [
    new pkijs.Extension({ extnID: "2.5.29.15", critical: true, extnValue: keyUsage.toBER(false), parsedValue: keyUsage }),
  ];
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey);
  await certificate.sign(keys.privateKey, "SHA-256");
  const pkcs8 = await subtle.exportKey("pkcs8", keys.privateKey);
  return {
    key: pem("PRIVATE KEY", pkcs8),
    cert: pem("CERTIFICATE", certificate.toSchema(true).toBER(false)),
  };
}

/** One line per variable, as .dev.vars wants it (newlines escaped inside double quotes). */
export function devVarsLines(identity) {
  const line = (name, value) => `${name}="${value.trim().replace(/\n/g, "\\n")}"`;
  return [line("SIGNING_KEY", identity.key), line("SIGNING_CERT", identity.cert)].join("\n");
}
