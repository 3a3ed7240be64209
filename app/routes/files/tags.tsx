import { clsx } from "clsx";
import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Restricted } from "~/features/access/components/restricted";
import { useFeature } from "~/features/access/user-store";
import { EmptyState, KeysetPager, OrganizedFileTable, PageHeader } from "~/features/files/components/organized-file-table";
import { getTagIndex } from "~/features/files/organize.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/tags";

export const meta: Route.MetaFunction = () => titleMeta("Tags");

function tagHref(tag: string): string {
  return `/files/tags?tag=${encodeURIComponent(tag)}`;
}

/** Every tag of the member's spaces with its count; ?tag=x lists that tag's files (keyset by name). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const params = new URL(request.url).searchParams;
  const query = { tag: params.get("tag") ?? undefined, cursor: params.get("cursor") ?? undefined };
  return runLoader(async () => ({ index: await getTagIndex(serviceContextFor(context), user.id, query), isFirstPage: query.cursor === undefined }));
}

export default function TagsPage({ loaderData }: Route.ComponentProps) {
  const { index, isFirstPage } = loaderData;
  const canTag = useFeature("basic_editing");
  return (
    <div className="space-y-8">
      <PageHeader title="Tags" description="Every tag used in your spaces, with the number of files that carry it." />
      {!canTag ? (
        <Alert variant="info" title="Tagging is part of the Basic plan">
          <div className="flex flex-wrap items-center gap-3">
            <span>You can browse tags here; adding and changing them needs the Basic plan or above.</span>
            <Restricted feature="basic_editing" label="Tag files">
              <Button variant="secondary" size="sm">
                Tag files
              </Button>
            </Restricted>
          </div>
        </Alert>
      ) : null}
      <section aria-labelledby="all-tags-heading" className="space-y-3">
        <h2 id="all-tags-heading" className="text-lg font-semibold text-slate-900">
          All tags
        </h2>
        {index.tags.length === 0 ? (
          <EmptyState>No tags yet. Open a file and add tags in its details.</EmptyState>
        ) : (
          <ul className="flex flex-wrap gap-2" data-testid="tag-list">
            {index.tags.map(({ tag, count }) => {
              const isCurrent = tag === index.tag;
              return (
                <li key={tag}>
                  <Link
                    to={tagHref(tag)}
                    aria-current={isCurrent ? "page" : undefined}
                    aria-label={`${tag}: ${count} ${count === 1 ? "file" : "files"}`}
                    className={clsx(
                      "inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm ring-1",
                      "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
                      isCurrent ? "bg-brand-600 text-white ring-brand-600" : "bg-white text-slate-900 ring-slate-300 hover:bg-slate-50",
                    )}
                  >
                    <span>{tag}</span>
                    <span aria-hidden="true" className={clsx("rounded-full px-1.5 text-xs font-semibold", isCurrent ? "bg-white/20" : "bg-slate-100 text-slate-700")}>
                      {count}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      {index.tag ? (
        <section aria-labelledby="tagged-files-heading" className="space-y-3">
          <h2 id="tagged-files-heading" className="text-lg font-semibold text-slate-900">
            Files tagged “{index.tag}”
          </h2>
          {index.files.length === 0 ? (
            <EmptyState>{isFirstPage ? "No files carry this tag." : "No more files."}</EmptyState>
          ) : (
            <OrganizedFileTable caption={`Files tagged ${index.tag}`} files={index.files} />
          )}
          <KeysetPager
            nextHref={index.nextCursor ? `${tagHref(index.tag)}&cursor=${encodeURIComponent(index.nextCursor)}` : null}
            isFirstPage={isFirstPage}
            firstHref={tagHref(index.tag)}
          />
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
