import { data, redirect } from "react-router";
import { FormRenderer, type RendererFailure } from "~/features/forms/components/form-renderer";
import { openPublicForm, submitForm } from "~/features/forms/form-submissions.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/view";

const ENDED = {
  missing: { title: "Form not found", text: "This form does not exist. Check the address you were given." },
  closed: { title: "Form closed", text: "This form is closed: it takes no more answers." },
  "past-closing": { title: "Form closed", text: "This form stopped taking answers at its closing time." },
  full: { title: "Form closed", text: "This form has all the answers it takes." },
} as const;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const opening = loaderData?.opening;
  if (!opening) return titleMeta("Form");
  if (opening.state === "open") return titleMeta(opening.form.title);
  return titleMeta(ENDED[opening.state === "missing" ? "missing" : opening.reason].title);
};

// Answers are personal: never cached by a browser or a shared cache.
export const headers = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "same-origin" });

/** /forms/{id}/view (spec §2 "public form view"): anyone with the address, no account. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const opening = await runLoader(() => openPublicForm(serviceContextFor(context), params.id, { countView: true }));
  // Hidden fields are filled from the address (?source=newsletter): read on the server, so the first render matches.
  const search = new URL(request.url).search.slice(0, 2_000);
  return data({ opening, search }, { status: opening.state === "missing" ? 404 : opening.state === "closed" ? 410 : 200 });
}

/** A submission: posted as a plain form (so it works without JavaScript). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const formData = await request.formData();
  return runFormAction(async () => {
    const result = await submitForm(serviceContextFor(context), params.id, { formData });
    if (!result.ok) {
      const values: Record<string, string | string[]> = {};
      for (const key of new Set(formData.keys())) if (!key.startsWith("_")) values[key] = formData.getAll(key).map(String).length > 1 ? formData.getAll(key).map(String) : String(formData.get(key));
      return data({ ok: false as const, message: result.message, errors: result.errors, values }, { status: 422 });
    }
    if (result.redirectUrl) throw redirect(result.redirectUrl);
    return { ok: true as const, thankYouMessage: result.thankYouMessage };
  });
}

export function FormThanks({ message, test }: { message: string; test?: boolean }) {
  return (
    <div role="status" className="space-y-2 rounded-md border border-emerald-300 bg-emerald-50 p-4" data-testid="form-thanks">
      <h2 className="text-lg font-semibold text-emerald-900">Thank you: your answers were sent.</h2>
      {message ? <p className="whitespace-pre-wrap text-sm text-emerald-900">{message}</p> : null}
      {test ? <p className="text-sm text-emerald-900">This was a test submission: it is kept apart from the real ones.</p> : null}
    </div>
  );
}

export default function PublicFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { opening, search } = loaderData;
  if (opening.state !== "open") {
    const ended = ENDED[opening.state === "missing" ? "missing" : opening.reason];
    return (
      <div className="mx-auto max-w-2xl space-y-2" data-testid="form-ended">
        <h1 className="text-2xl font-semibold text-slate-900">{ended.title}</h1>
        <p className="text-sm text-slate-700">{opening.state === "missing" ? ended.text : `“${opening.title}”: ${ended.text.charAt(0).toLowerCase()}${ended.text.slice(1)} Ask ${opening.ownerName} if you need to reach them.`}</p>
      </div>
    );
  }
  const { form } = opening;
  const failure: RendererFailure | null = actionData && "ok" in actionData && actionData.ok === false ? { message: actionData.message, errors: "errors" in actionData ? (actionData.errors as Record<string, string>) : {}, values: "values" in actionData ? (actionData.values as Record<string, string | string[]>) : undefined } : null;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header className="space-y-2 border-t-4 border-brand-600 pt-4">
        <h1 className="text-2xl font-semibold text-slate-900">{form.title}</h1>
        {form.description ? <p className="whitespace-pre-wrap text-sm text-slate-700">{form.description}</p> : null}
        <p className="text-xs text-slate-600">A form by {form.ownerName}. Only they see your answers.</p>
      </header>
      {actionData && "ok" in actionData && actionData.ok === true ? <FormThanks message={actionData.thankYouMessage} /> : <FormRenderer form={form} failure={failure} params={new URLSearchParams(search)} />}
    </div>
  );
}
