import { data, Link } from "react-router";
import { buttonClassName } from "~/components/ui/button";
import { FormRenderer, type RendererFailure } from "~/features/forms/components/form-renderer";
import { openPreview, submitForm } from "~/features/forms/form-submissions.server";
import { requireActor } from "~/features/auth/auth-guard.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { FormThanks } from "~/features/forms/components/form-thanks";
import type { Route } from "./+types/preview";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Preview: ${loaderData.opening.form.title}` : "Form preview");

/** /forms/{id}/preview (spec §2 "preview page in test mode"): the draft, filled in as a visitor would. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const opening = await runLoader(() => openPreview(serviceContextFor(context), actor.userId, params.id));
  return { opening, search: new URL(request.url).search.slice(0, 2_000) };
}

/** A test submission: checked exactly like a visitor's, kept apart from the real ones. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const actor = requireActor(context, request);
  const formData = await request.formData();
  return runFormAction(async () => {
    const result = await submitForm(serviceContextFor(context), params.id, { formData }, { testBy: actor.userId });
    if (!result.ok) return data({ ok: false as const, message: result.message, errors: result.errors }, { status: 422 });
    return { ok: true as const, thankYouMessage: result.thankYouMessage, redirectUrl: result.redirectUrl };
  });
}

export default function FormPreviewPage({ loaderData, actionData }: Route.ComponentProps) {
  const { opening, search } = loaderData;
  const { form } = opening;
  const failure: RendererFailure | null = actionData && actionData.ok === false ? { message: actionData.message, errors: "errors" in actionData ? (actionData.errors as Record<string, string>) : {} } : null;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="test-mode">
        <p>
          <strong>Test mode.</strong> This is the draft as visitors would see it once published. What you send here is marked as a test, kept apart from real submissions and their counts.
        </p>
        <div className="flex gap-2">
          <Link to={`/forms/${form.id}/edit`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Back to the builder
          </Link>
          <Link to={`/forms/${form.id}/submissions?test=1`} className={buttonClassName({ variant: "ghost", size: "sm" })}>
            Test submissions
          </Link>
        </div>
      </div>
      <header className="space-y-2 border-t-4 border-brand-600 pt-4">
        <h1 className="text-2xl font-semibold text-slate-900">{form.title}</h1>
        {form.description ? <p className="whitespace-pre-wrap text-sm text-slate-700">{form.description}</p> : null}
      </header>
      {actionData && actionData.ok === true ? (
        <>
          <FormThanks message={actionData.thankYouMessage} test />
          {actionData.redirectUrl ? <p className="text-sm text-slate-700">Visitors would now be sent to {actionData.redirectUrl}.</p> : null}
          <Link to={`/forms/${form.id}/preview${search}`} reloadDocument className={buttonClassName({ variant: "secondary" })}>
            Fill it in again
          </Link>
        </>
      ) : (
        <FormRenderer form={form} failure={failure} params={new URLSearchParams(search)} submitLabel="Send test" submitUrl={`/api/forms/${form.id}/submissions?test=1`} />
      )}
    </div>
  );
}
