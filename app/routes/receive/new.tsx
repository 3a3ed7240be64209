import { ErrorPage } from "~/components/error-page";
import { currentWorkspace } from "~/features/teams/workspace.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { NEW_RECEIVE_PAGE, ReceivePageForm } from "~/features/receive/components/receive-page-form";
import { readReceivePageForm } from "~/features/receive/receive-form";
import { listFieldSets } from "~/features/receive/field-sets.server";
import { createReceivePage, getReceivePageEditor } from "~/features/receive/receive.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/new";
import { UpLink } from "~/components/up-link";
import { caseTypeChoicesFor } from "~/features/cases/cases.server";

export const meta: Route.MetaFunction = () => titleMeta("New receive page");

/** /receive-pages/new: a page's options and the folder its files go to. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => ({ ...(await getReceivePageEditor(ctx, user.id)), fieldSets: await listFieldSets(ctx, user.id), caseTypeChoices: await caseTypeChoicesFor(ctx, user.id) }));
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => {
    // Made in the workspace the member works in: a team's (issue 42) or their own.
    const ctx = serviceContextFor(context);
    const workspace = await currentWorkspace(ctx, user.id, request);
    const page = await createReceivePage(ctx, user.id, readReceivePageForm(form, "new"), { teamId: workspace?.id });
    return redirectWithNotice(context, `/receive-pages/${page.id}`, { type: "success", message: "Receive page created. Send its address to the people who send you files." });
  });
}

export default function NewReceivePage({ loaderData, actionData }: Route.ComponentProps) {
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData : null;
  return (
    <div className="space-y-6">
      <div className="max-w-3xl space-y-1">
        <UpLink to="/receive-pages">Receive pages</UpLink>
        <h1 className="text-2xl font-semibold text-slate-900">New receive page</h1>
      </div>
      <ReceivePageForm values={NEW_RECEIVE_PAGE} destinations={loaderData.destinations} defaultFolderId={loaderData.defaultFolderId} failure={failure} submitLabel="Create page" fieldSets={loaderData.fieldSets} formChoices={loaderData.formChoices} caseTypeChoices={loaderData.caseTypeChoices} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
