import { Alert } from "~/components/ui/alert";
import type { VerifyReport } from "../verify-types";

const day = (iso: string) => `${iso.replace("T", " ").slice(0, 16)} UTC`;

/** What the verify page found in a file, in words (issue 38). */
export function VerifyReportView({ report, fileName }: { report: VerifyReport; fileName: string }) {
  if (report.kind === "not-pdf") {
    return (
      <Alert variant="warning" title="This is not a PDF">
        “{fileName}” is not a PDF, so it has no PDF signatures to check. Choose the signed PDF itself.
      </Alert>
    );
  }
  if (report.kind === "unsigned") {
    return (
      <div className="space-y-3">
        <Alert variant="warning" title="No digital signatures">
          “{fileName}” is a PDF without any digital signature. Drawn or typed signatures on its pages alone prove nothing about who signed or whether it changed.
        </Alert>
        <p className="text-sm break-all text-slate-700">SHA-256: {report.sha256}</p>
      </div>
    );
  }
  const headline = !report.allValid
    ? { variant: "error" as const, title: "Changed after signing", text: "At least one signature no longer matches the file: the signed bytes were changed, or a signature is not genuine. Do not rely on this copy." }
    : report.modifiedAfterSigning
      ? { variant: "warning" as const, title: "Modified after signing", text: `Every signature is intact, but ${report.bytesAfterLastSignature.toLocaleString("en")} bytes were added after the last one (an incremental update). What was added is not covered by any signature.` }
      : { variant: "success" as const, title: "Signed and unchanged", text: "Every signature is intact and covers the whole file: nothing was changed or added since." };
  return (
    <div className="space-y-4">
      <Alert variant={headline.variant} title={headline.title}>
        {headline.text}
      </Alert>
      {report.envelope ? (
        <p className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
          This is the sealed copy of “{report.envelope.title}”{report.envelope.completedAt ? `, completed ${day(report.envelope.completedAt)}` : ""}, exactly as this instance made it.
        </p>
      ) : null}
      <ol className="space-y-3">
        {report.signatures.map((signature, index) => (
          <li key={index} className="space-y-2 rounded-md border border-slate-200 p-4 text-sm">
            <p className="font-semibold text-slate-900">
              Signature {index + 1}: {signature.ours ? "this Strongroom instance's seal" : "an outside certificate"}
            </p>
            <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[12rem_1fr]">
              <dt className="text-slate-600">Signed bytes</dt>
              <dd className={signature.intact ? "text-emerald-800" : "font-medium text-red-800"}>{signature.intact ? "Intact" : "Changed after signing"}</dd>
              <dt className="text-slate-600">Signature</dt>
              <dd className={signature.signatureValid ? "text-emerald-800" : "font-medium text-red-800"}>{signature.signatureValid ? "Matches its certificate" : (signature.problem ?? "Does not match")}</dd>
              {signature.signer ? (
                <>
                  <dt className="text-slate-600">Signed by</dt>
                  <dd className="break-words">{signature.signer.subject}</dd>
                  <dt className="text-slate-600">Issued by</dt>
                  <dd className="break-words">{signature.signer.issuer}</dd>
                  <dt className="text-slate-600">Certificate valid</dt>
                  <dd>
                    {day(signature.signer.notBefore)} to {day(signature.signer.notAfter)}
                  </dd>
                </>
              ) : null}
              <dt className="text-slate-600">Signed at</dt>
              <dd>{signature.signedAt ? `${day(signature.signedAt)}${signature.timestamped ? " (with a timestamp from a timestamp authority)" : " (as the signer's clock said)"}` : "Not stated"}</dd>
              <dt className="text-slate-600">Covers</dt>
              <dd>
                {signature.coversBytes.toLocaleString("en")} of {report.size.toLocaleString("en")} bytes
              </dd>
            </dl>
            {!signature.ours ? <p className="text-slate-600">This page checks the signature itself, not whether the outside certificate is trusted or revoked.</p> : null}
          </li>
        ))}
      </ol>
      <p className="text-sm break-all text-slate-700">SHA-256 of this file: {report.sha256}</p>
    </div>
  );
}
