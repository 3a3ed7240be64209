import { useSearchParams } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { buttonClassName } from "~/components/ui/button";
import { loadMemberAccess } from "~/features/access/access.server";
import { checkFeature } from "~/features/access/access-check";
import { requireMember } from "~/features/auth/auth-guard.server";
import { ROLE_LABELS } from "~/features/datarooms/datarooms.permissions";
import { getDataroom } from "~/features/datarooms/datarooms.server";
import { FolderBrowser, type ViewMode } from "~/features/files/components/folder-browser";
import { getFolderPage } from "~/features/files/folders.server";
import { runLoader } from "~/lib/action-result.server";
import { AppError } from "~/lib/errors";
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
    const { dataroom, rootFolderId } = await getDataroom(ctx, user.id, params.id);
    const [page, access] = await Promise.all([getFolderPage(ctx, user.id, folderId ?? rootFolderId, query), loadMemberAccess(ctx, user.id)]);
    if (page.folder.spaceId !== dataroom.id) throw new AppError("NOT_FOUND", "This folder does not exist in this data room.");
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
      <header className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-200 pb-4">
        <div className="min-w-0 space-y-1">
          <p className="text-sm text-slate-600">
            <a href="/datarooms" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              Data rooms
            </a>
          </p>
          {dataroom.logoUrl ? <img src={dataroom.logoUrl} alt={`Logo of ${dataroom.name}`} className="h-12 w-12 rounded object-contain" data-testid="room-logo" /> : null}
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm text-slate-700">Your role</span>
            <Badge variant={dataroom.isOwner ? "brand" : "neutral"}>{ROLE_LABELS[dataroom.role]}</Badge>
            {dataroom.archived ? <Badge variant="warning">Archived</Badge> : null}
          </div>
          {dataroom.description ? <p className="max-w-3xl text-sm text-slate-700">{dataroom.description}</p> : null}
          {!dataroom.isOwner ? <p className="text-xs text-slate-600">Owned by {dataroom.owner.name}</p> : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={`/dataroom/${dataroom.id}/users`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
            People
          </a>
          <a href={`/dataroom/${dataroom.id}/recent-uploads`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Recent uploads
          </a>
          <a href={`/dataroom/${dataroom.id}/tags`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Tags
          </a>
          <a href={`/dataroom/${dataroom.id}/duplicates`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Duplicates
          </a>
          <a href={`/dataroom/${dataroom.id}/metadata`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Metadata
          </a>
          {dataroom.permissions.view_analytics ? (
            <a href={`/dataroom/${dataroom.id}/analytics`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              Analytics
            </a>
          ) : null}
          {dataroom.permissions.view_audit_log ? (
            <a href={`/dataroom/${dataroom.id}/activities`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              Activities
            </a>
          ) : null}
          {dataroom.permissions.manage_settings ? (
            <a href={`/dataroom/${dataroom.id}/profile`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              Room profile
            </a>
          ) : null}
          {dataroom.permissions.manage_settings ? (
            <a href={`/dataroom/${dataroom.id}/settings`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              Settings
            </a>
          ) : null}
          {dataroom.permissions.manage_settings ? (
            <a href={`/dataroom/${dataroom.id}/security`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              Security
            </a>
          ) : null}
        </div>
      </header>
      {dataroom.archived ? <Alert variant="info">This data room is archived and read-only. Its files can be opened and downloaded, not changed.</Alert> : null}
      <FolderBrowser page={page} canUploadFolders={canUploadFolders} view={view} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
