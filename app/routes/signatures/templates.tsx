import { Link, redirect, useActionData } from "react-router";
import { IntentButton } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { buttonClassName } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { PdfList } from "~/features/signatures/components/pdf-list";
import { prepareSending } from "~/features/signatures/envelopes.server";
import { createTemplate, listTemplates } from "~/features/signatures/templates.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/templates";

export const meta: Route.MetaFunction = () => titleMeta("Signature templates");

/** /signatures/templates: the member's templates, and a new one from any PDF they may send. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const [templates, setup] = await Promise.all([listTemplates(ctx, user.id), prepareSending(ctx, user.id, {})]);
    return { templates, pdfs: setup.pdfs };
  });
}

/** A new template from a PDF: one role to start with; the designer opens next. */
export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const result = await runFormAction(async () => {
    const name = String(form.get("name") ?? "").replace(/\.pdf$/i, "") || "Template";
    return createTemplate(serviceContextFor(context), user.id, { fileId: String(form.get("fileId") ?? ""), name, roles: [{ id: "signer-1", name: "Signer 1" }], fields: [] });
  });
  if ("id" in result) throw redirect(`/signatures/templates/${result.id}`);
  return result;
}

const at = (iso: string) => `${iso.replace("T", " ").slice(0, 16)} UTC`;

export default function TemplatesPage({ loaderData }: Route.ComponentProps) {
  const { templates, pdfs } = loaderData;
  const failure = useActionData<typeof action>();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm text-slate-600">
          <Link to="/signatures" className="underline">
            Signatures
          </Link>
        </p>
        <h1 className="text-2xl font-semibold text-slate-900">Signature templates</h1>
        <p className="max-w-3xl text-sm text-slate-700">A template is a PDF with roles (“Buyer”, “Seller”) and the fields each fills in. Design it once; each time you send it, you only say who takes each role.</p>
      </div>
      {failure && "message" in failure ? <Alert variant="error">{failure.message}</Alert> : null}
      {templates.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-700">No template yet. Start one from a PDF below.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {templates.map((template) => (
            <li key={template.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
              <div>
                <Link to={`/signatures/templates/${template.id}`} className="font-medium text-brand-700 underline">
                  {template.name}
                </Link>
                <p className="text-slate-700">
                  {template.documentName} · {template.roles.map((role) => role.name).join(", ")} · {template.fieldCount} field{template.fieldCount === 1 ? "" : "s"} · changed {at(template.updatedAt)}
                </p>
              </div>
              <Link to={`/signatures/create?templateId=${template.id}`} className={buttonClassName({ size: "sm", variant: "secondary" })} aria-label={`Send ${template.name}`}>
                Send
              </Link>
            </li>
          ))}
        </ul>
      )}
      <section className="space-y-2" aria-labelledby="new-template-heading">
        <h2 id="new-template-heading" className="text-lg font-semibold text-slate-900">
          New template from a PDF
        </h2>
        {pdfs.length === 0 ? (
          <p className="text-sm text-slate-700">Upload a PDF to your files first.</p>
        ) : (
          <PdfList pdfs={pdfs} action={(pdf) => <IntentButton intent="create" fields={{ fileId: pdf.id, name: pdf.name }} label="Make a template" ariaLabel={`Make a template from ${pdf.name}`} variant="secondary" />} />
        )}
      </section>
    </div>
  );
}
