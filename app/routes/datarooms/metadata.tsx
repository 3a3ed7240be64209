import { ErrorPage } from "~/components/error-page";
import { getRoomMetadataIndex } from "~/features/datarooms/room-files.server";
import { CountChip } from "~/features/files/components/count-chip";
import { EmptyState, KeysetPager, OrganizedFileTable } from "~/features/files/components/organized-file-table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/metadata";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Metadata of ${loaderData.room.name}` : "Metadata") }];

/** /dataroom/{id}/metadata: the metadata keys of the room's files; ?key= (and ?value=) lists their files with the value (view; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const search = new URL(request.url).searchParams;
  const query = { key: search.get("key") ?? undefined, value: search.get("value") ?? undefined, cursor: search.get("cursor") ?? undefined };
  return runLoader(async () => {
    const { room, index } = await getRoomMetadataIndex(serviceContextFor(context), user.id, params.id, query);
    return { room: { id: room.id, name: room.name, archived: room.archived }, index, isFirstPage: query.cursor === undefined };
  });
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export default function DataroomMetadataPage({ loaderData }: Route.ComponentProps) {
  const { room, index, isFirstPage } = loaderData;
  const base = `/dataroom/${room.id}/metadata`;
  const keyHref = (key: string) => `${base}?key=${encodeURIComponent(key)}`;
  const valueHref = (key: string, value: string) => `${keyHref(key)}&value=${encodeURIComponent(value)}`;
  const listHref = index.key ? (index.value !== null ? valueHref(index.key, index.value) : keyHref(index.key)) : base;
  const values = new Map(index.files.map((file) => [file.id, file.value]));
  return (
    <div className="space-y-8">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Metadata</h1>
        <p className="max-w-3xl text-sm text-slate-700">
          The fields set on this room's files (a file's details hold them): each field with how many files carry it and how many different values it has. Choose one to
          see its files and their values.
        </p>
      </div>
      <section aria-labelledby="fields-heading" className="space-y-3">
        <h2 id="fields-heading" className="text-lg font-semibold text-slate-900">
          Fields
        </h2>
        {index.keys.length === 0 ? (
          <EmptyState>No file in this room has metadata yet. Open a file and add fields in its details.</EmptyState>
        ) : (
          <ul className="flex flex-wrap gap-2" data-testid="metadata-keys">
            {index.keys.map(({ key, files, values: valueCount }) => (
              <li key={key} className="max-w-full">
                <CountChip
                  to={keyHref(key)}
                  label={key}
                  count={files}
                  countText={`${files === 1 ? "file" : "files"}, ${plural(valueCount, "value", "values")}`}
                  isCurrent={key === index.key}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      {index.key ? (
        <section aria-labelledby="field-files-heading" className="space-y-4">
          <h2 id="field-files-heading" className="text-lg font-semibold text-slate-900">
            {index.value !== null ? `Files with “${index.key}” set to “${index.value}”` : `Files with “${index.key}”`}
          </h2>
          {index.values.length > 0 ? (
            <nav aria-label={`Values of ${index.key}`}>
              <ul className="flex flex-wrap gap-2" data-testid="metadata-values">
                <li>
                  <CountChip to={keyHref(index.key)} label="Any value" isCurrent={index.value === null} />
                </li>
                {index.values.map(({ value, files }) => (
                  <li key={value} className="max-w-full">
                    <CountChip to={valueHref(index.key!, value)} label={value || "(empty)"} count={files} countText={files === 1 ? "file" : "files"} isCurrent={value === index.value} />
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {index.files.length === 0 ? (
            <EmptyState>{isFirstPage ? "No file of this room carries this field." : "No more files."}</EmptyState>
          ) : (
            <OrganizedFileTable
              caption={`Files with the field ${index.key}`}
              files={index.files}
              actionHeader={index.key}
              action={(file) => <span className="whitespace-pre-wrap break-words text-slate-700">{values.get(file.id) || "(empty)"}</span>}
            />
          )}
          <KeysetPager nextHref={index.nextCursor ? `${listHref}&cursor=${encodeURIComponent(index.nextCursor)}` : null} isFirstPage={isFirstPage} firstHref={listHref} />
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
