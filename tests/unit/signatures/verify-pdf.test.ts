// @vitest-environment node
import { PDF } from "@libpdf/core";
import { describe, expect, it } from "vitest";
import { verifyPdf } from "~/features/signatures/verify-pdf.server";
import { contractPdf } from "~tests/shared/signature-fixtures";
import { pdfsig, sealedContract, testIdentity } from "./seal-helpers";

describe("verifying a PDF's signatures", () => {
  it("finds our intact seal over the whole file, as pdfsig does", async () => {
    const identity = await testIdentity("Strongroom test seal");
    const { bytes } = await sealedContract(identity);
    const result = await verifyPdf(bytes, identity.fingerprint);
    expect(result.kind).toBe("signed");
    if (result.kind !== "signed") return;
    expect(result.allValid).toBe(true);
    expect(result.modifiedAfterSigning).toBe(false);
    expect(result.signatures).toHaveLength(1);
    expect(result.signatures[0]).toMatchObject({ intact: true, signatureValid: true, ours: true, problem: null, subFilter: "ETSI.CAdES.detached" });
    expect(result.signatures[0]!.signer?.commonName).toBe("Strongroom test seal");
    expect(pdfsig(bytes)).toContain("Total document signed");
  });

  it("reports a byte changed after sealing, as pdfsig does", async () => {
    const identity = await testIdentity();
    const { bytes } = await sealedContract(identity);
    const tampered = new Uint8Array(bytes);
    // A byte in the binary comment under the header: harmless to readers, fatal to the seal.
    tampered[11] = tampered[11]! ^ 1;
    const result = await verifyPdf(tampered, identity.fingerprint);
    expect(result.kind === "signed" && result.signatures[0]).toMatchObject({ intact: false, signatureValid: false, problem: "The signed bytes were changed after signing." });
    expect(result.kind === "signed" && result.allValid).toBe(false);
    expect(pdfsig(tampered)).toContain("Digest Mismatch");
  });

  it("reports an incremental update appended after sealing as modified after signing, the seal itself still intact", async () => {
    const identity = await testIdentity();
    const { bytes } = await sealedContract(identity);
    const pdf = await PDF.load(bytes);
    pdf.getPage(0)!.drawText("Added later", { x: 72, y: 100 });
    const appended = await pdf.save({ incremental: true });
    expect(appended.length).toBeGreaterThan(bytes.length);
    const result = await verifyPdf(appended, identity.fingerprint);
    expect(result.kind === "signed" && result.signatures[0]).toMatchObject({ intact: true, signatureValid: true });
    expect(result.kind === "signed" && result.modifiedAfterSigning).toBe(true);
    expect(result.kind === "signed" && result.bytesAfterLastSignature).toBe(appended.length - bytes.length);
    expect(pdfsig(appended)).not.toContain("Total document signed");
  });

  it("names a signature made with another certificate as an outside one, with its subject and validity", async () => {
    const ours = await testIdentity("Strongroom test seal");
    const outside = await testIdentity("Acme Notary Services");
    const pdf = await PDF.load(await contractPdf(1));
    const { bytes } = await pdf.sign({ signer: outside.signer, reason: "Approved" });
    const result = await verifyPdf(bytes, ours.fingerprint);
    expect(result.kind === "signed" && result.signatures[0]).toMatchObject({ ours: false, intact: true, signatureValid: true });
    const signer = result.kind === "signed" ? result.signatures[0]!.signer : null;
    expect(signer?.commonName).toBe("Acme Notary Services");
    expect(new Date(signer!.notAfter).getTime()).toBeGreaterThan(Date.now());
  });

  it("keeps both signatures valid when a second one is appended after the seal", async () => {
    const identity = await testIdentity();
    const counter = await testIdentity("Counter-signer");
    const { bytes } = await sealedContract(identity);
    const { bytes: twice } = await (await PDF.load(bytes)).sign({ signer: counter.signer, reason: "Countersigned" });
    const result = await verifyPdf(twice, identity.fingerprint);
    expect(result.kind === "signed" && result.signatures.map((signature) => [signature.ours, signature.signatureValid])).toEqual([
      [true, true],
      [false, true],
    ]);
    expect(result.kind === "signed" && result.modifiedAfterSigning).toBe(false);
  });

  it("answers a file that is not a PDF, and a PDF without signatures, plainly", async () => {
    expect(await verifyPdf(new TextEncoder().encode("just some text"), null)).toEqual({ kind: "not-pdf" });
    const unsigned = await verifyPdf(await contractPdf(1), null);
    expect(unsigned.kind).toBe("unsigned");
  });
});
