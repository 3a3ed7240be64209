import { data, Form, Link, useNavigation } from "react-router";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { requireMember } from "~/features/auth/auth-guard.server";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { ROLE_LABELS } from "~/features/datarooms/datarooms.permissions";
import { DataroomFields } from "~/features/datarooms/components/dataroom-fields";
import { Input } from "~/components/ui/input";
import { createDataroom, listDatarooms, restoreDataroom } from "~/features/datarooms/datarooms.server";
import { runLoader } from "~/lib/action-result.server";
import { AppError, type FieldErrors } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { toastMessages } from "~/lib/toast.schema";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ loaderData }) => titleMeta(loaderData?.isArchivedView ? "Archived data rooms" : "Data rooms");

const ARCHIVED_VIEW_PATH = "/datarooms/archived";

/**
 * /datarooms: my rooms and the rooms shared with me, searched, filtered and sorted by the URL.
 * /datarooms/archived (spec §2 "Data room: archived"): the same list of the archived ones only.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const url = new URL(request.url);
  const isArchivedView = url.pathname === ARCHIVED_VIEW_PATH;
  const query = { ...Object.fromEntries(url.searchParams), ...(isArchivedView ? { filter: "archived" } : {}) };
  return runLoader(async () => ({ ...(await listDatarooms(serviceContextFor(context), user.id, query)), isArchivedView }));
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
    const room = await createDataroom(serviceContextFor(context), user.id, values);
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
  const { datarooms, query, quota, isArchivedView } = loaderData;
  const navigation = useNavigation();
  const sent = actionData && "ok" in actionData ? (actionData as CreateFailure) : null;
  const failure = sent?.intent === "create" ? sent : null;
  const restoreFailure = sent?.intent === "restore" ? sent : null;
  const atLimit = quota.limit !== -1 && quota.owned >= quota.limit;
  const isCreating = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const isFiltered = query.q !== "" || query.filter !== "all";
  const isTrash = query.filter === "trash";
  const isArchived = query.filter === "archived";
  if (isArchivedView) return <ArchivedRooms datarooms={datarooms} />;

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Data rooms</h1>
          <p className="text-slate-700">Shared spaces where you decide, person by person, who may see, download or upload.</p>
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
            {atLimit ? (
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
          Your rooms
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
              <RoomRow key={room.id} room={room} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

type RoomListItem = Route.ComponentProps["loaderData"]["datarooms"][number];

function RoomRow({ room }: { room: RoomListItem }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-4" data-testid="dataroom-row">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          {/* /dataroom/ pages are server-driven navigations (spec §2): a full document load. */}
          {room.trashedAt ? (
            <span className="text-base font-medium text-slate-900">{room.name}</span>
          ) : (
            <a href={`/dataroom/${room.id}`} className="text-base font-medium text-brand-700 underline-offset-2 hover:underline">
              {room.name}
            </a>
          )}
          <Badge variant={room.isOwner ? "brand" : "neutral"}>{ROLE_LABELS[room.role]}</Badge>
          {room.archived ? <Badge variant="warning">Archived</Badge> : null}
        </div>
        {room.description ? <p className="line-clamp-2 text-sm text-slate-700">{room.description}</p> : null}
        <p className="text-xs text-slate-600">
          {room.isOwner ? "Yours" : `Owned by ${room.owner.name}`} · {room.fileCount} {room.fileCount === 1 ? "file" : "files"} · {room.memberCount}{" "}
          {room.memberCount === 1 ? "person" : "people"}
        </p>
      </div>
      {room.trashedAt ? (
        <Form method="post" className="flex items-center gap-3">
          <CsrfInput />
          <input type="hidden" name="intent" value="restore" />
          <input type="hidden" name="id" value={room.id} />
          <span className="text-xs text-slate-600">Deleted for good on {room.purgeAt?.slice(0, 10)}</span>
          <Button type="submit" size="sm" variant="secondary" aria-label={`Restore ${room.name}`}>
            Restore
          </Button>
        </Form>
      ) : (
        <a href={`/dataroom/${room.id}`} className={buttonClassName({ variant: "secondary", size: "sm" })} aria-label={`Open ${room.name}`}>
          Open
        </a>
      )}
    </li>
  );
}

/** /datarooms/archived: the rooms kept read-only, out of the way of the ones in use. */
function ArchivedRooms({ datarooms }: { datarooms: RoomListItem[] }) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Archived data rooms</h1>
        <p className="max-w-3xl text-slate-700">
          Rooms their owners archived: read-only for everyone, their files can still be opened and downloaded. A room's owner unarchives it from the room's profile.
        </p>
      </div>
      {datarooms.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-700">
          No archived data room. Archive a finished room from its profile to keep it here, read-only.
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" aria-label="Archived data rooms">
          {datarooms.map((room) => (
            <RoomRow key={room.id} room={room} />
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
