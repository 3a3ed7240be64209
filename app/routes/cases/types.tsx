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
import { fieldLines, parseFieldLines } from "~/features/cases/cases.schema";
import { createCaseType, listCaseTypes, updateCaseType, type CaseTypeView } from "~/features/cases/cases.server";
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
    // A type's default workflow is one of the member's own (not a data room's someone else built).
    return { types, workflows: workflows.filter((workflow) => workflow.mine).map((workflow) => ({ id: workflow.id, name: workflow.name })) };
  });
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "create");
  const type = {
    name: String(form.get("name") ?? ""),
    description: String(form.get("description") ?? ""),
    fields: parseFieldLines(String(form.get("fields") ?? "")),
    folders: String(form.get("folders") ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean),
    defaultWorkflowId: String(form.get("defaultWorkflowId") ?? "") || null,
  };
  return runFormAction(
    async () => {
      const ctx = serviceContextFor(context);
      if (intent === "update") {
        const changed = await updateCaseType(ctx, user.id, form.get("typeId"), type);
        return redirectWithNotice(context, "/cases/types", { type: "success", message: `Saved “${changed.name}”. Cases already open keep their values.` });
      }
      const created = await createCaseType(ctx, user.id, type);
      return redirectWithNotice(context, "/cases/types", { type: "success", message: `The case type “${created.name}” is ready.` });
    },
    { intent: intent === "update" ? `update:${String(form.get("typeId") ?? "")}` : "create" },
  );
}

const TYPE_LABELS: Record<string, string> = { text: "text", number: "number", date: "date", select: "choice" };

export default function CaseTypesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { types, workflows } = loaderData;
  const busy = useNavigation().state === "submitting";
  // Which form a refusal belongs to: the new type's, or one type's edit (kept open).
  const failedIntent = actionData && "intent" in actionData ? String(actionData.intent) : null;
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
              <details className="mt-2" open={failedIntent === `update:${type.id}`}>
                <summary className="cursor-pointer font-medium text-brand-700">Edit {type.name}</summary>
                <p className="mt-2 text-slate-700">Cases already open keep their values. A field renamed or removed shows nothing in them; new folders are for case files made from now on.</p>
                {failedIntent === `update:${type.id}` && actionData && "message" in actionData ? <Alert variant="error">{actionData.message}</Alert> : null}
                <CaseTypeForm intent="update" type={type} workflows={workflows} busy={busy} submit="Save the case type" />
              </details>
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="new-type" className="space-y-3">
        <h2 id="new-type" className="text-lg font-semibold text-slate-900">
          New case type
        </h2>
        {failedIntent === "create" && actionData && "message" in actionData ? <Alert variant="error">{actionData.message}</Alert> : null}
        <CaseTypeForm intent="create" type={null} workflows={workflows} busy={busy} submit="Create case type" />
      </section>
    </div>
  );
}

/** A case type's form: a new one, or one of the member's to change (the whole type again, its fields as the lines they were written in). */
function CaseTypeForm({ intent, type, workflows, busy, submit }: { intent: "create" | "update"; type: CaseTypeView | null; workflows: { id: string; name: string }[]; busy: boolean; submit: string }) {
  return (
    <Form method="post" className="space-y-4 rounded-md border border-slate-300 bg-white p-4">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      {type ? <input type="hidden" name="typeId" value={type.id} /> : null}
      <Input label="Case type name" name="name" required maxLength={100} placeholder="Contract" defaultValue={type?.name} />
      <Input label="Description" name="description" maxLength={500} defaultValue={type?.description} />
      <Textarea
        label="Fields"
        name="fields"
        rows={4}
        maxLength={4000}
        description="One per line: a label, then its kind after a colon (text, number, date, or choice with the options after another colon, separated by |). A * after the label makes it required."
        placeholder={"Counterparty*\nValue: number\nRenewal date: date\nRisk: choice: Low | Medium | High"}
        defaultValue={type ? fieldLines(type.fields) : undefined}
      />
      <Textarea
        label="Case file folders"
        name="folders"
        rows={3}
        maxLength={2000}
        description="One folder name per line; every new case file starts with them."
        placeholder={"Drafts\nSigned\nCorrespondence"}
        defaultValue={type?.folders.join("\n")}
      />
      <label className="block text-sm text-slate-900">
        Default workflow
        <select name="defaultWorkflowId" className={nativeSelectClassName} defaultValue={type?.defaultWorkflowId ?? ""}>
          <option value="">None</option>
          {workflows.map((workflow) => (
            <option key={workflow.id} value={workflow.id}>
              {workflow.name}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" isLoading={busy}>
        {submit}
      </Button>
    </Form>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
