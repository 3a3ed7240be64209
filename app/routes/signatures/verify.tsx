import { lazy, Suspense } from "react";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/verify";

// The tool (the upload and the report) loads after the page: the first load stays small (G5).
const VerifyTool = lazy(() => import("~/features/signatures/components/verify-tool").then((module) => ({ default: module.VerifyTool })));

export const meta: Route.MetaFunction = () => titleMeta("Verify a signed PDF");

/**
 * /signatures/verify (issue 38, spec §2 "Signatures: verify"): anyone checks a signed PDF. The
 * file is sent once to be checked and is not kept; the answer says, for each signature, whether
 * the signed bytes are intact, who signed and when, whether it is this instance's seal, and
 * whether anything was added after the last signature.
 */
export default function VerifyPage() {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">Verify a signed PDF</h1>
        <p className="text-sm text-slate-700">
          Check any PDF's digital signatures: documents sealed by Strongroom after everyone signed, and PDFs signed elsewhere. The file is checked and then forgotten: nothing is kept.
        </p>
      </div>
      <Suspense fallback={<p className="text-sm text-slate-700">Loading…</p>}>
        <VerifyTool />
      </Suspense>
    </div>
  );
}
