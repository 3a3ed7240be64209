import { redirect, useSearchParams } from "react-router";
import { loadMemberAccess } from "~/features/access/access.server";
import { checkFeature } from "~/features/access/access-check";
import { FolderBrowser, folderHref, type ViewMode } from "~/features/files/components/folder-browser";
import { getFolderPage } from "~/features/files/folders.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/folder";

export const meta: Route.MetaFunction = ({ loaderData: data }) => [
  { title: pageTitle(data ? data.page.folder.label : "Folder") },
];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  return runLoader(async () => {
    const [page, access] = await Promise.all([getFolderPage(ctx, member.user.id, params.uid, query), loadMemberAccess(ctx, member.user.id)]);
    // A data room's folder lives under the room's address (with its header and live updates).
    if (page.dataroomId) throw redirect(`${folderHref(page, page.folder.uid)}${new URL(request.url).search}`);
    return { page, canUploadFolders: checkFeature(access, "bulk_upload") };
  });
}

export default function FolderRoute({ loaderData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const view: ViewMode = searchParams.get("view") === "grid" ? "grid" : "list";
  return <FolderBrowser page={loaderData.page} canUploadFolders={loaderData.canUploadFolders} view={view} />;
}
