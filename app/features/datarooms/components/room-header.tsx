import { clsx } from "clsx";
import { Badge } from "~/components/ui/badge";
import { ROLE_LABELS } from "../datarooms.permissions";
import type { RoomHeader as RoomHeaderData } from "../room-header.server";
import { roomPlace, visibleRoomTabs } from "../room-navigation";

const crumbClass = "font-medium text-brand-700 underline-offset-2 hover:underline";

/**
 * Above every page of a room (issue 36): where you are (Data rooms / room / page), the room's name,
 * logo, your role, and its six tabs; under the current tab, its pages when it has more than one.
 * Plain links: /dataroom/ pages load as whole documents (spec §2).
 */
export function RoomHeader({ room, pathname }: { room: RoomHeaderData; pathname: string }) {
  const tabs = visibleRoomTabs(room.id, room.permissions);
  const place = roomPlace(pathname);
  const currentTab = tabs.find((tab) => tab.id === place?.tab) ?? null;
  const currentPage = currentTab?.pages.find((page) => page.path === place?.path) ?? null;
  const unreadLabel = room.unread > 0 ? `${room.unread} unread` : null;
  const crumbs = [{ href: "/datarooms", label: "Data rooms" }, { href: `/dataroom/${room.id}`, label: room.name }];
  if (currentPage && currentPage.path !== "") crumbs.push({ href: currentPage.href, label: currentPage.label });

  return (
    <div className="mb-6 space-y-3" data-testid="room-header">
      <nav aria-label="Data room breadcrumb">
        <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-600">
          {crumbs.map((crumb, index) => (
            <li key={crumb.href} className="flex items-center gap-1">
              {index > 0 ? <span aria-hidden="true">/</span> : null}
              <a href={crumb.href} className={crumbClass} aria-current={index === crumbs.length - 1 ? "page" : undefined}>
                {crumb.label}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="flex flex-wrap items-center gap-3">
        {/* Beside the room's name, so decorative (the profile page names it). */}
        {room.logoUrl ? <img src={room.logoUrl} alt="" className="h-10 w-10 rounded object-contain" data-testid="room-logo" /> : null}
        <p className="min-w-0 truncate text-xl font-semibold text-slate-900">{room.name}</p>
        <span className="text-sm text-slate-700">Your role</span>
        <Badge variant={room.isOwner ? "brand" : "neutral"}>{ROLE_LABELS[room.role]}</Badge>
        {room.archived ? <Badge variant="warning">Archived</Badge> : null}
        {room.overPlan && !room.archived ? <Badge variant="warning">Read-only</Badge> : null}
        {/* Full-text search in the room: the workspace's search, with this room as the place. */}
        <form role="search" aria-label="Search this data room" action="/search" method="get" className="ml-auto flex w-full items-center gap-2 sm:w-auto">
          <input type="hidden" name="place" value={room.id} />
          <label htmlFor="room-search" className="sr-only">
            Search this data room
          </label>
          <input
            id="room-search"
            type="search"
            name="q"
            placeholder="Search this room…"
            className="w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm text-slate-900 placeholder:text-slate-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 sm:w-56"
          />
          <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50">
            Search
          </button>
        </form>
      </div>
      {room.overPlan && !room.archived ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-slate-900" data-testid="room-over-plan">
          This data room is read-only: it is over {room.isOwner ? "your" : "its owner's"} plan ({room.overPlanReason}). Nothing in it is deleted; it can be changed again once the plan holds it
          {room.isOwner ? (
            <>
              {" "}
              —{" "}
              <a href="/settings/subscription" className="font-medium text-brand-700 underline-offset-2 hover:underline">
                change your plan
              </a>{" "}
              or delete a data room
            </>
          ) : null}
          .
        </p>
      ) : null}
      {room.description || !room.isOwner ? (
        <div className="space-y-1">
          {room.description ? <p className="max-w-3xl text-sm text-slate-700">{room.description}</p> : null}
          {!room.isOwner ? <p className="text-xs text-slate-600">Owned by {room.owner.name}</p> : null}
        </div>
      ) : null}
      <nav aria-label="Data room sections" className="relative overflow-x-auto border-b border-slate-200">
        <ul className="flex gap-1">
          {tabs.map((tab) => {
            const isCurrent = tab.id === currentTab?.id;
            return (
              <li key={tab.id}>
                <a
                  href={tab.href}
                  aria-current={isCurrent ? "page" : undefined}
                  className={clsx(
                    "inline-flex items-center gap-1.5 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium",
                    isCurrent ? "border-brand-600 text-brand-700" : "border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900",
                  )}
                >
                  {tab.label}
                  {tab.id === "activity" && unreadLabel ? (
                    <span className="rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white">
                      {room.unread}
                      <span className="sr-only"> unread</span>
                    </span>
                  ) : null}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      {currentTab && currentTab.pages.length > 1 ? (
        <nav aria-label={`${currentTab.label} pages`} className="relative overflow-x-auto">
          <ul className="flex gap-2">
            {currentTab.pages.map((page) => {
              const isCurrent = page.path === currentPage?.path;
              const label = page.path === "notifications" && unreadLabel ? `${page.label} (${room.unread})` : page.label;
              return (
                <li key={page.path}>
                  <a
                    href={page.href}
                    aria-current={isCurrent ? "page" : undefined}
                    className={clsx(
                      "inline-flex whitespace-nowrap rounded-full px-3 py-1 text-sm",
                      isCurrent ? "bg-brand-50 font-semibold text-brand-700 ring-1 ring-brand-100" : "text-slate-700 hover:bg-slate-100",
                    )}
                  >
                    {label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
