import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sealPdf } from "~/features/signatures/seal-pdf.server";
import { signingIdentity, type SigningIdentity } from "~/features/signatures/signing-identity.server";
import { contractPdf, DRAWN_SIGNATURE, field } from "~tests/shared/signature-fixtures";
import { createSelfSignedIdentity } from "../../../scripts/signing-identity.mjs";

export async function testIdentity(commonName = "Strongroom test seal"): Promise<SigningIdentity> {
  const { key, cert } = await createSelfSignedIdentity({ commonName });
  return signingIdentity({ SIGNING_KEY: key, SIGNING_CERT: cert });
}

/** Poppler's verdict on a file (its stdout, also when it exits non-zero). */
export function pdfsig(bytes: Uint8Array): string {
  const folder = mkdtempSync(path.join(tmpdir(), "seal-"));
  const file = path.join(folder, "sealed.pdf");
  writeFileSync(file, bytes);
  try {
    return execFileSync("pdfsig", [file], { encoding: "utf8" });
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/** The images poppler's pdfimages finds in a file: page, kind (image or its soft mask) and size. */
export function pdfimages(bytes: Uint8Array): { page: number; type: string; width: number; height: number }[] {
  const folder = mkdtempSync(path.join(tmpdir(), "images-"));
  const file = path.join(folder, "sealed.pdf");
  writeFileSync(file, bytes);
  const lines = execFileSync("pdfimages", ["-list", file], { encoding: "utf8" }).trim().split("\n").slice(2);
  return lines.map((line) => {
    const [page, , type, width, height] = line.trim().split(/\s+/);
    return { page: Number(page), type: type!, width: Number(width), height: Number(height) };
  });
}

/** A two-page contract signed by one drawn signature, sealed. */
export async function sealedContract(identity: SigningIdentity) {
  const sign = field({ type: "signature", roleId: "a", page: 1 });
  return sealPdf({
    original: await contractPdf(2),
    envelopeId: "env_test",
    title: "Share purchase agreement",
    sender: { name: "Ada Lovelace", email: "ada@example.com" },
    fields: [sign],
    values: { [sign.id]: DRAWN_SIGNATURE },
    recipients: [{ name: "Ada Lovelace", email: "ada@example.com", kind: "Signer", verification: "E-mail link", ip: "203.0.113.7", userAgent: "Test", sentAt: new Date(), openedAt: new Date(), signedAt: new Date() }],
    events: [{ at: new Date(), who: "Ada Lovelace", what: "Signed", ip: "203.0.113.7" }],
    completedAt: new Date(),
    verifyUrl: "http://localhost/signatures/verify",
    identity,
  });
}
