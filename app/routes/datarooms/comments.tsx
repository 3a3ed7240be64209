import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Badge } from "~/components/ui/badge";
import { requireMember } from "~/features/auth/auth-guard.server";
import { THREAD_FILTERS } from "~/features/datarooms/comments.constants";
import { getRoomThreads } from "~/features/datarooms/comments.server";
import { RoomLiveUpdates } from "~/features/datarooms/components/room-live-updates";
import { CountChip } from "~/features/files/components/count-chip";
import { EmptyState, KeysetPager, dateTimeFormat } from "~/features/files/components/organized-file-table";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/comments";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Comments of ${loaderData.room.name}` : "Comments") }];

/** /dataroom/{id}/comments: the room's comment threads, latest activity first; ?filter=open|resolved|all|mentions (view; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const search = new URL(request.url).searchParams;
  const query = { filter: search.get("filter") ?? undefined, cursor: search.get("cursor") ?? undefined };
  return runLoader(async () => {
    const { room, threads, filter, nextCursor } = await getRoomThreads(serviceContextFor(context), user.id, params.id, query);
    return { room: { id: room.id, name: room.name, archived: room.archived }, threads, filter, nextCursor, isFirstPage: query.cursor === undefined };
  });
}

const EMPTY: Record<keyof typeof THREAD_FILTERS, string> = {
  open: "No open threads. Comment on a file from its page.",
  resolved: "No resolved threads yet.",
  all: "Nobody has commented on this room's files yet. Comment on a file from its page.",
  mentions: "No thread mentions you.",
};

export default function DataroomCommentsPage({ loaderData }: Route.ComponentProps) {
  const { room, threads, filter, nextCursor, isFirstPage } = loaderData;
  const base = `/dataroom/${room.id}/comments`;
  const filterHref = (value: string) => `${base}?filter=${value}`;
  return (
    <div className="space-y-6">
      <RoomLiveUpdates roomId={room.id} reloadOn={["comments.changed"]} />
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Comments</h1>
        <p className="max-w-3xl text-sm text-slate-700">Discussions on this room's files, the latest activity first. Open a thread to reply, resolve it or mention someone.</p>
      </div>
      <nav aria-label="Which threads">
        <ul className="flex flex-wrap gap-2">
          {Object.entries(THREAD_FILTERS).map(([value, label]) => (
            <li key={value}>
              <CountChip to={filterHref(value)} label={label} isCurrent={filter === value} />
            </li>
          ))}
        </ul>
      </nav>
      {threads.length === 0 ? (
        <EmptyState>{isFirstPage ? EMPTY[filter] : "No more threads."}</EmptyState>
      ) : (
        <ol className="space-y-3" aria-label="Comment threads">
          {threads.map((thread) => (
            <li key={thread.id} className="space-y-1 rounded-lg border border-slate-200 bg-white p-4" data-testid="room-thread">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Link to={`/files/${thread.file.id}#comment-${thread.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                  {thread.file.name}
                </Link>
                <Badge variant={thread.resolved ? "success" : "info"}>{thread.resolved ? "Resolved" : "Open"}</Badge>
              </div>
              <p className="whitespace-pre-wrap break-words text-sm text-slate-800">{thread.deleted ? <span className="italic text-slate-600">This comment was deleted.</span> : thread.excerpt}</p>
              <p className="text-xs text-slate-600">
                {thread.authorName ?? "Former member"} · {thread.replies} {thread.replies === 1 ? "reply" : "replies"} · last activity {dateTimeFormat.format(new Date(thread.lastActivityAt))} UTC
              </p>
            </li>
          ))}
        </ol>
      )}
      <KeysetPager nextHref={nextCursor ? `${filterHref(filter)}&cursor=${encodeURIComponent(nextCursor)}` : null} isFirstPage={isFirstPage} firstHref={filterHref(filter)} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
