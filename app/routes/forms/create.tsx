import { Form, Link, redirect } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { IntentButton } from "~/components/intent-form";
import { buttonClassName } from "~/components/ui/button";
import { requireActor } from "~/features/auth/auth-guard.server";
import { BUILT_IN_TEMPLATES } from "~/features/forms/form-templates";
import { GENERATE_PROMPT_MAX } from "~/features/forms/form-generator";
import { createForm, generateForm, listForms } from "~/features/forms/forms.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/create";

export const meta: Route.MetaFunction = () => titleMeta("New form");

/** /forms/create (spec §2 "form builder"): start from a blank form, a built-in template or one of the member's own. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const own = await runLoader(() => listForms(serviceContextFor(context), actor.userId, { templates: true }));
  return {
    builtIn: BUILT_IN_TEMPLATES.map((template) => ({ id: template.id, title: template.title, description: template.description, questions: template.definition.fields.filter((field) => !["heading", "paragraph", "page_break"].includes(field.type)).length })),
    own: own.map((template) => ({ id: template.id, title: template.title })),
  };
}

/** "Use template" or "Blank form": the new draft is made and the builder opens on it. */
export async function action({ context, request }: Route.ActionArgs) {
  const actor = requireActor(context, request);
  const form = await request.formData();
  const templateId = String(form.get("templateId") ?? "") || undefined;
  const intent = String(form.get("intent") ?? "");
  return runFormAction(
    async () => {
      const created = intent === "generate" ? await generateForm(serviceContextFor(context), actor.userId, { prompt: form.get("prompt") }) : await createForm(serviceContextFor(context), actor.userId, { templateId });
      return redirect(`/forms/${created.id}/edit`);
    },
    { intent },
  );
}

export default function CreateFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { builtIn, own } = loaderData;
  return (
    <div className="space-y-8">
      <div className="space-y-1">
        <Link to="/forms" className="text-sm text-brand-700 underline-offset-2 hover:underline">
          ← Forms
        </Link>
        <h1 className="text-2xl font-semibold text-slate-900">New form</h1>
        <p className="text-sm text-slate-700">Start from a template and change what you need, or from a blank page.</p>
      </div>
      {actionData && "message" in actionData ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {actionData.message}
        </p>
      ) : null}
      <div className="flex flex-wrap items-start gap-6">
        <IntentButton intent="create" label="Blank form" variant="secondary" size="md" />
        <Form method="post" className="min-w-72 flex-1 space-y-2 rounded-md border border-slate-300 bg-white p-4" data-testid="generate-form">
          <CsrfInput />
          <input type="hidden" name="intent" value="generate" />
          <label htmlFor="generate-prompt" className="block text-sm font-medium text-slate-900">
            Generate a form: describe it in a sentence
          </label>
          <textarea id="generate-prompt" name="prompt" rows={2} maxLength={GENERATE_PROMPT_MAX} required placeholder="A client intake form with date of birth, budget and GDPR consent" aria-describedby="generate-note" className="block w-full rounded-md border border-slate-400 px-2 py-1.5 text-sm" />
          <p id="generate-note" className="text-xs text-slate-600">
            Made offline from the template library and the words you use (no AI model is connected here). You review every question in the builder before publishing.
          </p>
          <button type="submit" className={buttonClassName({ size: "sm" })}>
            Generate
          </button>
        </Form>
      </div>
      <section className="space-y-3" aria-labelledby="library">
        <h2 id="library" className="text-lg font-semibold text-slate-900">
          Templates
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {builtIn.map((template) => (
            <li key={template.id} className="flex flex-col justify-between gap-3 rounded-md border border-slate-300 bg-white p-4" data-testid="template-card">
              <div className="space-y-1">
                <h3 className="font-medium text-slate-900">{template.title}</h3>
                <p className="text-sm text-slate-700">{template.description}</p>
                <p className="text-xs text-slate-600">{template.questions} questions</p>
              </div>
              <IntentButton intent="create" fields={{ templateId: template.id }} label="Use template" ariaLabel={`Use template ${template.title}`} variant="primary" />
            </li>
          ))}
        </ul>
      </section>
      {own.length > 0 ? (
        <section className="space-y-3" aria-labelledby="own">
          <h2 id="own" className="text-lg font-semibold text-slate-900">
            Your templates
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {own.map((template) => (
              <li key={template.id} className="flex items-center justify-between gap-3 rounded-md border border-slate-300 bg-white p-4">
                <h3 className="font-medium text-slate-900">{template.title}</h3>
                <IntentButton intent="create" fields={{ templateId: template.id }} label="Use template" ariaLabel={`Use template ${template.title}`} variant="primary" />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
