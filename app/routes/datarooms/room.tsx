import { useSearchParams } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { loadMemberAccess } from "~/features/access/access.server";
import { checkFeature } from "~/features/access/access-check";
import { requireMember } from "~/features/auth/auth-guard.server";
import { getDataroom, recordRoomVisit } from "~/features/datarooms/datarooms.server";
import { FolderBrowser, type ViewMode } from "~/features/files/components/folder-browser";
import { getFolderPage } from "~/features/files/folders.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import { RoomLiveUpdates } from "~/features/datarooms/components/room-live-updates";
import type { Route } from "./+types/room";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: pageTitle(loaderData ? (loaderData.page.folder.kind === "root" ? loaderData.dataroom.name : loaderData.page.folder.label) : "Data room") },
];

/**
 * /dataroom/{id}: the room's file manager (the folder browser on the room's top folder), and
 * /dataroom/{id}/folders/{uid}: one of its folders, under the room's header. A folder of another
 * space is not found here.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const folderId = "uid" in params && typeof params.uid === "string" ? params.uid : null;
  return runLoader(async () => {
    // G3: the plan's features do not depend on the room check: read beside it.
    const [opened, access] = await Promise.all([getDataroom(ctx, user.id, params.id), loadMemberAccess(ctx, user.id)]);
    const { dataroom, rootFolderId } = opened;
    const [page] = await Promise.all([getFolderPage(ctx, user.id, folderId ?? rootFolderId, query, dataroom.id), recordRoomVisit(ctx, user.id, opened)]);
    return { dataroom, page, canUploadFolders: checkFeature(access, "bulk_upload") };
  });
}

export default function DataroomPage({ loaderData }: Route.ComponentProps) {
  const { dataroom, page, canUploadFolders } = loaderData;
  const [searchParams] = useSearchParams();
  const view: ViewMode = searchParams.get("view") === "grid" ? "grid" : "list";
  return (
    <div className="space-y-6">
      <RoomLiveUpdates roomId={dataroom.id} showPresence />
      {dataroom.archived ? <Alert variant="info">This data room is archived and read-only. Its files can be opened and downloaded, not changed.</Alert> : null}
      <FolderBrowser page={page} canUploadFolders={canUploadFolders} view={view} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
