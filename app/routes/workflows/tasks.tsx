import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { listMyTasks } from "~/features/workflows/workflows.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/tasks";

export const meta: Route.MetaFunction = () => titleMeta("My tasks");

const since = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** /tasks ("My tasks", issue 41): what workflows wait for the member to decide, oldest first. Any member: approvers need no plan of their own. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  // "Now" is the server's, so the server's page and the browser's agree on what is overdue.
  return runLoader(async () => ({ tasks: await listMyTasks(serviceContextFor(context), user.id), now: new Date().toISOString() }));
}

export default function MyTasks({ loaderData }: Route.ComponentProps) {
  const { tasks, now } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">My tasks</h1>
        <p className="text-sm text-slate-700">Steps of workflows that wait for your decision. Open one to read what it is about and approve or reject it.</p>
      </header>
      {tasks.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">Nothing waits for you.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Open tasks">
          {tasks.map((task) => (
            <li key={task.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
              <Link to={`/workflow-runs/${task.runId}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                {task.step}: {task.workflow}
              </Link>
              <span className="text-xs text-slate-600">
                since {since.format(new Date(task.since))} UTC
                {task.due ? <span className={new Date(task.due) < new Date(now) ? "ml-2 font-semibold text-red-800" : "ml-2"}>{new Date(task.due) < new Date(now) ? "overdue since" : "due"} {since.format(new Date(task.due))} UTC</span> : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
