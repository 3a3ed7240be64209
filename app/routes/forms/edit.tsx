import { FormBuilder } from "~/features/forms/components/form-builder";
import { requireActor } from "~/features/auth/auth-guard.server";
import { openForEditing } from "~/features/forms/forms.server";
import { listFormFileTargets } from "~/features/forms/form-files.server";
import { caseTypeChoicesFor } from "~/features/cases/cases.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Form builder: ${loaderData.start.title}` : "Form builder");

/** /forms/{id}/edit (spec §2 "same builder; templateId taken from id"): a form, or a template opened as a copy. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const ctx = serviceContextFor(context);
  return runLoader(async () => ({ start: await openForEditing(ctx, actor.userId, params.id), fileTargets: await listFormFileTargets(ctx, actor.userId), caseTypeChoices: await caseTypeChoicesFor(ctx, actor.userId) }));
}

export default function FormEditPage({ loaderData }: Route.ComponentProps) {
  return <FormBuilder start={loaderData.start} fileTargets={loaderData.fileTargets} caseTypeChoices={loaderData.caseTypeChoices} />;
}
