import { Form, useNavigation } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { IntentForm } from "~/components/intent-form";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { HeaderRow, Table, TableBody, TableCell, TableRow } from "~/components/ui/table";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { describeDevice } from "~/features/auth/activity.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { AUDIT_ACTIONS } from "~/features/datarooms/audit.constants";
import { listRoomAudit, verifyRoomAudit } from "~/features/datarooms/audit.server";
import { runFormAction, runLoader } from "~/lib/action-result.server";
import { serviceContextFor } from "~/lib/request-context.server";
import { formatUtc } from "~/lib/format-utc";
import { pageTitle } from "~/lib/title";
import type { Route } from "./+types/activities";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData ? `Activities of ${loaderData.room.name}` : "Data room activities") }];

const FILTERS = ["person", "action", "target", "from", "to"] as const;
const COLUMNS = ["#", "When", "Person", "Action", "About", "Details", "From"];

/** /dataroom/{id}/activities: the room's audit log (view_audit_log, the owner's plan with audit_logs; outsiders 404). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const url = new URL(request.url);
  const query = Object.fromEntries(url.searchParams);
  return runLoader(async () => {
    const page = await listRoomAudit(serviceContextFor(context), user.id, params.id, query);
    const filters = Object.fromEntries(FILTERS.map((name) => [name, url.searchParams.get(name) ?? ""])) as Record<(typeof FILTERS)[number], string>;
    return {
      room: { id: page.room.id, name: page.room.name },
      people: page.people,
      nextCursor: page.nextCursor,
      filters,
      entries: page.entries.map((entry) => ({ ...entry, when: formatUtc(entry.at, { seconds: true }), device: entry.userAgent ? describeDevice(entry.userAgent) : null })),
    };
  });
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

export async function action({ context, request, params }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  return runFormAction(async () => ({ ok: true as const, verification: await verifyRoomAudit(serviceContextFor(context), user.id, params.id) }), { intent: "verify" });
}

export default function DataroomActivitiesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { room, people, entries, nextCursor, filters } = loaderData;
  const navigation = useNavigation();
  const isVerifying = navigation.state === "submitting" && navigation.formData?.get("intent") === "verify";
  const verification = actionData && "verification" in actionData ? actionData.verification : null;
  const failure = actionData && "ok" in actionData && actionData.ok === false ? actionData.message : null;
  const active = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== ""));
  const withCursor = new URLSearchParams(active);
  if (nextCursor) withCursor.set("cursor", nextCursor);
  const targetName = filters.target ? (entries.find((entry) => entry.targetId === filters.target)?.targetName ?? "one item") : null;
  const withoutTarget = new URLSearchParams(active);
  withoutTarget.delete("target");

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">Activities</h1>
        <p className="max-w-3xl text-sm text-slate-700">
          The room's audit log: every view, download, change and refusal, who did it, when and from where. Entries cannot be changed: each holds the fingerprint
          of the one before, so Verify can prove nothing was altered or removed.
        </p>
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <IntentForm intent="verify">
          <Button type="submit" variant="secondary" isLoading={isVerifying}>
            {isVerifying ? "Verifying..." : "Verify the log"}
          </Button>
        </IntentForm>
        <a href={`/api/datarooms/${room.id}/audit/export${active.size > 0 ? `?${active.toString()}` : ""}`} download className={buttonClassName({ variant: "secondary" })}>
          Export CSV
        </a>
      </div>
      {verification?.ok ? (
        <Alert variant="success" title="The log is intact">
          {verification.completeFrom ? (
            <>
              The log is complete from entry #{verification.completeFrom.seq}
              {verification.completeFrom.at ? ` (${dateFormat.format(new Date(verification.completeFrom.at))})` : ""}: the {verification.completeFrom.seq - 1} entries before it were
              recorded before {dateFormat.format(new Date(verification.completeFrom.cutoffAt))} and removed on {dateFormat.format(new Date(verification.completeFrom.prunedAt))} under the
              team's retention policy, as the log itself records. The {verification.kept} entries since are as they were recorded, each linked to the one before.{" "}
            </>
          ) : (
            <>All {verification.entries} entries are as they were recorded, each linked to the one before. </>
          )}
          Last fingerprint: <code>{verification.headHash.slice(0, 16)}…</code>
        </Alert>
      ) : null}
      {verification && !verification.ok ? (
        <Alert variant="error" title={`The log is broken at entry #${verification.brokenAt}`}>
          {verification.message}
        </Alert>
      ) : null}
      {failure ? <Alert variant="error">{failure}</Alert> : null}

      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter the log">
        <label className="block w-56 text-sm font-medium text-slate-900">
          Person
          <select name="person" defaultValue={filters.person} className={nativeSelectClassName}>
            <option value="">Anyone</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.email ?? person.id}
              </option>
            ))}
          </select>
        </label>
        <label className="block w-56 text-sm font-medium text-slate-900">
          Action
          <select name="action" defaultValue={filters.action} className={nativeSelectClassName}>
            <option value="">Any action</option>
            {Object.entries(AUDIT_ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-900">
          From
          <input type="date" name="from" defaultValue={filters.from} className={nativeSelectClassName} />
        </label>
        <label className="block text-sm font-medium text-slate-900">
          To
          <input type="date" name="to" defaultValue={filters.to} className={nativeSelectClassName} />
        </label>
        {filters.target ? <input type="hidden" name="target" value={filters.target} /> : null}
        <Button type="submit">Apply</Button>
        {active.size > 0 ? (
          <a href={`/dataroom/${room.id}/activities`} className={buttonClassName({ variant: "ghost" })}>
            Clear filters
          </a>
        ) : null}
      </Form>
      {targetName ? (
        <p className="text-sm text-slate-700">
          Only entries about <strong>{targetName}</strong>.{" "}
          <a href={`?${withoutTarget.toString()}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
            Show every item
          </a>
        </p>
      ) : null}

      {entries.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-slate-700">
          {active.size > 0 ? "No entry matches these filters." : "Nothing has happened in this room yet."}
        </div>
      ) : (
        <Table caption={`Audit log of ${room.name}, newest first`} isCaptionHidden>
          <HeaderRow columns={COLUMNS} />
          <TableBody>
            {entries.map((entry) => {
              const onlyThis = new URLSearchParams(active);
              if (entry.targetId) onlyThis.set("target", entry.targetId);
              return (
                <TableRow key={entry.seq} data-testid="audit-row">
                  <TableCell className="text-slate-600">{entry.seq}</TableCell>
                  <TableCell className="whitespace-nowrap">{entry.when}</TableCell>
                  <TableCell className="text-slate-900">{entry.actorEmail ?? "Someone"}</TableCell>
                  <TableCell className="text-slate-900">
                    <span className="flex flex-wrap items-center gap-2">
                      {entry.actionLabel}
                      {entry.outcome === "refused" ? <Badge variant="danger">Refused</Badge> : null}
                    </span>
                  </TableCell>
                  <TableCell className="text-slate-900">
                    {entry.targetName && entry.targetId && (entry.targetType === "file" || entry.targetType === "folder") ? (
                      <a href={`?${onlyThis.toString()}`} className="font-medium text-brand-700 underline-offset-2 hover:underline" title="Only entries about this item">
                        {entry.targetName}
                      </a>
                    ) : (
                      (entry.targetName ?? "")
                    )}
                  </TableCell>
                  <TableCell className="max-w-xs break-words">{entry.detail ?? ""}</TableCell>
                  <TableCell>
                    {entry.ip ?? ""}
                    {entry.device ? <span className="block text-xs text-slate-600">{entry.device}</span> : null}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      {nextCursor ? (
        <div className="flex justify-center">
          <a href={`?${withCursor.toString()}`} className={buttonClassName({ variant: "secondary" })}>
            Older entries
          </a>
        </div>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
