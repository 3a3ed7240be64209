import type { DataroomPermission } from "./datarooms.permissions";

/**
 * A room's pages under its header (issue 36): six tabs, every other page grouped under one of them.
 * A tab shows when the person may open at least one of its pages and leads to the first of those;
 * a page the person may not open is not offered (its loader refuses it anyway). A later room page
 * (signatures, for example) adds itself to one tab here.
 */
export type RoomPageLink = {
  /** After /dataroom/{id}; "" is the room's files. */
  path: string;
  label: string;
  requires?: DataroomPermission;
  /** Other paths of the same page (a folder of the room is still its files). */
  alsoUnder?: readonly string[];
};

export type RoomTab = { id: "files" | "people" | "sharing" | "activity" | "analytics" | "settings"; label: string; pages: readonly RoomPageLink[] };

export const ROOM_TABS: readonly RoomTab[] = [
  {
    id: "files",
    label: "Files",
    pages: [
      { path: "", label: "All files", alsoUnder: ["folders"] },
      { path: "recent-uploads", label: "Recent uploads" },
      { path: "tags", label: "Tags" },
      { path: "metadata", label: "Metadata" },
      { path: "duplicates", label: "Duplicates" },
    ],
  },
  {
    id: "people",
    label: "People",
    pages: [
      { path: "users", label: "Members" },
      { path: "permissions", label: "Permissions", requires: "manage_members" },
      { path: "sessions", label: "Sessions", requires: "manage_members" },
    ],
  },
  {
    id: "sharing",
    label: "Sharing",
    pages: [
      { path: "sharing", label: "Share links", requires: "share" },
      { path: "signatures", label: "Signatures", requires: "request_signatures" },
    ],
  },
  {
    id: "activity",
    label: "Activity",
    pages: [
      { path: "activities", label: "Activities", requires: "view_audit_log" },
      { path: "collaboration", label: "Collaboration" },
      { path: "comments", label: "Comments" },
      { path: "notifications", label: "Notifications" },
      { path: "workflows", label: "Workflows", requires: "manage_settings" },
    ],
  },
  { id: "analytics", label: "Analytics", pages: [{ path: "analytics", label: "Analytics", requires: "view_analytics" }] },
  {
    id: "settings",
    label: "Settings",
    pages: [
      { path: "profile", label: "Room profile", requires: "manage_settings" },
      { path: "settings", label: "General", requires: "manage_settings" },
      { path: "security", label: "Security", requires: "manage_settings" },
    ],
  },
];

export type VisibleRoomTab = { id: RoomTab["id"]; label: string; href: string; pages: { path: string; label: string; href: string }[] };

/** The tabs and pages this person may open, with their addresses. */
export function visibleRoomTabs(roomId: string, permissions: Readonly<Record<DataroomPermission, boolean>>): VisibleRoomTab[] {
  const base = `/dataroom/${roomId}`;
  return ROOM_TABS.flatMap((tab) => {
    const pages = tab.pages
      .filter((page) => !page.requires || permissions[page.requires])
      .map((page) => ({ path: page.path, label: page.label, href: page.path === "" ? base : `${base}/${page.path}` }));
    return pages.length === 0 ? [] : [{ id: tab.id, label: tab.label, href: pages[0]!.href, pages }];
  });
}

/** Which tab and page a room address belongs to: /dataroom/{id}/folders/{uid} is Files, /sessions is People. */
export function roomPlace(pathname: string): { tab: RoomTab["id"]; path: string } | null {
  const match = /^\/dataroom\/[^/]+(?:\/([^/]+))?/.exec(pathname);
  if (!match) return null;
  const segment = match[1] ?? "";
  for (const tab of ROOM_TABS) {
    for (const page of tab.pages) if (page.path === segment || page.alsoUnder?.includes(segment)) return { tab: tab.id, path: page.path };
  }
  return null;
}
