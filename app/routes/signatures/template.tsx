import { Link } from "react-router";
import { requireMember } from "~/features/auth/auth-guard.server";
import { TemplateDesigner } from "~/features/signatures/components/template-designer";
import { getTemplate } from "~/features/signatures/templates.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/template";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Template: ${loaderData.template.name}` : "Template");

/** /signatures/templates/{id} (spec §2 "Signatures: template designer"): the member's own template. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => ({ template: await getTemplate(serviceContextFor(context), user.id, params.id) }));
}

export default function TemplatePage({ loaderData }: Route.ComponentProps) {
  const { template } = loaderData;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm text-slate-600">
          <Link to="/signatures/templates" className="underline">
            Signature templates
          </Link>
        </p>
        <h1 className="text-2xl font-semibold text-slate-900">Template: {template.name}</h1>
      </div>
      <TemplateDesigner key={template.id} template={template} />
    </div>
  );
}
