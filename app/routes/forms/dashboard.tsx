import { FormPageHeader } from "~/features/forms/components/form-page-header";
import { requireActor } from "~/features/auth/auth-guard.server";
import { getFormDashboard } from "~/features/forms/form-stats.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData ? `Form dashboard: ${loaderData.form.title}` : "Form dashboard");

/** /forms/{id}/dashboard (spec §2 "Forms: builder dashboard"): how the published form does. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const dashboard = await runLoader(() => getFormDashboard(serviceContextFor(context), actor.userId, params.id));
  return { form: dashboard.form, dashboard };
}

const percent = (value: number | null) => (value === null ? "–" : `${Math.round(value * 100)} %`);

export default function FormDashboardPage({ loaderData }: Route.ComponentProps) {
  const { form, dashboard } = loaderData;
  const figures = [
    { label: "Views", value: dashboard.views.toLocaleString("en-US"), hint: "Times the public form was opened" },
    { label: "Starts", value: dashboard.starts.toLocaleString("en-US"), hint: "Visits that answered at least one question" },
    { label: "Submissions", value: dashboard.submissions.toLocaleString("en-US"), hint: "Sent, every version, tests left out" },
    { label: "Completion rate", value: percent(dashboard.completionRate), hint: "Starts that were sent" },
  ];
  const widest = Math.max(1, ...dashboard.pages.map((page) => page.reached));
  return (
    <div className="space-y-6">
      <FormPageHeader back={`/forms/${form.id}/edit`} backLabel={form.title} title="Form dashboard">
        <p className="text-sm text-slate-700">{dashboard.version === null ? "The form is not published yet: figures start with its first visitors." : `Starts, completion and drop-off are of version ${dashboard.version}, the one visitors see now.`}</p>
      </FormPageHeader>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="form-figures">
        {figures.map((figure) => (
          <div key={figure.label} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <dt className="text-sm text-slate-700">{figure.label}</dt>
            <dd className="text-2xl font-semibold text-slate-900">{figure.value}</dd>
            <dd className="text-xs text-slate-600">{figure.hint}</dd>
          </div>
        ))}
      </dl>
      {dashboard.pages.length > 0 ? (
        <section aria-labelledby="drop-off" className="space-y-2">
          <h2 id="drop-off" className="text-lg font-semibold text-slate-900">
            Drop-off per page
          </h2>
          <table className="w-full max-w-3xl text-left text-sm" data-testid="drop-off">
            <thead>
              <tr className="border-b border-slate-200 text-slate-700">
                <th scope="col" className="py-2 font-medium">Page</th>
                <th scope="col" className="py-2 font-medium">Reached</th>
                <th scope="col" className="py-2 font-medium">Stopped there</th>
                <th scope="col" className="py-2 font-medium">Drop-off</th>
              </tr>
            </thead>
            <tbody>
              {dashboard.pages.map((page) => (
                <tr key={page.page} className="border-b border-slate-100">
                  <th scope="row" className="py-2 font-medium text-slate-900">
                    Page {page.page + 1}
                  </th>
                  <td className="py-2">
                    <span className="flex items-center gap-2">
                      <span aria-hidden="true" className="inline-block h-2 rounded bg-brand-600" style={{ width: `${Math.round((page.reached / widest) * 120)}px` }} />
                      {page.reached.toLocaleString("en-US")}
                    </span>
                  </td>
                  <td className="py-2">{page.left.toLocaleString("en-US")}</td>
                  <td className="py-2">{percent(page.dropOffRate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}
