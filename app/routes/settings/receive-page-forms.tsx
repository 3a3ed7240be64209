import { useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { readMemberForm, redirectWithNotice } from "~/features/auth/auth-route.server";
import { FieldsEditor } from "~/features/receive/components/receive-page-form";
import { readFieldsInput } from "~/features/receive/receive-form";
import { createFieldSet, deleteFieldSet, listFieldSets, updateFieldSet } from "~/features/receive/field-sets.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/receive-page-forms";

export const meta: Route.MetaFunction = () => titleMeta("Receive page forms");

/** /settings/receive-page-forms (spec §2 "Settings: receive page forms"): sets of fields to put on form pages in one step. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => ({ sets: await listFieldSets(serviceContextFor(context), user.id) }));
}

function readSet(form: FormData) {
  return { name: String(form.get("name") ?? ""), fields: readFieldsInput(form) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user, form, intent, ctx } = await readMemberForm(context, request);
  return runFormAction(
    async () => {
      if (intent === "create") await createFieldSet(ctx, user.id, readSet(form));
      else if (intent === "update") await updateFieldSet(ctx, user.id, form.get("id"), readSet(form));
      else if (intent === "delete") await deleteFieldSet(ctx, user.id, form.get("id"));
      else throw new AppError("VALIDATION_ERROR", "Unknown action. Reload the page and try again.");
      const done = intent === "create" ? "Set of fields saved." : intent === "update" ? "Set of fields changed. Pages that use it keep their own copy." : "Set of fields deleted.";
      return redirectWithNotice(context, "/settings/receive-page-forms", { type: "success", message: done });
    },
    { intent },
  );
}

export default function ReceivePageFormsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { sets } = loaderData;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-8">
      <div className="max-w-3xl space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Receive page forms</h1>
        <p className="text-sm text-slate-700">
          Sets of fields you ask again and again (a client number, a tax year, a start date). On a form page, choose one under “Use a saved set of fields”; the page keeps its own copy.
        </p>
      </div>
      {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      {sets.map((set) => (
        <section key={set.id} aria-label={`Set ${set.name}`} className="max-w-3xl space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="field-set">
          <IntentForm intent="update" fields={{ id: set.id }} className="space-y-3">
            <label className="block text-sm font-medium text-slate-900">
              Name
              <input name="name" defaultValue={set.name} className="mt-1 block w-full rounded-md border border-slate-500 px-3 py-2 text-sm" maxLength={120} />
            </label>
            <FieldsEditor initial={set.fields} legend="Fields" />
            <Button type="submit" variant="secondary" isLoading={busy}>
              Save {set.name}
            </Button>
          </IntentForm>
          <IntentForm intent="delete" fields={{ id: set.id }}>
            <Button type="submit" variant="danger" size="sm">
              Delete {set.name}
            </Button>
          </IntentForm>
        </section>
      ))}
      <section aria-labelledby="new-set-heading" className="max-w-3xl space-y-3 rounded-lg border border-dashed border-slate-300 p-4">
        <h2 id="new-set-heading" className="text-lg font-semibold text-slate-900">
          New set of fields
        </h2>
        <IntentForm intent="create" className="space-y-3">
          <label className="block text-sm font-medium text-slate-900">
            Name
            <input name="name" className="mt-1 block w-full rounded-md border border-slate-500 px-3 py-2 text-sm" maxLength={120} />
          </label>
          <FieldsEditor initial={[]} legend="Fields" />
          <Button type="submit" isLoading={busy}>
            Save set
          </Button>
        </IntentForm>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
