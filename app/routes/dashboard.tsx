import { Suspense } from "react";
import { Await, Form, Link } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { DashboardGrid } from "~/features/workspace/components/dashboard-widgets";
import { getDashboard } from "~/features/workspace/dashboard.server";
import { WelcomeSteps } from "~/features/guide/components/welcome-steps";
import { getWelcomeChecklist, type WelcomeChecklist } from "~/features/guide/welcome.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { currentWorkspace } from "~/features/teams/workspace.server";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => titleMeta("Dashboard");

/**
 * /dashboard (spec §2 "Dashboard homepage and dashboard"): the signed-in member's home; `/`
 * sends members here. The widgets' data is not awaited: each streams in on its own.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  // The welcome checklist rides on top until the member hides it or has done every step (streamed too).
  const welcome = user.welcomeDismissedAt === null ? getWelcomeChecklist(ctx, user) : null;
  // The workspace chosen in the shell (issue 42): read once for the frame and the widgets.
  const workspace = currentWorkspace(ctx, user.id, request).then((chosen) => chosen?.id ?? null);
  return { name: user.name, welcome, ...getDashboard(ctx, user.id, user.dashboardLayout, workspace) };
}

export default function DashboardPage({ loaderData }: Route.ComponentProps) {
  const { name, layout, widgets, welcome } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Dashboard</h1>
          <p className="text-slate-700">Welcome back, {name}.</p>
        </div>
        <Link to="/settings/dashboard" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
          Choose and order widgets
        </Link>
      </div>
      {welcome ? (
        <Suspense fallback={null}>
          <Await resolve={welcome} errorElement={null}>
            {(checklist) => <WelcomeCard checklist={checklist} />}
          </Await>
        </Suspense>
      ) : null}
      {layout.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-700">
          You have hidden every widget.{" "}
          <Link to="/settings/dashboard" className="font-medium text-brand-700 underline">
            Add some back
          </Link>
          .
        </p>
      ) : (
        <DashboardGrid layout={layout} widgets={widgets} />
      )}
    </div>
  );
}

function WelcomeCard({ checklist }: { checklist: WelcomeChecklist }) {
  if (checklist.isComplete) return null;
  return (
    <section aria-labelledby="welcome-heading" className="rounded-xl bg-brand-50 p-5 ring-1 ring-brand-100" data-testid="welcome-card">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="welcome-heading" className="text-base font-semibold text-slate-900">
            Get started: {checklist.doneCount} of {checklist.steps.length} done
          </h2>
          <p className="text-sm text-slate-700">
            Each step ticks itself when you have done it.{" "}
            <Link to="/welcome" className="font-medium text-brand-700 underline">
              Open the checklist
            </Link>
          </p>
        </div>
        <Form method="post" action="/welcome">
          <CsrfInput />
          <input type="hidden" name="intent" value="dismiss" />
          <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50">
            Hide
          </button>
        </Form>
      </div>
      <div className="mt-3">
        <WelcomeSteps steps={checklist.steps} isCompact />
      </div>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
