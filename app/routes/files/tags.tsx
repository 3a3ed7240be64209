import { ErrorPage } from "~/components/error-page";
import { TagIndexView } from "~/features/files/components/tag-index-view";
import { getTagIndex } from "~/features/files/organize.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/tags";

export const meta: Route.MetaFunction = () => titleMeta("Tags");

/** Every tag of the member's spaces with its count; ?tag=x lists that tag's files (keyset by name). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const params = new URL(request.url).searchParams;
  const query = { tag: params.get("tag") ?? undefined, cursor: params.get("cursor") ?? undefined };
  return runLoader(async () => ({ index: await getTagIndex(serviceContextFor(context), user.id, query), isFirstPage: query.cursor === undefined }));
}

export default function TagsPage({ loaderData }: Route.ComponentProps) {
  const { index, isFirstPage } = loaderData;
  return <TagIndexView index={index} isFirstPage={isFirstPage} basePath="/files/tags" description="Every tag used in your spaces, with the number of files that carry it." />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
