import { ErrorPage } from "~/components/error-page";
import { EmptyState, KeysetPager, OrganizedFileTable, PageHeader } from "~/features/files/components/organized-file-table";
import { getRecentUploads } from "~/features/files/organize.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { currentWorkspace } from "~/features/teams/workspace.server";
import type { Route } from "./+types/recent";

export const meta: Route.MetaFunction = () => titleMeta("Recent uploads");

/** The newest files across every space the member belongs to, a page at a time (keyset). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    // The workspace chosen in the shell (issue 42): the team's drive and rooms, or the member's own spaces.
    const workspace = await currentWorkspace(ctx, user.id, request);
    return {
      page: await getRecentUploads(ctx, user.id, { cursor }, workspace?.id ?? null),
      isFirstPage: cursor === undefined,
      workspace: workspace ? { name: workspace.name } : null,
    };
  });
}

export default function RecentUploadsPage({ loaderData }: Route.ComponentProps) {
  const { page, isFirstPage, workspace } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Recent uploads"
        description={workspace ? `The newest files in the files and data rooms of the team “${workspace.name}”, newest first.` : "The newest files in your own files and data rooms, newest first."}
      />
      {page.files.length === 0 ? (
        <EmptyState>{isFirstPage ? "Nothing uploaded yet." : "No more files."}</EmptyState>
      ) : (
        <OrganizedFileTable caption="Recent uploads" files={page.files} />
      )}
      <KeysetPager
        nextHref={page.nextCursor ? `?cursor=${encodeURIComponent(page.nextCursor)}` : null}
        isFirstPage={isFirstPage}
        firstHref="/files/recent"
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
