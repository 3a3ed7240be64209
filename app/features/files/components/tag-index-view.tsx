import type { ReactNode } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Restricted } from "~/features/access/components/restricted";
import { useFeature } from "~/features/access/user-store";
import type { TagIndex } from "../organize.server";
import { CountChip } from "./count-chip";
import { EmptyState, KeysetPager, OrganizedFileTable, PageHeader } from "./organized-file-table";

/**
 * A tag index: every tag with its count, and with a tag chosen, its files (keyset). The member's
 * own /files/tags and a data room's /dataroom/{id}/tags (its tags only) draw the same view.
 */
export function TagIndexView({
  index,
  isFirstPage,
  basePath,
  description,
  header,
}: {
  index: TagIndex;
  isFirstPage: boolean;
  basePath: string;
  description: string;
  header?: ReactNode;
}) {
  const tagHref = (tag: string) => `${basePath}?tag=${encodeURIComponent(tag)}`;
  const canTag = useFeature("basic_editing");
  return (
    <div className="space-y-8">
      {header ?? <PageHeader title="Tags" description={description} />}
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
            {index.tags.map(({ tag, count }) => (
              <li key={tag}>
                <CountChip to={tagHref(tag)} label={tag} count={count} countText={count === 1 ? "file" : "files"} isCurrent={tag === index.tag} />
              </li>
            ))}
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

