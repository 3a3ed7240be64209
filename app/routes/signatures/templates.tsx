import { Link, redirect, useActionData } from "react-router";
import { IntentButton } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { buttonClassName } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { PdfList } from "~/features/signatures/components/pdf-list";
import { prepareSending } from "~/features/signatures/envelopes.server";
import { createTemplate, deleteTemplate, listTemplates, listTrashedTemplates, restoreTemplate } from "~/features/signatures/templates.server";
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
    const [templates, setup, trashed] = await Promise.all([listTemplates(ctx, user.id), prepareSending(ctx, user.id, {}), listTrashedTemplates(ctx, user.id)]);
    return { templates, pdfs: setup.pdfs, trashed };
  });
}

/** A new template from a PDF (one role to start with; the designer opens next), or one to the trash and back. */
export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  if (intent === "delete" || intent === "restore") {
    return runFormAction(
      async () => {
        const id = String(form.get("templateId") ?? "");
        if (intent === "delete") await deleteTemplate(serviceContextFor(context), user.id, id);
        else await restoreTemplate(serviceContextFor(context), user.id, id);
        return { ok: true as const, intent };
      },
      { intent },
    );
  }
  const result = await runFormAction(async () => {
    const name = String(form.get("name") ?? "").replace(/\.pdf$/i, "") || "Template";
    return createTemplate(serviceContextFor(context), user.id, { fileId: String(form.get("fileId") ?? ""), name, roles: [{ id: "signer-1", name: "Signer 1" }], fields: [] });
  });
  if ("id" in result) throw redirect(`/signatures/templates/${result.id}`);
  return result;
}

const at = (iso: string) => `${iso.replace("T", " ").slice(0, 16)} UTC`;

export default function TemplatesPage({ loaderData }: Route.ComponentProps) {
  const { templates, pdfs, trashed } = loaderData;
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
              <div className="flex gap-2">
                <Link to={`/signatures/create?templateId=${template.id}`} className={buttonClassName({ size: "sm", variant: "secondary" })} aria-label={`Send ${template.name}`}>
                  Send
                </Link>
                <IntentButton intent="delete" fields={{ templateId: template.id }} label="Delete" ariaLabel={`Delete ${template.name} (to the trash for 30 days)`} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {trashed.length ? (
        <section className="space-y-2" aria-labelledby="trash-heading">
          <h2 id="trash-heading" className="text-lg font-semibold text-slate-900">
            In the trash
          </h2>
          <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
            {trashed.map((template) => (
              <li key={template.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm">
                <span>
                  {template.name} <span className="text-slate-600">· deleted for good in {template.daysLeft} day{template.daysLeft === 1 ? "" : "s"}</span>
                </span>
                <IntentButton intent="restore" fields={{ templateId: template.id }} label="Restore" ariaLabel={`Restore ${template.name}`} variant="secondary" />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
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
