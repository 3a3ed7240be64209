import { ErrorPage } from "~/components/error-page";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { getRoomCollaboration } from "~/features/datarooms/collaboration.server";
import { RoomLiveUpdates } from "~/features/datarooms/components/room-live-updates";
import { EmptyState, dateTimeFormat } from "~/features/files/components/organized-file-table";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/collaboration";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Collaboration in ${loaderData.room.name}` : "Collaboration") }];

/** /dataroom/{id}/collaboration: who is working in the room now and lately, and its latest changes (view; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  return runLoader(async () => {
    const { room, ...rest } = await getRoomCollaboration(serviceContextFor(context), user.id, params.id);
    return { room: { id: room.id, name: room.name, archived: room.archived }, ...rest };
  });
}

const at = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;

export default function DataroomCollaborationPage({ loaderData }: Route.ComponentProps) {
  const { room, activeNow, recentlyActive, changes } = loaderData;
  const targetHref = (target: (typeof changes)[number]["target"]) =>
    target.id && target.type === "file" ? `/files/${target.id}` : target.id && target.type === "folder" ? `/dataroom/${room.id}/folders/${target.id}` : null;
  return (
    <div className="space-y-8">
      <RoomLiveUpdates roomId={room.id} reloadOnPresence reloadOn={["files.changed", "comments.changed"]} />
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Collaboration</h1>
        <p className="max-w-3xl text-sm text-slate-700">Who is working in this room and what changed lately. It updates as people come and go and as files change.</p>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <section aria-labelledby="now-heading" className="space-y-3">
          <h2 id="now-heading" className="text-lg font-semibold text-slate-900">
            Here now
          </h2>
          {activeNow.length === 0 ? (
            <p className="text-sm text-slate-700">Nobody else has the room open right now.</p>
          ) : (
            <ul className="space-y-2" data-testid="active-now">
              {activeNow.map((person) => (
                <li key={person.userId} className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="inline-block h-2 w-2 rounded-full bg-emerald-600" aria-hidden="true" />
                  <span className="font-medium text-slate-900">
                    {person.name}
                    {person.isYou ? " (you)" : ""}
                  </span>
                  <Badge>{person.roleLabel}</Badge>
                  <span className="text-slate-600">since {at(person.since)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="lately-heading" className="space-y-3">
          <h2 id="lately-heading" className="text-lg font-semibold text-slate-900">
            Active this week
          </h2>
          {recentlyActive.length === 0 ? (
            <p className="text-sm text-slate-700">Nobody else opened the room in the last 7 days.</p>
          ) : (
            <ul className="space-y-2" data-testid="recently-active">
              {recentlyActive.map((person) => (
                <li key={person.userId} className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="font-medium text-slate-900">
                    {person.name}
                    {person.isYou ? " (you)" : ""}
                  </span>
                  <Badge>{person.roleLabel}</Badge>
                  <span className="text-slate-600">last seen {at(person.lastSeenAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <section aria-labelledby="changes-heading" className="space-y-3">
        <h2 id="changes-heading" className="text-lg font-semibold text-slate-900">
          Recent changes
        </h2>
        {changes.length === 0 ? (
          <EmptyState>Nothing has changed in this room yet. Uploads, moves, renames, deletions, folders, comments and people joining show up here.</EmptyState>
        ) : (
          <Table caption="Recent changes in this room" isCaptionHidden>
            <TableHead>
              <TableRow>
                <TableHeaderCell>When</TableHeaderCell>
                <TableHeaderCell>Who</TableHeaderCell>
                <TableHeaderCell>What</TableHeaderCell>
                <TableHeaderCell>Item</TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.map((change) => {
                const href = targetHref(change.target);
                return (
                  <TableRow key={change.seq} data-testid="recent-change">
                    <TableCell className="whitespace-nowrap text-slate-700">{at(change.at)}</TableCell>
                    <TableCell>{change.who}</TableCell>
                    <TableCell>{change.actionLabel}</TableCell>
                    <TableCell className="break-words">
                      {href ? (
                        <a href={href} className="text-brand-700 underline-offset-2 hover:underline">
                          {change.target.name ?? "Open"}
                        </a>
                      ) : (
                        (change.target.name ?? "")
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
