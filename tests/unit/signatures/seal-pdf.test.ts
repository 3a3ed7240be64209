// @vitest-environment node
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sealPdf, winAnsi } from "~/features/signatures/seal-pdf.server";
import { contractPdf, DRAWN_SIGNATURE, field, signaturePng } from "~tests/shared/signature-fixtures";
import { pdfimages, pdfsig, testIdentity } from "./seal-helpers";

describe("sealing a completed envelope", () => {
  it("draws the values, appends the certificate and signs the file so that poppler's pdfsig finds it valid", async () => {
    const identity = await testIdentity();
    const sign = field({ type: "signature", roleId: "a", page: 1 });
    const typed = field({ type: "signature", roleId: "b", page: 1, x: 0.55 });
    const date = field({ type: "date", roleId: "a", page: 1, y: 0.9, h: 0.035 });
    const agree = field({ type: "checkbox", roleId: "b", page: 0, w: 0.03, h: 0.022 });
    const initials = field({ type: "initials", roleId: "b", page: 0, x: 0.7, w: 0.1, h: 0.05 });
    const picture = await signaturePng();
    const sealed = await sealPdf({
      original: await contractPdf(2),
      envelopeId: "env_1",
      title: "Share purchase agreement",
      sender: { name: "Ada Lovelace", email: "ada@example.com" },
      fields: [sign, typed, date, agree, initials],
      values: { [sign.id]: DRAWN_SIGNATURE, [typed.id]: "typed:Grace Hopper", [date.id]: "2026-11-27", [agree.id]: "true", [initials.id]: `image:${"a".repeat(64)}` },
      images: { [initials.id]: picture },
      recipients: [
        { name: "Ada Lovelace", email: "ada@example.com", kind: "Signer", verification: "E-mail link", ip: "203.0.113.7", userAgent: "Test", sentAt: new Date(), openedAt: new Date(), signedAt: new Date() },
        { name: "Grace Hopper", email: "grace@example.com", kind: "Signer", verification: "E-mail link and a 6-digit code", ip: "198.51.100.2", userAgent: "Test", sentAt: new Date(), openedAt: new Date(), signedAt: new Date() },
      ],
      events: [{ at: new Date(), who: "Ada Lovelace", what: "Sent for signature", ip: null }],
      completedAt: new Date(),
      verifyUrl: "http://localhost/signatures/verify",
      identity,
    });
    expect(sealed.pageCount).toBe(2);
    expect(sealed.originalSha256).toMatch(/^[0-9a-f]{64}$/);
    if (process.env.KEEP_SEALED) writeFileSync(process.env.KEEP_SEALED, sealed.bytes);
    const report = pdfsig(sealed.bytes);
    expect(report).toContain("Signature Validation: Signature is Valid.");
    expect(report).toContain("Total document signed");
    expect(report).toContain("Strongroom test seal");
    expect(report).toContain("ETSI.CAdES.detached");
    // The uploaded picture of the initials is on the first page, with its transparency as a soft mask.
    const images = pdfimages(sealed.bytes);
    expect(images).toEqual([{ page: 1, type: "image", width: 120, height: 40 }, { page: 1, type: "smask", width: 120, height: 40 }]);
  });

  it("keeps accented names and replaces letters the standard fonts cannot write", () => {
    expect(winAnsi("Zoë Šimić")).toBe("Zoë Šimic");
    expect(winAnsi("李雷")).toBe("??");
  });
});
