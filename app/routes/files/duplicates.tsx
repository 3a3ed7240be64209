import { ErrorPage } from "~/components/error-page";
import { checkFeature } from "~/features/access/access-check";
import { loadMemberAccess } from "~/features/access/access.server";
import { DuplicateGroups, LockedDuplicates } from "~/features/files/components/duplicate-groups";
import { PageHeader } from "~/features/files/components/organized-file-table";
import { getDuplicates } from "~/features/files/organize.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/duplicates";

export const meta: Route.MetaFunction = () => titleMeta("Duplicates");

/**
 * Groups of files with the same content (SHA-256) within a space. Plans without
 * `advanced_features` get the page with the feature locked instead of a refusal page.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const ctx = serviceContextFor(context);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  return runLoader(async () => {
    const access = await loadMemberAccess(ctx, user.id);
    if (!checkFeature(access, "advanced_features")) return { isLocked: true as const, page: null, isFirstPage: true };
    return { isLocked: false as const, page: await getDuplicates(ctx, user.id, { cursor }), isFirstPage: cursor === undefined };
  });
}

const description = "Files with exactly the same content in the same space. Keep one copy of each to free the space the others take.";

export default function DuplicatesPage({ loaderData }: Route.ComponentProps) {
  const { isLocked, page, isFirstPage } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader title="Duplicates" description={description} />
      {isLocked || !page ? (
        <LockedDuplicates />
      ) : (
        <DuplicateGroups page={page} isFirstPage={isFirstPage} firstHref="/files/duplicates" emptyText="No duplicates: every file in your spaces has different content." />
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
