import { ErrorPage } from "~/components/error-page";
import { getRoomTagIndex } from "~/features/datarooms/room-files.server";
import { TagIndexView } from "~/features/files/components/tag-index-view";
import { requireMember } from "~/features/auth/auth-guard.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/tags";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Tags of ${loaderData.room.name}` : "Tags") }];

/** /dataroom/{id}/tags: the room's tags with their counts; ?tag=x lists that tag's files in the room (view; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const search = new URL(request.url).searchParams;
  const query = { tag: search.get("tag") ?? undefined, cursor: search.get("cursor") ?? undefined };
  return runLoader(async () => {
    const { room, index } = await getRoomTagIndex(serviceContextFor(context), user.id, params.id, query);
    return { room: { id: room.id, name: room.name, archived: room.archived }, index, isFirstPage: query.cursor === undefined };
  });
}

export default function DataroomTagsPage({ loaderData }: Route.ComponentProps) {
  const { room, index, isFirstPage } = loaderData;
  const description = "Every tag used in this room, with the number of its files that carry it.";
  return (
    <TagIndexView
      index={index}
      isFirstPage={isFirstPage}
      basePath={`/dataroom/${room.id}/tags`}
      description={description}
      header={
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">Tags</h1>
          <p className="text-sm text-slate-700">{description}</p>
        </div>
      }
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
