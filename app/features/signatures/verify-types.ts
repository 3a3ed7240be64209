/** What the verify page answers (issue 38): shared by the server and the page (types only). */

export type VerifiedSignature = {
  subFilter: string | null;
  /** The digest of the signed bytes matches what the signature holds. */
  intact: boolean;
  /** The CMS signature verifies against the signer's certificate (meaningful when intact). */
  signatureValid: boolean;
  signer: { commonName: string; subject: string; issuer: string; notBefore: string; notAfter: string; fingerprint: string } | null;
  /** The signing time claimed in the signature (or its dictionary), ISO. */
  signedAt: string | null;
  /** Has an RFC 3161 timestamp token. */
  timestamped: boolean;
  /** Signed with this instance's certificate. */
  ours: boolean;
  /** Bytes of the file this signature covers (from the start). */
  coversBytes: number;
  problem: string | null;
};

export type PdfVerification =
  | { kind: "not-pdf" }
  | { kind: "unsigned"; size: number; sha256: string }
  | {
      kind: "signed";
      size: number;
      sha256: string;
      signatures: VerifiedSignature[];
      /** Bytes appended after the last signature (0 when the last signature covers the whole file). */
      bytesAfterLastSignature: number;
      modifiedAfterSigning: boolean;
      allValid: boolean;
    };

export type VerifyReport = PdfVerification & {
  /** For our own seals: the envelope this exact file came from (found by its SHA-256). */
  envelope: { title: string; completedAt: string | null } | null;
  /** This instance's seal certificate, to compare with what a signature names. */
  ourCertificate: { fingerprint: string } | null;
};

