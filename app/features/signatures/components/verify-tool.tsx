import { useState, type ChangeEvent } from "react";
import { Alert } from "~/components/ui/alert";
import { Spinner } from "~/components/ui/spinner";
import { readCsrfToken } from "~/lib/csrf-token";
import { VERIFY_PDF_MAX_BYTES } from "../signatures.constants";
import type { VerifyReport } from "../verify-types";
import { VerifyReportView } from "./verify-report";

type Checked = { fileName: string; report: VerifyReport } | { fileName: string; error: string };

/**
 * /signatures/verify (issue 38, spec §2 "Signatures: verify"): anyone checks a signed PDF. The
 * file is sent once to be checked and is not kept; the answer says, for each signature, whether
 * the signed bytes are intact, who signed and when, whether it is this instance's seal, and
 * whether anything was added after the last signature.
 */
/** The verify page's tool (issue 38): choose a PDF, send it once, read the report. */
export function VerifyTool() {
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState<Checked | null>(null);

  async function check(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = "";
    if (!file) return;
    if (file.size > VERIFY_PDF_MAX_BYTES) {
      setChecked({ fileName: file.name, error: "This file is larger than the 25 MB this page checks." });
      return;
    }
    setBusy(true);
    setChecked(null);
    try {
      const response = await fetch("/api/signatures/verify", { method: "POST", headers: { "Content-Type": "application/pdf", "X-CSRF-TOKEN": readCsrfToken(), Accept: "application/json" }, body: file });
      const body = (await response.json().catch(() => null)) as { result?: VerifyReport; message?: string } | null;
      setChecked(response.ok && body?.result ? { fileName: file.name, report: body.result } : { fileName: file.name, error: body?.message ?? "The file could not be checked. Try again." });
    } catch {
      setChecked({ fileName: file.name, error: "The file could not be sent. Check your connection and try again." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6">
      <div className="rounded-lg border-2 border-dashed border-slate-300 p-6 text-center">
        <label htmlFor="verify-file" className="inline-flex cursor-pointer rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white focus-within:ring-2 focus-within:ring-indigo-500 hover:bg-slate-800">
          Choose a PDF to check
        </label>
        <input id="verify-file" type="file" accept="application/pdf,.pdf" className="sr-only" onChange={check} disabled={busy} />
        <p className="mt-2 text-xs text-slate-600">Up to 25 MB.</p>
      </div>
      <div aria-live="polite">
        {busy ? (
          <p className="flex items-center gap-2 text-sm text-slate-700">
            <Spinner /> Checking…
          </p>
        ) : null}
        {checked ? (
          <section className="space-y-3" aria-label="What the check found">
            <h2 className="text-lg font-semibold text-slate-900">{checked.fileName}</h2>
            {"report" in checked ? (
              <VerifyReportView report={checked.report} fileName={checked.fileName} />
            ) : (
              <Alert variant="error" title="Not checked">
                {checked.error}
              </Alert>
            )}
          </section>
        ) : null}
      </div>
    </div>
  );
}
