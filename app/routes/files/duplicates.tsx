import { ErrorPage } from "~/components/error-page";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { checkFeature } from "~/features/access/access-check";
import { loadMemberAccess } from "~/features/access/access.server";
import { Restricted } from "~/features/access/components/restricted";
import { dateTimeFormat, EmptyState, FolderLink, KeysetPager, PageHeader } from "~/features/files/components/organized-file-table";
import { formatBytes } from "~/features/files/files.constants";
import { getDuplicates, type DuplicatesPage } from "~/features/files/organize.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/duplicates";
import { FileNameLink } from "~/features/files/components/file-name-link";

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
      {isLocked || !page ? <LockedDuplicates /> : <DuplicateGroups page={page} isFirstPage={isFirstPage} />}
    </div>
  );
}

function LockedDuplicates() {
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

function DuplicateGroups({ page, isFirstPage }: { page: DuplicatesPage; isFirstPage: boolean }) {
  const { summary } = page;
  if (summary.groups === 0) return <EmptyState>No duplicates: every file in your spaces has different content.</EmptyState>;
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
                <Table caption={`Copies of ${title}`} isCaptionHidden>
                  <TableHead>
                    <TableRow>
                      <TableHeaderCell>Name</TableHeaderCell>
                      <TableHeaderCell>Folder</TableHeaderCell>
                      <TableHeaderCell className="w-28">Size</TableHeaderCell>
                      <TableHeaderCell className="w-48">Added</TableHeaderCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {group.files.map((file) => (
                      <TableRow key={file.id} data-testid="duplicate-file">
                        <TableCell>
                          <FileNameLink file={file} />
                        </TableCell>
                        <TableCell>
                          <FolderLink folder={file.folder} spaceName={file.space.name} />
                        </TableCell>
                        <TableCell className="whitespace-nowrap text-slate-700">{formatBytes(file.size)}</TableCell>
                        <TableCell className="whitespace-nowrap text-slate-700">{dateTimeFormat.format(file.createdAt)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
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
        firstHref="/files/duplicates"
      />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
