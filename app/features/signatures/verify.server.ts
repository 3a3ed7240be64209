import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { VERIFY_PDF_MAX_BYTES } from "./signatures.constants";
import { findEnvelopeBySealedSha } from "./signatures.queries.server";
import { signingIdentity } from "./signing-identity.server";
import { verifyPdf } from "./verify-pdf.server";
import type { VerifyReport } from "./verify-types";

/**
 * POST /api/signatures/verify (public, issue 38): any PDF up to 25 MB in the body, checked and
 * forgotten (nothing is stored). Limited per IP address like the other public forms (S11).
 */
export async function verifyUploadedPdf(ctx: ServiceContext, request: Request): Promise<VerifyReport> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > VERIFY_PDF_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "This file is larger than the 25 MB the verify page checks.");
  await consumeAttempt(ctx.env, "signature-verify", { ip: ctx.client.ip ?? "unknown" }, undefined, (minutes) => `Too many files checked from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > VERIFY_PDF_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "This file is larger than the 25 MB the verify page checks.");
  if (bytes.byteLength === 0) throw new AppError("VALIDATION_ERROR", "Choose a PDF to check.");
  const identity = await signingIdentity(ctx.env).catch(() => null);
  const result = await verifyPdf(bytes, identity?.fingerprint ?? null);
  let envelope: VerifyReport["envelope"] = null;
  if (result.kind === "signed" && result.signatures.some((signature) => signature.ours)) {
    const found = await findEnvelopeBySealedSha(ctx.db, result.sha256);
    if (found) envelope = { title: found.title, completedAt: found.completedAt?.toISOString() ?? null };
  }
  ctx.logger.info("signatures.verified", { kind: result.kind, size: bytes.byteLength, found: envelope !== null });
  return { ...result, envelope, ourCertificate: identity ? { fingerprint: identity.fingerprint } : null };
}
