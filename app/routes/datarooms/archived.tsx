import { ErrorPage } from "~/components/error-page";
import { requireMember } from "~/features/auth/auth-guard.server";
import { RoomListRow } from "~/features/datarooms/components/room-list-row";
import { listDatarooms } from "~/features/datarooms/datarooms.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/archived";

export const meta: Route.MetaFunction = () => titleMeta("Archived data rooms");

/** /datarooms/archived (spec §2 "Data room: archived"): the member's archived rooms and archived rooms shared with them. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const search = new URL(request.url).searchParams;
  return runLoader(() => listDatarooms(serviceContextFor(context), user.id, { filter: "archived", sort: search.get("sort") ?? undefined, dir: search.get("dir") ?? undefined }));
}

export default function ArchivedDataroomsPage({ loaderData }: Route.ComponentProps) {
  const { datarooms } = loaderData;
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
            <RoomListRow key={room.id} room={room} />
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
