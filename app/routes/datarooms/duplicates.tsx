import { ErrorPage } from "~/components/error-page";
import { getRoomDuplicates } from "~/features/datarooms/room-files.server";
import { DuplicateGroups, LockedDuplicates } from "~/features/files/components/duplicate-groups";
import { requireMember } from "~/features/auth/auth-guard.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/duplicates";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Duplicates in ${loaderData.room.name}` : "Duplicates") }];

/** /dataroom/{id}/duplicates: this room's files with the same content (view; the owner's plan with advanced features; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  return runLoader(async () => {
    const { room, page } = await getRoomDuplicates(serviceContextFor(context), user.id, params.id, { cursor });
    return { room: { id: room.id, name: room.name, archived: room.archived }, page, isFirstPage: cursor === undefined };
  });
}

export default function DataroomDuplicatesPage({ loaderData }: Route.ComponentProps) {
  const { room, page, isFirstPage } = loaderData;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Duplicates</h1>
        <p className="text-sm text-slate-700">Files of this room with exactly the same content. Keep one copy of each to free the room's storage.</p>
      </div>
      {page ? (
        <DuplicateGroups page={page} isFirstPage={isFirstPage} firstHref={`/dataroom/${room.id}/duplicates`} emptyText="No duplicates: every file in this room has different content." />
      ) : (
        <LockedDuplicates />
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
