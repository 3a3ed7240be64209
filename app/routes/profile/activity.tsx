import { Card } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { listSessions } from "~/features/auth/account.server";
import { ACTIVITY_PAGE_SIZE, describeDevice, listOwnActivity } from "~/features/auth/activity.server";
import { activityLabel, summarizeActivity } from "~/features/auth/activity-labels";
import { formatWhen } from "~/features/auth/auth-context.server";
import { SettingsHeader } from "~/features/auth/components/settings-frame";
import { authCallFor, requireMember } from "~/features/auth/auth-guard.server";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/activity";

export const meta: Route.MetaFunction = () => titleMeta("Activity");

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Dates are formatted on the server ("2026-11-21 20:55 UTC") so the server and browser render the same text. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const member = requireMember(context, request);
  const call = authCallFor(context, request);
  const [events, sessions] = await Promise.all([listOwnActivity(call.ctx, member.user.id), listSessions(call, member)]);
  return {
    pageSize: ACTIVITY_PAGE_SIZE,
    summary: { ...summarizeActivity(events), activeSessions: sessions.length },
    events: events.map((event) => ({
      id: event.id,
      type: event.type,
      when: formatWhen(event.createdAt),
      label: activityLabel(event.type),
      detail: event.detail,
      device: capitalize(describeDevice(event.userAgent)),
      ipAddress: event.ipAddress ?? "Unknown",
    })),
  };
}

function SummaryItem({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    // A <dl> may hold its dt/dd pairs in a <div> each, and nothing deeper: the card is that div.
    <Card className="px-5 py-4 text-sm text-slate-700">
      <dt className="text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </Card>
  );
}

export default function ActivityPage({ loaderData }: Route.ComponentProps) {
  const { pageSize, summary, events } = loaderData;
  return (
    <>
      <SettingsHeader
        title="Activity"
        description={`The last ${pageSize} events on your account: sign-ins, failed attempts and security changes.`}
      />
      <section aria-labelledby="activity-summary-heading">
        <h2 id="activity-summary-heading" className="sr-only">
          Summary
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <SummaryItem label="Sign-ins" value={summary.signIns} testId="summary-sign-ins" />
          <SummaryItem label="Failed attempts" value={summary.failedAttempts} testId="summary-failed-attempts" />
          <SummaryItem label="Two-factor changes" value={summary.twoFactorChanges} testId="summary-two-factor-changes" />
          <SummaryItem label="Active sessions" value={summary.activeSessions} testId="summary-active-sessions" />
        </dl>
      </section>
      {events.length === 0 ? (
        <p className="text-sm text-slate-700" data-testid="activity-empty">
          No account activity yet.
        </p>
      ) : (
        <Table caption="Recent account activity">
          <TableHead>
            <TableRow>
              <TableHeaderCell>When</TableHeaderCell>
              <TableHeaderCell>Event</TableHeaderCell>
              <TableHeaderCell>Device</TableHeaderCell>
              <TableHeaderCell>IP address</TableHeaderCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {events.map((event) => (
              <TableRow key={event.id} data-testid="activity-row" data-event-type={event.type}>
                <TableCell className="whitespace-nowrap">{event.when}</TableCell>
                <TableCell>
                  <span className="font-medium text-slate-900">{event.label}</span>
                  {event.detail ? <span className="block text-xs text-slate-600">{event.detail}</span> : null}
                </TableCell>
                <TableCell>{event.device}</TableCell>
                <TableCell>{event.ipAddress}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}
