import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { DashboardGrid } from "~/features/workspace/components/dashboard-widgets";
import { getDashboard } from "~/features/workspace/dashboard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => titleMeta("Dashboard");

/**
 * /dashboard (spec §2 "Dashboard homepage and dashboard"): the signed-in member's home; `/`
 * sends members here. The widgets' data is not awaited: each streams in on its own.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return { name: user.name, ...getDashboard(serviceContextFor(context), user.id, user.dashboardLayout) };
}

export default function DashboardPage({ loaderData }: Route.ComponentProps) {
  const { name, layout, widgets } = loaderData;
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

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
