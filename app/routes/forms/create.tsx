import { Form, Link, redirect } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { buttonClassName } from "~/components/ui/button";
import { requireActor } from "~/features/auth/auth-guard.server";
import { BUILT_IN_TEMPLATES } from "~/features/forms/form-templates";
import { createForm, listForms } from "~/features/forms/forms.server";
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
  return runFormAction(async () => {
    const created = await createForm(serviceContextFor(context), actor.userId, { templateId });
    return redirect(`/forms/${created.id}/edit`);
  });
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
      <Form method="post">
        <CsrfInput />
        <button type="submit" className={buttonClassName({ variant: "secondary" })}>
          Blank form
        </button>
      </Form>
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
              <Form method="post">
                <CsrfInput />
                <input type="hidden" name="templateId" value={template.id} />
                <button type="submit" className={buttonClassName({ size: "sm" })} aria-label={`Use template ${template.title}`}>
                  Use template
                </button>
              </Form>
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
                <Form method="post">
                  <CsrfInput />
                  <input type="hidden" name="templateId" value={template.id} />
                  <button type="submit" className={buttonClassName({ size: "sm" })} aria-label={`Use template ${template.title}`}>
                    Use template
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
