import { Form } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { buttonClassName } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { requireActor } from "~/features/auth/auth-guard.server";
import { FormPageHeader } from "~/features/forms/components/form-page-header";
import { fits, type MappingTarget } from "~/features/forms/form-mapping";
import { getMapFieldsPage, savePdfMapping } from "~/features/forms/form-pdf-mapping.server";
import type { FieldType } from "~/features/forms/form-fields";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/map-fields";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Map fields: ${loaderData.form.title}` : "Map fields");

/**
 * /forms/{id}/map-fields (spec: "AI field mapping"): the member picks a PDF made as a form, reviews
 * which question fills which of its fields (proposed offline by label likeness, or by Workers AI
 * where bound), and keeps the pairs; each submission can then fill a copy of that PDF.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const fileId = new URL(request.url).searchParams.get("fileId");
  return runLoader(() => getMapFieldsPage(serviceContextFor(context), actor.userId, params.id, fileId || null));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const actor = requireActor(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    const pairs: Record<string, string | null> = {};
    for (const [key, value] of form.entries()) if (key.startsWith("pair:") && typeof value === "string") pairs[key.slice(5)] = value || null;
    const fileId = String(form.get("fileId") ?? "") || null;
    await savePdfMapping(serviceContextFor(context), actor.userId, params.id, { fileId, pairs });
    return redirectWithNotice(context, `/forms/${params.id}/map-fields`, { type: "success", message: fileId ? "Pairs kept: each submission's page can now fill this PDF." : "The PDF is no longer mapped." });
  });
}

const TYPE_WORDS: Record<MappingTarget["type"], string> = { text: "text", checkbox: "checkbox", choice: "choice" };

export default function MapFieldsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { form, saved, pdfs, proposal, problem } = loaderData;
  const refused = actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null;
  return (
    <div className="max-w-4xl space-y-6">
      <FormPageHeader back={`/forms/${form.id}/edit`} backLabel={form.title} title="Map fields">
        <p className="text-sm text-slate-700">Which question fills which field of a PDF made as a form (with fillable fields). Review every pair: each submission can then fill a copy of the PDF.</p>
      </FormPageHeader>
      <Form method="get" className="flex flex-wrap items-end gap-3" data-testid="map-choose-pdf">
        <label className="text-sm font-medium text-slate-900">
          PDF with form fields
          <select name="fileId" defaultValue={proposal?.file.id ?? saved?.fileId ?? ""} className={nativeSelectClassName} required>
            <option value="">Choose a PDF…</option>
            {pdfs.map((pdf) => (
              <option key={pdf.id} value={pdf.id}>
                {pdf.spaceName}: {pdf.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClassName({ variant: "secondary" })}>
          Propose pairs
        </button>
      </Form>
      {pdfs.length === 0 ? <p className="text-sm text-slate-700">You have no PDFs yet: upload the PDF form to your files first.</p> : null}
      {problem ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      ) : null}
      {refused ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {refused}
        </p>
      ) : null}
      {proposal ? (
        <Form method="post" className="space-y-4" data-testid="map-pairs">
          <CsrfInput />
          <input type="hidden" name="fileId" value={proposal.file.id} />
          <p className="text-sm text-slate-700" data-testid="mapped-by">
            {proposal.mappedBy === "workers-ai"
              ? "Proposed by Workers AI. Check each pair."
              : `Proposed offline from how alike the labels are${proposal.fallbackReason ? ` (${proposal.fallbackReason})` : " (no AI model is connected here)"}. Check each pair.`}
          </p>
          <Table caption={`Fields of ${proposal.file.name} and the questions that fill them`}>
            <TableHead>
              <tr>
                <TableHeaderCell>Field of the PDF</TableHeaderCell>
                <TableHeaderCell>Filled with</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {proposal.targets.map((target, index) => {
                const chosen = proposal.pairs.find((pair) => pair.target === target.name)?.fieldId ?? "";
                const choices = proposal.questions.filter((question) => fits({ type: question.type as FieldType }, target));
                return (
                  <TableRow key={target.name}>
                    <TableCell>
                      <label htmlFor={`pair-${index}`} className="font-medium text-slate-900">
                        {target.label}
                      </label>
                      <span className="block text-xs text-slate-600">
                        {target.label !== target.name ? `${target.name}, ` : ""}
                        {TYPE_WORDS[target.type]}
                      </span>
                    </TableCell>
                    <TableCell>
                      <select id={`pair-${index}`} name={`pair:${target.name}`} defaultValue={chosen} className={nativeSelectClassName}>
                        <option value="">Not filled</option>
                        {choices.map((question) => (
                          <option key={question.id} value={question.id}>
                            {question.label || question.id}
                          </option>
                        ))}
                      </select>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          <div className="flex flex-wrap gap-3">
            <button type="submit" className={buttonClassName()}>
              Keep these pairs
            </button>
          </div>
        </Form>
      ) : null}
      {saved ? (
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="fileId" value="" />
          <button type="submit" className={buttonClassName({ variant: "ghost", size: "sm" })}>
            Stop filling a PDF
          </button>
        </Form>
      ) : null}
    </div>
  );
}
