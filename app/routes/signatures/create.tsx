import { Link } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { EnvelopeEditor } from "~/features/signatures/components/envelope-editor";
import { PdfList } from "~/features/signatures/components/pdf-list";
import { prepareSending } from "~/features/signatures/envelopes.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/create";

export const meta: Route.MetaFunction = () => titleMeta("Send for signature");

/**
 * /signatures/create?fileId= (spec §2 "Signatures: create"): choose a PDF, then the recipients and
 * their fields. Inside a room (/dataroom/{id}/signatures/create) only the room's PDFs are offered
 * and the envelope belongs to the room.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const url = new URL(request.url);
  const dataroomId = (params as { id?: string }).id ?? null;
  return runLoader(() => prepareSending(serviceContextFor(context), user.id, { fileId: url.searchParams.get("fileId"), templateId: url.searchParams.get("templateId"), dataroomId }));
}

export default function CreateEnvelopePage({ loaderData }: Route.ComponentProps) {
  const { pdfs, chosen, dataroom, template } = loaderData;
  const base = dataroom ? `/dataroom/${dataroom.id}/signatures/create` : "/signatures/create";
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Send for signature</h1>
        <p className="text-sm text-slate-700">
          {dataroom ? `From a PDF of the data room “${dataroom.name}”. ` : ""}Everyone signs on their own link, without an account. When the last person has signed, the PDF is sealed with a certificate of completion and everyone gets it by e-mail.
        </p>
      </div>
      {chosen ? (
        <>
          <p className="text-sm text-slate-700">
            {template ? (
              <>
                Template: <strong>{template.name}</strong> ·{" "}
              </>
            ) : null}
            Document: <strong>{chosen.name}</strong> ({chosen.pageCount} page{chosen.pageCount === 1 ? "" : "s"}) ·{" "}
            <Link to={base} className="font-medium text-brand-700 underline">
              Choose another
            </Link>
          </p>
          <EnvelopeEditor key={chosen.id} file={chosen} template={template} dataroomId={dataroom?.id ?? null} initialTitle={template?.name ?? chosen.name.replace(/\.pdf$/i, "")} />
        </>
      ) : pdfs.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-700">
          {dataroom ? "This data room has no PDF yet. Upload the document to sign to the room first." : "You have no PDF yet. Upload the document to sign to your files first."}
        </p>
      ) : (
        <section className="space-y-2" aria-labelledby="choose-heading">
          <h2 id="choose-heading" className="text-lg font-semibold text-slate-900">
            Choose the PDF to sign
          </h2>
          <PdfList
            pdfs={pdfs}
            action={(pdf) => (
              <Link to={`${base}?fileId=${pdf.id}`} className={buttonClassName({ size: "sm", variant: "secondary" })} aria-label={`Prepare ${pdf.name}`}>
                Prepare
              </Link>
            )}
          />
        </section>
      )}
    </div>
  );
}
