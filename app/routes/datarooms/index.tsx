import { data, Form, Link, useNavigation } from "react-router";
import { HelpLink } from "~/features/guide/components/help-link";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { DataroomFields } from "~/features/datarooms/components/dataroom-fields";
import { Input } from "~/components/ui/input";
import { createDataroom, listDatarooms, restoreDataroom } from "~/features/datarooms/datarooms.server";
import { createTeamRoom } from "~/features/teams/team-rooms.server";
import { currentWorkspace } from "~/features/teams/workspace.server";
import { runLoader } from "~/lib/action-result.server";
import { AppError, type FieldErrors } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { toastMessages } from "~/lib/toast.schema";
import { RoomListRow } from "~/features/datarooms/components/room-list-row";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => titleMeta("Data rooms");

/** /datarooms: my rooms and the rooms shared with me (archived ones have their own page), searched, filtered and sorted by the URL. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  return runLoader(async () => {
    const ctx = serviceContextFor(context);
    // The workspace chosen in the shell: its own rooms only (a team's, or the member's rooms of no team).
    const workspace = await currentWorkspace(ctx, user.id, request);
    const list = await listDatarooms(ctx, user.id, query, workspace?.id ?? null);
    return { ...list, workspace: workspace ? { id: workspace.id, name: workspace.name, canCreate: workspace.permissions.includes("team.rooms.create") } : null };
  });
}

type CreateFailure = { ok: false; intent: "create" | "restore"; message: string; fieldErrors?: FieldErrors; values: { name: string; description: string } };

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  const values = { name: String(form.get("name") ?? ""), description: String(form.get("description") ?? "") };
  try {
    if (form.get("intent") === "restore") {
      const room = await restoreDataroom(serviceContextFor(context), user.id, form.get("id"));
      return redirectWithNotice(context, `/dataroom/${room.id}`, { type: "success", message: `${room.name} is restored.` });
    }
    const ctx = serviceContextFor(context);
    const workspace = await currentWorkspace(ctx, user.id, request);
    const room = workspace ? await createTeamRoom(ctx, user.id, workspace.id, values) : await createDataroom(ctx, user.id, values);
    return redirectWithNotice(context, `/dataroom/${room.id}`, { type: "success", message: toastMessages.created("Data room") });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const intent = form.get("intent") === "restore" ? "restore" : "create";
    return data<CreateFailure>({ ok: false, intent, message: error.message, fieldErrors: error.fieldErrors, values }, { status: error.status });
  }
}

const FILTERS = [
  { value: "all", label: "All rooms" },
  { value: "mine", label: "Mine" },
  { value: "shared", label: "Shared with me" },
  { value: "archived", label: "Archived" },
  { value: "trash", label: "In the trash" },
] as const;
const SORTS = [
  { value: "updated", label: "Last changed" },
  { value: "name", label: "Name" },
  { value: "created", label: "Created" },
] as const;


export default function DataroomsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { datarooms, query, quota, workspace } = loaderData;
  const navigation = useNavigation();
  const sent = actionData && "ok" in actionData ? (actionData as CreateFailure) : null;
  const failure = sent?.intent === "create" ? sent : null;
  const restoreFailure = sent?.intent === "restore" ? sent : null;
  const atLimit = quota.limit !== -1 && quota.owned >= quota.limit;
  const isCreating = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const isFiltered = query.q !== "" || query.filter !== "all";
  const isTrash = query.filter === "trash";
  const isArchived = query.filter === "archived";

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Data rooms</h1>
          <HelpLink article="data-rooms">How data rooms work</HelpLink>
          <p className="text-slate-700">Shared spaces where you decide, person by person, who may see, download or upload.</p>
          {workspace ? (
            <p className="text-sm text-slate-700" data-testid="workspace-note">
              The rooms of the team “{workspace.name}”: its people are in each by their team role. Switch to Personal (top right) for your own.
            </p>
          ) : null}
        </div>
        <p className="text-sm text-slate-700" data-testid="dataroom-quota">
          {quota.limit === -1 ? `You own ${quota.owned} data rooms (no limit on your plan).` : `You own ${quota.owned} of the ${quota.limit} data rooms your plan allows.`}
        </p>
      </div>

      <section aria-labelledby="new-room-heading">
        <Card>
          <CardContent className="space-y-4">
            <h2 id="new-room-heading" className="text-lg font-semibold text-slate-900">
              New data room
            </h2>
            {workspace && !workspace.canCreate ? (
              <p className="text-sm text-slate-700">The team's owner and admins create its data rooms. Switch to Personal (top right) to create one of your own.</p>
            ) : atLimit ? (
              <Alert variant="warning">
                Your plan allows {quota.limit} data {quota.limit === 1 ? "room" : "rooms"} and you own {quota.owned}.{" "}
                <Link to="/settings/plan" className="font-medium underline">
                  See the plans
                </Link>{" "}
                to raise it. Archived rooms still count toward it.
              </Alert>
            ) : (
              <Form method="post" className="space-y-4">
                <CsrfInput />
                {failure && !failure.fieldErrors ? <Alert variant="error">{failure.message}</Alert> : null}
                {workspace ? <p className="text-sm text-slate-700">The room will be in the team's workspace: its people are let in by their team role at once, and you own it.</p> : null}
                <DataroomFields values={failure?.values} errors={failure?.fieldErrors} />
                <div className="flex justify-end">
                  <Button type="submit" isLoading={isCreating}>
                    Create data room
                  </Button>
                </div>
              </Form>
            )}
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="rooms-heading" className="space-y-4">
        <h2 id="rooms-heading" className="text-lg font-semibold text-slate-900">
          {workspace ? `${workspace.name}'s rooms` : "Your rooms"}
        </h2>
        <Form method="get" role="search" aria-label="Find data rooms" className="grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end">
          <Input label="Search" name="q" type="search" defaultValue={query.q} placeholder="Name or description" />
          <label className="block text-sm font-medium text-slate-900">
            Show
            <select name="filter" defaultValue={query.filter} className={nativeSelectClassName}>
              {FILTERS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <label className="block text-sm font-medium text-slate-900">
            Sort by
            <select name="sort" defaultValue={query.sort} className={nativeSelectClassName}>
              {SORTS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </Form>

        {restoreFailure ? <Alert variant="error">{restoreFailure.message}</Alert> : null}
        {datarooms.length === 0 ? (
          <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-700">
            {isTrash ? "No data room in the trash." : isArchived ? "No archived data room." : isFiltered ? "No data room matches." : "No data rooms yet. Create one above, or ask someone to invite you to theirs."}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" aria-label="Data rooms">
            {datarooms.map((room) => (
              <RoomListRow key={room.id} room={room} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
