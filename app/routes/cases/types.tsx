import { Form, Link, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { parseFieldLines } from "~/features/cases/cases.schema";
import { createCaseType, listCaseTypes } from "~/features/cases/cases.server";
import { listWorkflows } from "~/features/workflows/workflows.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/types";

export const meta: Route.MetaFunction = () => titleMeta("Case types");

/** /cases/types (Business): the member's case types and a new one (fields, the case file's folders, a default workflow). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    const [types, workflows] = await Promise.all([listCaseTypes(ctx, user.id), listWorkflows(ctx, user.id)]);
    return { types, workflows: workflows.map((workflow) => ({ id: workflow.id, name: workflow.name })) };
  });
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    const created = await createCaseType(serviceContextFor(context), user.id, {
      name: String(form.get("name") ?? ""),
      description: String(form.get("description") ?? ""),
      fields: parseFieldLines(String(form.get("fields") ?? "")),
      folders: String(form.get("folders") ?? "")
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
      defaultWorkflowId: String(form.get("defaultWorkflowId") ?? "") || null,
    });
    return redirectWithNotice(context, "/cases/types", { type: "success", message: `The case type “${created.name}” is ready.` });
  });
}

const TYPE_LABELS: Record<string, string> = { text: "text", number: "number", date: "date", select: "choice" };

export default function CaseTypesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { types, workflows } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div className="space-y-1">
        <Link to="/cases" className="text-sm text-brand-700 underline-offset-2 hover:underline">
          ← Cases
        </Link>
        <h1 className="text-2xl font-semibold text-slate-900">Case types</h1>
        <p className="text-sm text-slate-700">A case type says what a case of that kind carries: its fields, the folders its case file starts with, and a workflow to run on its documents.</p>
      </div>
      {types.length > 0 ? (
        <ul className="space-y-3" aria-label="Your case types">
          {types.map((type) => (
            <li key={type.id} className="rounded-md border border-slate-200 bg-white p-4 text-sm" data-testid="case-type">
              <p className="font-semibold text-slate-900">{type.name}</p>
              {type.description ? <p className="text-slate-700">{type.description}</p> : null}
              <p className="text-slate-700">Fields: {type.fields.length ? type.fields.map((field) => `${field.label} (${TYPE_LABELS[field.type]}${field.required ? ", required" : ""})`).join(", ") : "none"}</p>
              <p className="text-slate-700">Case file folders: {type.folders.length ? type.folders.join(", ") : "none"}</p>
              <p className="text-slate-700">Default workflow: {workflows.find((workflow) => workflow.id === type.defaultWorkflowId)?.name ?? "none"}</p>
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="new-type" className="space-y-3">
        <h2 id="new-type" className="text-lg font-semibold text-slate-900">
          New case type
        </h2>
        {actionData && "message" in actionData ? <Alert variant="error">{actionData.message}</Alert> : null}
        <Form method="post" className="space-y-4 rounded-md border border-slate-300 bg-white p-4">
          <CsrfInput />
          <Input label="Case type name" name="name" required maxLength={100} placeholder="Contract" />
          <Input label="Description" name="description" maxLength={500} />
          <Textarea
            label="Fields"
            name="fields"
            rows={4}
            maxLength={4000}
            description="One per line: a label, then its kind after a colon (text, number, date, or choice with the options after another colon, separated by |). A * after the label makes it required."
            placeholder={"Counterparty*\nValue: number\nRenewal date: date\nRisk: choice: Low | Medium | High"}
          />
          <Textarea label="Case file folders" name="folders" rows={3} maxLength={2000} description="One folder name per line; every new case file starts with them." placeholder={"Drafts\nSigned\nCorrespondence"} />
          <label className="block text-sm text-slate-900">
            Default workflow
            <select name="defaultWorkflowId" className={nativeSelectClassName} defaultValue="">
              <option value="">None</option>
              {workflows.map((workflow) => (
                <option key={workflow.id} value={workflow.id}>
                  {workflow.name}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" isLoading={busy}>
            Create case type
          </Button>
        </Form>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
