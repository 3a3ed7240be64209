import { Link } from "react-router";
import { IntentForm } from "~/components/intent-form";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { CountChip } from "~/features/files/components/count-chip";
import { EmptyState, KeysetPager, dateTimeFormat } from "~/features/files/components/organized-file-table";
import type { NotificationPage } from "../notifications.server";

/**
 * A member's notifications (a room's, or those outside rooms): All / Unread, newest first with a
 * keyset pager, each with Mark as read / unread, and Mark all as read. Its forms post to the page's
 * action with the intents "read" and "unread".
 */
export function NotificationList({
  page,
  base,
  isFirstPage,
  busyIntent,
  emptyText,
}: {
  page: Pick<NotificationPage, "notifications" | "unread" | "filter" | "nextCursor">;
  base: string;
  isFirstPage: boolean;
  busyIntent: string | null;
  emptyText: string;
}) {
  const { notifications, unread, filter, nextCursor } = page;
  const filterHref = (value: string) => `${base}?filter=${value}`;
  return (
      <section aria-labelledby="list-heading" className="min-w-0 space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="list-heading" className="text-lg font-semibold text-slate-900">
            {unread === 0 ? "Nothing unread" : `${unread} unread`}
          </h2>
          {unread > 0 ? (
            <IntentForm intent="read" fields={{ ids: "all" }}>
              <Button type="submit" variant="secondary" size="sm" isLoading={busyIntent === "read"}>
                Mark all as read
              </Button>
            </IntentForm>
          ) : null}
        </div>
        <nav aria-label="Which notifications">
          <ul className="flex flex-wrap gap-2">
            <li>
              <CountChip to={filterHref("all")} label="All" isCurrent={filter === "all"} />
            </li>
            <li>
              <CountChip to={filterHref("unread")} label="Unread" count={unread} countText="unread" isCurrent={filter === "unread"} />
            </li>
          </ul>
        </nav>
        {notifications.length === 0 ? (
          <EmptyState>{!isFirstPage ? "No more notifications." : filter === "unread" ? "You have read everything." : emptyText}</EmptyState>
        ) : (
          <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Notifications">
            {notifications.map((item) => (
              <li key={item.id} className="flex flex-wrap items-start justify-between gap-3 p-4" data-testid="notification" data-read={item.read}>
                <div className="min-w-0 space-y-1">
                  <p className="flex flex-wrap items-center gap-2">
                    {!item.read ? <Badge variant="brand">Unread</Badge> : null}
                    <Link to={item.link} className={item.read ? "text-slate-800 underline-offset-2 hover:underline" : "font-semibold text-brand-700 underline-offset-2 hover:underline"}>
                      {item.title}
                    </Link>
                  </p>
                  {item.excerpt ? <p className="whitespace-pre-wrap break-words text-sm text-slate-700">“{item.excerpt}”</p> : null}
                  <p className="text-xs text-slate-600">{dateTimeFormat.format(new Date(item.createdAt))} UTC</p>
                </div>
                <IntentForm intent={item.read ? "unread" : "read"} fields={{ id: item.id }}>
                  <Button type="submit" variant="ghost" size="sm" aria-label={`${item.read ? "Mark as unread" : "Mark as read"}: ${item.title}`}>
                    {item.read ? "Mark as unread" : "Mark as read"}
                  </Button>
                </IntentForm>
              </li>
            ))}
          </ol>
        )}
        <KeysetPager nextHref={nextCursor ? `${filterHref(filter)}&cursor=${encodeURIComponent(nextCursor)}` : null} isFirstPage={isFirstPage} firstHref={filterHref(filter)} />
      </section>
  );
}
