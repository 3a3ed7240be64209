import type { FeatureName, Permission } from "~/features/access/access.constants";

/**
 * The workspace's navigation (issue 36): THE one place a module registers its pages in the shell.
 * A later module (forms, signatures, galleries, workflows, teams, billing) adds one section or item
 * here when its first page exists, never before: the sidebar, the phone drawer and the tests read
 * this list, nothing else. Browser-safe (no server code): the sidebar renders from it.
 */

export type NavIconName =
  | "home"
  | "folder"
  | "inbox"
  | "outbox"
  | "clock"
  | "star"
  | "tag"
  | "copy"
  | "template"
  | "trash"
  | "rooms"
  | "team"
  | "archive"
  | "link"
  | "receive"
  | "form"
  | "signature"
  | "workflow"
  | "case"
  | "key"
  | "bell"
  | "help"
  | "sparkle"
  | "settings"
  | "menu"
  | "close"
  | "collapse"
  | "expand"
  | "search";

/** What a member needs to use the item: without it the item is a restricted element (spec §2), or hidden with hideOnDenied. */
export type NavRequirement = ({ feature: FeatureName; permission?: undefined } | { permission: Permission; feature?: undefined }) & { hideOnDenied?: boolean };

export type NavItem = {
  id: string;
  label: string;
  to: string;
  icon: NavIconName;
  /** Other paths under which this item is the current page (e.g. a room's pages for "Data rooms"). */
  alsoActiveUnder?: readonly string[];
  requires?: NavRequirement;
  /** Load the page as a whole document (spec §2: /dataroom/ pages are server-driven, not the client router's). */
  reloadDocument?: boolean;
};

/** Items that can carry a dot (something new there); the workspace layout says which do now. */
export type NavBadges = Partial<Record<string, string>>;

export type NavSection = { id: string; label: string | null; items: readonly NavItem[] };

export const NAV_SECTIONS: readonly NavSection[] = [
  { id: "home", label: null, items: [{ id: "home", label: "Home", to: "/dashboard", icon: "home" }] },
  {
    id: "files",
    label: "Files",
    items: [
      { id: "folders", label: "All folders", to: "/folders", icon: "folder", alsoActiveUnder: ["/files/"] },
      { id: "inbox", label: "Inbox", to: "/folders/inbox", icon: "inbox", alsoActiveUnder: ["/folders/global-inbox"] },
      { id: "outbox", label: "Outbox", to: "/folders/outbox", icon: "outbox", alsoActiveUnder: ["/folders/global-outbox"] },
      { id: "recent", label: "Recent", to: "/files/recent", icon: "clock" },
      { id: "favorites", label: "Favorites", to: "/favorites", icon: "star" },
      { id: "tags", label: "Tags", to: "/files/tags", icon: "tag", requires: { feature: "basic_editing" } },
      { id: "duplicates", label: "Duplicates", to: "/files/duplicates", icon: "copy", requires: { feature: "advanced_features" } },
      { id: "templates", label: "Templates", to: "/templates", icon: "template" },
      { id: "trash", label: "Trash", to: "/trash", icon: "trash" },
    ],
  },
  {
    id: "datarooms",
    label: null,
    items: [
      { id: "datarooms", label: "Data rooms", to: "/datarooms", icon: "rooms", alsoActiveUnder: ["/dataroom/"], requires: { permission: "core_access" } },
      { id: "archived-rooms", label: "Archived rooms", to: "/datarooms/archived", icon: "archive", requires: { permission: "core_access", hideOnDenied: true } },
      // Not locked: anyone may be in a team someone else owns; creating one is Business (the page and the server say so).
      { id: "team", label: "Team", to: "/team", icon: "team", alsoActiveUnder: ["/team/"] },
    ],
  },
  {
    id: "collect",
    label: "Collect",
    items: [
      { id: "forms", label: "Forms", to: "/forms", icon: "form", requires: { feature: "forms" } },
      { id: "signatures", label: "Signatures", to: "/signatures", icon: "signature", alsoActiveUnder: ["/signatures/"], requires: { feature: "e_signatures" } },
      { id: "workflows", label: "Workflows", to: "/workflows", icon: "workflow", alsoActiveUnder: ["/workflows/"], requires: { feature: "workflows" } },
      { id: "cases", label: "Cases", to: "/cases", icon: "case", alsoActiveUnder: ["/cases/"], requires: { feature: "workflows" } },
      { id: "tasks", label: "My tasks", to: "/tasks", icon: "clock", alsoActiveUnder: ["/workflow-runs/"] },
    ],
  },
  {
    id: "sharing",
    label: "Sharing",
    items: [
      { id: "share-links", label: "Share links", to: "/share-links", icon: "link" },
      { id: "receive-pages", label: "Receive pages", to: "/receive-pages", icon: "receive", requires: { feature: "receive_pages" } },
      { id: "secrets", label: "Secrets", to: "/secrets", icon: "key", requires: { feature: "secrets" } },
    ],
  },
];

/** At the bottom of the sidebar, below every module. */
export const NAV_FOOTER: readonly NavItem[] = [
  { id: "notifications", label: "Notifications", to: "/notifications", icon: "bell" },
  { id: "settings", label: "Settings", to: "/settings", icon: "settings", alsoActiveUnder: ["/profile"] },
  { id: "referrals", label: "Refer a friend", to: "/referrals", icon: "team" },
  { id: "help", label: "Help", to: "/help", icon: "help", alsoActiveUnder: ["/welcome"] },
  { id: "whats-new", label: "What's new", to: "/whats-new", icon: "sparkle" },
];

function matchLength(item: NavItem, pathname: string): number {
  const candidates = [item.to, ...(item.alsoActiveUnder ?? [])];
  let best = -1;
  for (const prefix of candidates) {
    const isMatch = pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
    if (isMatch && prefix.length > best) best = prefix.length;
  }
  return best;
}

/** The one item that is the current page: the longest match wins (/folders/inbox is Inbox, not All folders). */
export function activeNavItemId(pathname: string, items: readonly NavItem[] = allNavItems()): string | null {
  let found: { id: string; length: number } | null = null;
  for (const item of items) {
    const length = matchLength(item, pathname);
    if (length >= 0 && (!found || length > found.length)) found = { id: item.id, length };
  }
  return found?.id ?? null;
}

export function allNavItems(): NavItem[] {
  return [...NAV_SECTIONS.flatMap((section) => section.items), ...NAV_FOOTER];
}
