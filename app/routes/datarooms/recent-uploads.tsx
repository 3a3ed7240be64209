import { ErrorPage } from "~/components/error-page";
import { getRoomRecentUploads } from "~/features/datarooms/room-files.server";
import { markReadOnVisit } from "~/features/notifications/notifications.server";
import { EmptyState, KeysetPager, OrganizedFileTable } from "~/features/files/components/organized-file-table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/recent-uploads";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Recent uploads of ${loaderData.room.name}` : "Recent uploads") }];

/** /dataroom/{id}/recent-uploads: the room's newest files and who uploaded them (view; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  return runLoader(async () => {
    const ctx = serviceContextFor(context);
    const { room, files, nextCursor } = await getRoomRecentUploads(ctx, user.id, params.id, { cursor });
    // "… added 12 files" notices point here: seeing the list reads them.
    await markReadOnVisit(ctx, user.id, room.id, `/dataroom/${room.id}/recent-uploads`);
    return { room: { id: room.id, name: room.name, archived: room.archived }, files, nextCursor, isFirstPage: cursor === undefined };
  });
}

export default function DataroomRecentUploadsPage({ loaderData }: Route.ComponentProps) {
  const { room, files, nextCursor, isFirstPage } = loaderData;
  const uploaders = new Map(files.map((file) => [file.id, file.uploaderName]));
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Recent uploads</h1>
        <p className="text-sm text-slate-700">The newest files in this room, newest first, and who added each.</p>
      </div>
      {files.length === 0 ? (
        <EmptyState>{isFirstPage ? "Nothing has been uploaded to this room yet." : "No more files."}</EmptyState>
      ) : (
        <OrganizedFileTable caption={`Recent uploads of ${room.name}`} files={files} actionHeader="Uploaded by" action={(file) => <span className="text-slate-700">{uploaders.get(file.id) ?? "Former member"}</span>} />
      )}
      <KeysetPager nextHref={nextCursor ? `?cursor=${encodeURIComponent(nextCursor)}` : null} isFirstPage={isFirstPage} firstHref={`/dataroom/${room.id}/recent-uploads`} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
