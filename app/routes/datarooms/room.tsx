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
import { unreadCountFor } from "~/features/notifications/notifications.server";
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
    const [page, access, unread] = await Promise.all([getFolderPage(ctx, user.id, folderId ?? rootFolderId, query), loadMemberAccess(ctx, user.id), unreadCountFor(ctx, user.id, dataroom.id)]);
    if (page.folder.spaceId !== dataroom.id) throw new AppError("NOT_FOUND", "This folder does not exist in this data room.");
    return { dataroom, page, canUploadFolders: checkFeature(access, "bulk_upload"), unread };
  });
}

export default function DataroomPage({ loaderData }: Route.ComponentProps) {
  const { dataroom, page, canUploadFolders, unread } = loaderData;
  const { permissions } = dataroom;
  const roomLinks: { path: string; label: string }[] = [
    { path: "users", label: "People" },
    { path: "collaboration", label: "Collaboration" },
    { path: "comments", label: "Comments" },
    { path: "notifications", label: unread > 0 ? `Notifications (${unread})` : "Notifications" },
    { path: "recent-uploads", label: "Recent uploads" },
    { path: "tags", label: "Tags" },
    { path: "metadata", label: "Metadata" },
    { path: "duplicates", label: "Duplicates" },
    ...(permissions.share ? [{ path: "sharing", label: "Sharing" }] : []),
    ...(permissions.view_analytics ? [{ path: "analytics", label: "Analytics" }] : []),
    ...(permissions.view_audit_log ? [{ path: "activities", label: "Activities" }] : []),
    ...(permissions.manage_settings
      ? [
          { path: "profile", label: "Room profile" },
          { path: "settings", label: "Settings" },
          { path: "security", label: "Security" },
        ]
      : []),
  ];
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
        <nav aria-label="Room pages" className="flex flex-wrap gap-2">
          {roomLinks.map((link) => (
            <a key={link.path} href={`/dataroom/${dataroom.id}/${link.path}`} className={buttonClassName({ variant: "secondary", size: "sm" })}>
              {link.label}
            </a>
          ))}
        </nav>
      </header>
      {dataroom.archived ? <Alert variant="info">This data room is archived and read-only. Its files can be opened and downloaded, not changed.</Alert> : null}
      <FolderBrowser page={page} canUploadFolders={canUploadFolders} view={view} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
