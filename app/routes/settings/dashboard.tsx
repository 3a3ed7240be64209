import { Form, useNavigation, useSubmit } from "react-router";
import { useCsrfToken } from "~/lib/root-data";
import { CsrfInput } from "~/components/csrf-input";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { requireMember } from "~/features/auth/auth-guard.server";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import { SortableWidgetList } from "~/features/workspace/components/sortable-widget-list";
import { WIDGETS, type WidgetId } from "~/features/workspace/dashboard.constants";
import { changeDashboardLayout, getDashboardSettings } from "~/features/workspace/dashboard.server";
import { runFormAction } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => titleMeta("Dashboard settings");

/** /settings/dashboard (spec §2 "Settings: dashboard"): which widgets the dashboard shows, in which order. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return getDashboardSettings(serviceContextFor(context), user.id);
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  return runFormAction(async () => ({
    ok: true as const,
    layout: await changeDashboardLayout(serviceContextFor(context), user.id, { intent: form.get("intent"), widget: form.get("widget") ?? undefined, order: form.get("order") ?? undefined }),
  }));
}

function describe(id: WidgetId) {
  return WIDGETS.find((widget) => widget.id === id)!;
}

/** One change, as a small form: it works without JavaScript and every control is a real button. */
function ChangeButton({ intent, widget, label, children, disabled }: { intent: string; widget?: WidgetId; label: string; children: string; disabled?: boolean }) {
  return (
    <Form method="post" preventScrollReset>
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      {widget ? <input type="hidden" name="widget" value={widget} /> : null}
      <Button type="submit" size="sm" variant="secondary" aria-label={label} disabled={disabled}>
        {children}
      </Button>
    </Form>
  );
}

export default function DashboardSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { layout, hidden } = loaderData;
  const navigation = useNavigation();
  const submit = useSubmit();
  const csrfToken = useCsrfToken();
  const saveOrder = (order: WidgetId[]) => submit({ _csrf: csrfToken, intent: "order", order: order.join(",") }, { method: "post", preventScrollReset: true });
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null;
  return (
    <>
      <SettingsHeader
        title="Dashboard"
        description="Choose the widgets your dashboard shows and their order: drag a widget by its handle (or use the keyboard on the handle), or press Up and Down. Each change is saved at once."
      />
      {failure ? <Alert variant="error">{failure}</Alert> : null}
      <section aria-labelledby="shown-heading" className="space-y-3">
        <h2 id="shown-heading" className="text-lg font-semibold text-slate-900">
          On your dashboard
        </h2>
        {layout.length === 0 ? (
          <p className="text-sm text-slate-700">No widget is shown. Add one below.</p>
        ) : (
          <div aria-busy={navigation.state !== "idle"}>
            <SortableWidgetList
              layout={layout}
              onReorder={saveOrder}
              renderRow={(id, index, handle) => (
                <div className="flex flex-wrap items-center justify-between gap-3 p-3">
                  <div className="flex min-w-0 items-start gap-3">
                    {handle}
                    <div className="min-w-0">
                      <p className="font-medium text-slate-900">
                        {index + 1}. {describe(id).title}
                      </p>
                      <p className="text-sm text-slate-700">{describe(id).description}</p>
                    </div>
                  </div>
                  <div className="flex gap-2">
                    <ChangeButton intent="up" widget={id} label={`Move ${describe(id).title} up`} disabled={index === 0}>
                      Up
                    </ChangeButton>
                    <ChangeButton intent="down" widget={id} label={`Move ${describe(id).title} down`} disabled={index === layout.length - 1}>
                      Down
                    </ChangeButton>
                    <ChangeButton intent="hide" widget={id} label={`Remove ${describe(id).title}`}>
                      Remove
                    </ChangeButton>
                  </div>
                </div>
              )}
            />
          </div>
        )}
      </section>
      <section aria-labelledby="hidden-heading" className="space-y-3">
        <h2 id="hidden-heading" className="text-lg font-semibold text-slate-900">
          Not shown
        </h2>
        {hidden.length === 0 ? (
          <p className="text-sm text-slate-700">Every widget is on your dashboard.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
            {hidden.map((id) => (
              <li key={id} className="flex flex-wrap items-center justify-between gap-3 p-3">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{describe(id).title}</p>
                  <p className="text-sm text-slate-700">{describe(id).description}</p>
                </div>
                <ChangeButton intent="show" widget={id} label={`Add ${describe(id).title}`}>
                  Add
                </ChangeButton>
              </li>
            ))}
          </ul>
        )}
        <ChangeButton intent="reset" label="Back to the default layout">
          Back to the default layout
        </ChangeButton>
      </section>
    </>
  );
}
