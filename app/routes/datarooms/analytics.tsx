import { ErrorPage } from "~/components/error-page";
import { buttonClassName } from "~/components/ui/button";
import { HeaderRow, Table, TableBody, TableCell, TableRow } from "~/components/ui/table";
import { requireMember } from "~/features/auth/auth-guard.server";
import { ANALYTICS_RANGES } from "~/features/datarooms/analytics.constants";
import { getRoomAnalytics } from "~/features/datarooms/analytics.server";
import { OpeningsChart } from "~/features/datarooms/components/openings-chart";
import { runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { formatUtc } from "~/lib/format-utc";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/analytics";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Analytics of ${loaderData.room.name}` : "Data room analytics") }];

function formatWhen(ms: number | null): string {
  return ms === null ? "Never" : formatUtc(ms);
}

/** /dataroom/{id}/analytics: views and downloads by day, file and person, and who has not opened what (view_analytics; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const query = Object.fromEntries(new URL(request.url).searchParams);
  return runLoader(async () => {
    const analytics = await getRoomAnalytics(serviceContextFor(context), user.id, params.id, query);
    return {
      ...analytics,
      files: analytics.files.map((file) => ({ ...file, last: formatWhen(file.lastAt) })),
      people: analytics.people.map((person) => ({ ...person, last: formatWhen(person.lastAt) })),
    };
  });
}

const FILE_COLUMNS = ["File", "Views", "Downloads", "People", "Last opened"];
const PAGE_COLUMNS = ["Page", "Time on screen", "People"];

/** 95 000 ms → "1 min 35 s". */
function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
const PERSON_COLUMNS = ["Person", "Role", "Views", "Downloads", "Files opened", "Last opened"];

export default function DataroomAnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { room, days, totals, daily, files, people, pageTime } = loaderData;
  const waiting = people.filter((person) => person.notOpened.length > 0 && files.length > 0);
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Analytics</h1>
        <p className="max-w-3xl text-sm text-slate-700">
          Who opened and downloaded what, counted by the server as each file was sent (nothing a browser could inflate). The full record of every entry is in
          Activities.
        </p>
      </div>

      <nav aria-label="Period" className="flex flex-wrap items-center gap-2">
        {ANALYTICS_RANGES.map((range) => (
          <a key={range} href={`?days=${range}`} aria-current={range === days ? "true" : undefined} className={buttonClassName({ variant: range === days ? "primary" : "secondary", size: "sm" })}>
            Last {range} days
          </a>
        ))}
        <span className="ml-auto flex flex-wrap gap-2">
          <a href={`/api/datarooms/${room.id}/analytics/export?kind=files`} download className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Export files CSV
          </a>
          <a href={`/api/datarooms/${room.id}/analytics/export?kind=people`} download className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Export people CSV
          </a>
          <a href={`/api/datarooms/${room.id}/analytics/export?kind=pages`} download className={buttonClassName({ variant: "secondary", size: "sm" })}>
            Export page times CSV
          </a>
        </span>
      </nav>

      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {[
          { label: `Views, last ${days} days`, value: totals.views, id: "views" },
          { label: `Downloads, last ${days} days`, value: totals.downloads, id: "downloads" },
          { label: "People who opened a file", value: totals.viewers, id: "viewers" },
          { label: "Files in the room", value: totals.files, id: "files" },
        ].map((item) => (
          // A dl's items may be wrapped in one div each (and nothing deeper).
          <div key={item.id} className="rounded-lg border border-slate-200 bg-white px-5 py-4 shadow-sm">
            <dt className="text-sm text-slate-700">{item.label}</dt>
            <dd className="text-2xl font-semibold text-slate-900" data-testid={`total-${item.id}`}>
              {item.value}
            </dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="by-day" className="space-y-2">
        <h2 id="by-day" className="text-lg font-semibold text-slate-900">
          By day
        </h2>
        <OpeningsChart daily={daily} caption={`Views and downloads per day over the last ${days} days: ${totals.views} views and ${totals.downloads} downloads.`} />
      </section>

      <section aria-labelledby="by-file" className="space-y-2">
        <h2 id="by-file" className="text-lg font-semibold text-slate-900">
          Files
        </h2>
        {files.length === 0 ? (
          <p className="text-sm text-slate-700">This room has no files yet.</p>
        ) : (
          <Table caption="Views and downloads of each file, all time" isCaptionHidden>
            <HeaderRow columns={FILE_COLUMNS} />
            <TableBody>
              {files.map((file) => (
                <TableRow key={file.id} data-testid="file-stats">
                  <TableCell>
                    <a href={`/files/${file.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                      {file.name}
                    </a>
                  </TableCell>
                  <TableCell>{file.views}</TableCell>
                  <TableCell>{file.downloads}</TableCell>
                  <TableCell>{file.people}</TableCell>
                  <TableCell>{file.last}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>

      <section aria-labelledby="page-time" className="space-y-3">
        <h2 id="page-time" className="text-lg font-semibold text-slate-900">
          Time per page
        </h2>
        <p className="max-w-3xl text-sm text-slate-700">How long each page of a PDF was on screen in the room's viewer, as the viewer reported it, added up over everyone.</p>
        {pageTime.length === 0 ? (
          <p className="text-sm text-slate-700">No one has read a PDF in this room yet.</p>
        ) : (
          pageTime.map((file) => (
            <div key={file.id} className="space-y-1" data-testid="page-time">
              <h3 className="text-base font-medium text-slate-900">
                {file.name} <span className="text-sm font-normal text-slate-700">({formatDuration(file.totalMs)} in all)</span>
              </h3>
              <Table caption={`Time on screen per page of ${file.name}`} isCaptionHidden>
                <HeaderRow columns={PAGE_COLUMNS} />
                <TableBody>
                  {file.pages.map((page) => (
                    <TableRow key={page.page} data-testid="page-time-row">
                      <TableCell>{page.page}</TableCell>
                      <TableCell>{formatDuration(page.ms)}</TableCell>
                      <TableCell>{page.people}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          ))
        )}
      </section>

      <section aria-labelledby="by-person" className="space-y-2">
        <h2 id="by-person" className="text-lg font-semibold text-slate-900">
          People
        </h2>
        <Table caption="What each person in the room opened, all time" isCaptionHidden>
          <HeaderRow columns={PERSON_COLUMNS} />
          <TableBody>
            {people.map((person) => (
              <TableRow key={person.id} data-testid="person-stats">
                <TableCell className="text-slate-900">
                  {person.name}
                  <span className="block text-xs text-slate-600">{person.email}</span>
                </TableCell>
                <TableCell>{person.roleLabel}</TableCell>
                <TableCell>{person.views}</TableCell>
                <TableCell>{person.downloads}</TableCell>
                <TableCell>
                  {person.opened} of {files.length}
                </TableCell>
                <TableCell>{person.last}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </section>

      <section aria-labelledby="not-opened" className="space-y-2">
        <h2 id="not-opened" className="text-lg font-semibold text-slate-900">
          Not opened yet
        </h2>
        {waiting.length === 0 ? (
          <p className="text-sm text-slate-700">Everyone in the room has opened every file.</p>
        ) : (
          <ul className="space-y-2">
            {waiting.map((person) => (
              <li key={person.id} className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm" data-testid="not-opened">
                <span className="font-medium text-slate-900">{person.name}</span>
                <span className="text-slate-700">
                  {" "}
                  has not opened {person.notOpened.length === files.length ? "any file yet" : person.notOpened.map((file) => file.name).join(", ")}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
