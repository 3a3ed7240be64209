import { Link, useRevalidator } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { FavoriteButton } from "~/features/files/components/favorite-button";
import { FolderGlyph } from "~/features/files/components/folder-glyph";
import { EmptyState, OrganizedFileTable, PageHeader } from "~/features/files/components/organized-file-table";
import { listFavorites } from "~/features/files/organize.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/favorites";

export const meta: Route.MetaFunction = () => titleMeta("Favorites");

/** The member's own favorites: folders and files they starred that are still there for them. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => ({ favorites: await listFavorites(serviceContextFor(context), user.id) }));
}

export default function FavoritesPage({ loaderData }: Route.ComponentProps) {
  const { folders, files, limit } = loaderData.favorites;
  const revalidator = useRevalidator();
  // Un-starring here takes the item off the list.
  const onChange = (isFavorite: boolean) => {
    if (!isFavorite) void revalidator.revalidate();
  };
  const isEmpty = folders.length === 0 && files.length === 0;
  return (
    <div className="space-y-8">
      <PageHeader title="Favorites" description="Folders and files you starred, newest first. Only you see your favorites." />
      {isEmpty ? (
        <EmptyState>No favorites yet. Star a folder or a file to find it here.</EmptyState>
      ) : (
        <>
          <section aria-labelledby="favorite-folders-heading" className="space-y-3">
            <h2 id="favorite-folders-heading" className="text-lg font-semibold text-slate-900">
              Folders
            </h2>
            {folders.length === 0 ? (
              <p className="text-sm text-slate-700">No favorite folders.</p>
            ) : (
              <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="favorite-folders">
                {folders.map((folder) => (
                  <li key={folder.uid} className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-3">
                    <FolderGlyph color={folder.color} icon={folder.icon} kind={folder.kind} className="text-[28px]" />
                    <div className="min-w-0 flex-1">
                      <Link to={`/folders/${folder.uid}`} className="block truncate font-medium text-slate-900 hover:underline">
                        {folder.kind === "root" ? folder.spaceName : folder.label}
                      </Link>
                      <span className="block truncate text-xs text-slate-600">{folder.spaceName}</span>
                    </div>
                    <FavoriteButton itemType="folder" itemId={folder.uid} name={folder.label} initial onChange={onChange} />
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="favorite-files-heading" className="space-y-3">
            <h2 id="favorite-files-heading" className="text-lg font-semibold text-slate-900">
              Files
            </h2>
            {files.length === 0 ? (
              <p className="text-sm text-slate-700">No favorite files.</p>
            ) : (
              <OrganizedFileTable
                caption="Favorite files"
                files={files}
                action={(file) => <FavoriteButton itemType="file" itemId={file.id} name={file.name} initial onChange={onChange} />}
              />
            )}
          </section>
          {folders.length >= limit || files.length >= limit ? (
            <p className="text-sm text-slate-600">Showing your {limit} newest favorites of each kind.</p>
          ) : null}
        </>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
