import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Restricted } from "~/features/access/components/restricted";
import { formatBytes } from "../files.constants";
import type { DuplicatesPage } from "../organize.server";
import { EmptyState, KeysetPager, OrganizedFileTable } from "./organized-file-table";

/** Duplicate groups (files with the same content in one space), for /files/duplicates and a room's duplicates page. */

export function LockedDuplicates() {
  return (
    <Card className="space-y-3 p-6" data-testid="duplicates-locked">
      <h2 className="text-lg font-semibold text-slate-900">Duplicate detection is part of the Pro plan</h2>
      <p className="text-sm text-slate-700">
        Every upload is fingerprinted, so files with the same content are found wherever they were put. Upgrade to see them here.
      </p>
      <Restricted feature="advanced_features" label="Find duplicates">
        <Button>Find duplicates</Button>
      </Restricted>
    </Card>
  );
}

export function DuplicateGroups({ page, isFirstPage, firstHref, emptyText }: { page: DuplicatesPage; isFirstPage: boolean; firstHref: string; emptyText: string }) {
  const { summary } = page;
  if (summary.groups === 0) return <EmptyState>{emptyText}</EmptyState>;
  return (
    <>
      <p className="text-sm text-slate-900" data-testid="duplicates-summary">
        <strong>{summary.groups}</strong> {summary.groups === 1 ? "set" : "sets"} of identical files ({summary.files} files).{" "}
        <strong>{formatBytes(summary.reclaimable)}</strong> could be freed by keeping one copy of each.
      </p>
      <ol className="space-y-4">
        {page.groups.map((group) => {
          const first = group.files[0];
          const title = first ? first.name : group.sha256.slice(0, 12);
          const headingId = `group-${group.space.id}-${group.sha256}`;
          return (
            <li key={`${group.space.id}:${group.sha256}`}>
              <Card className="space-y-3 p-4" data-testid="duplicate-group" aria-labelledby={headingId} role="group">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 id={headingId} className="break-all font-semibold text-slate-900">
                    {title}
                  </h2>
                  <p className="text-sm text-slate-700">
                    {group.copies} copies of {formatBytes(group.size)} in {group.space.name} · {formatBytes(group.reclaimable)} could be saved
                  </p>
                </div>
                <OrganizedFileTable caption={`Copies of ${title}`} files={group.files} rowTestId="duplicate-file" />
                {group.files.length < group.copies ? (
                  <p className="text-xs text-slate-600">Showing the {group.files.length} oldest of {group.copies} copies.</p>
                ) : null}
              </Card>
            </li>
          );
        })}
      </ol>
      <KeysetPager
        nextHref={page.nextCursor ? `?cursor=${encodeURIComponent(page.nextCursor)}` : null}
        isFirstPage={isFirstPage}
        firstHref={firstHref}
      />
    </>
  );
}

