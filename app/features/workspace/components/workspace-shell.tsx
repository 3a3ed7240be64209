import * as Dialog from "@radix-ui/react-dialog";
import { clsx } from "clsx";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { DevToolsLinks } from "~/components/dev-tools-links";
import { Restricted } from "~/features/access/components/restricted";
import { SearchCombobox } from "~/features/search/components/search-combobox";
import { activeNavItemId, NAV_FOOTER, NAV_SECTIONS, type NavBadges, type NavItem } from "../navigation";
import { NavIcon } from "./nav-icon";

/**
 * The signed-in member's frame (issue 36): a sidebar on wide screens (folded to icons when the
 * member chose so, remembered on their account), a drawer behind "Menu" on narrow ones, a top bar
 * with the account, and the page. Every item comes from the navigation registry (../navigation.ts).
 */
export function WorkspaceShell({
  account,
  workspace,
  initialCollapsed,
  devTools,
  badges = {},
  children,
}: {
  account: ReactNode;
  /** The workspace switcher (teams), beside the account. */
  workspace?: ReactNode;
  initialCollapsed: boolean;
  /** A dot beside an item, with its words for screen readers ({ "whats-new": "new release notes" }). */
  badges?: NavBadges;
  /** Development only: the interface kit and the mailbox, from the footer (never in the navigation). */
  devTools: boolean;
  children: ReactNode;
}) {
  const [isCollapsed, setCollapsed] = useState(initialCollapsed);
  const [isDrawerOpen, setDrawerOpen] = useState(false);
  const [isSearchOpen, setSearchOpen] = useState(false);
  const searchBox = useRef<HTMLInputElement>(null);
  const { pathname } = useLocation();

  // Ctrl/⌘-K from anywhere: the top bar's search box, or on a narrow screen (no box) the search dialog.
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key.toLowerCase() !== "k" || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      event.preventDefault();
      const box = searchBox.current;
      if (box && box.offsetParent !== null) {
        box.focus();
        box.select();
      } else setSearchOpen(true);
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  function toggleCollapsed() {
    const next = !isCollapsed;
    setCollapsed(next);
    // Remembered on the account; a failure is shown by the HTTP client and the choice still holds on this page.
    void import("~/lib/http").then(({ http }) => http.patch("/api/workspace/preferences", { sidebarCollapsed: next }).catch(() => undefined));
  }

  return (
    <div className="min-h-screen lg:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <aside
        data-testid="sidebar"
        data-shell=""
        data-collapsed={isCollapsed ? "true" : "false"}
        className={clsx(
          "sticky top-0 hidden h-screen shrink-0 flex-col border-r border-slate-200 bg-white lg:flex",
          isCollapsed ? "w-16" : "w-60",
        )}
      >
        <div className={clsx("flex h-14 items-center border-b border-slate-200", isCollapsed ? "justify-center" : "px-4")}>
          <Logo isCompact={isCollapsed} />
        </div>
        <WorkspaceNav pathname={pathname} isCollapsed={isCollapsed} badges={badges} />
        <div className="border-t border-slate-200 p-2">
          <button
            type="button"
            onClick={toggleCollapsed}
            aria-pressed={isCollapsed}
            title={isCollapsed ? "Expand the navigation" : undefined}
            className="flex w-full items-center gap-3 rounded-md px-2 py-2 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          >
            <NavIcon name={isCollapsed ? "expand" : "collapse"} />
            <span className={isCollapsed ? "sr-only" : undefined}>Collapse navigation</span>
          </button>
        </div>
      </aside>

      <div className="flex min-w-0 flex-1 flex-col">
        <header data-shell="" className="sticky top-0 z-30 border-b border-slate-200 bg-white">
          <div className="flex h-14 items-center justify-between gap-3 px-4 sm:px-6">
            <div className="flex items-center gap-3 lg:hidden">
              <Dialog.Root open={isDrawerOpen} onOpenChange={setDrawerOpen}>
                <Dialog.Trigger asChild>
                  <button type="button" className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800">
                    <NavIcon name="menu" className="h-4 w-4" />
                    Menu
                  </button>
                </Dialog.Trigger>
                <Dialog.Portal>
                  <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
                  <Dialog.Content
                    aria-describedby={undefined}
                    className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl focus:outline-none"
                  >
                    <div className="flex h-14 items-center justify-between border-b border-slate-200 px-4">
                      <Dialog.Title className="text-base font-semibold text-slate-900">Navigation</Dialog.Title>
                      <Dialog.Close className="rounded-md p-1.5 text-slate-700 hover:bg-slate-100" aria-label="Close the navigation">
                        <NavIcon name="close" />
                      </Dialog.Close>
                    </div>
                    <WorkspaceNav pathname={pathname} isCollapsed={false} badges={badges} onNavigate={() => setDrawerOpen(false)} />
                  </Dialog.Content>
                </Dialog.Portal>
              </Dialog.Root>
              <Logo isCompact={false} textClassName="sr-only sm:not-sr-only" />
            </div>
            <SearchCombobox inputRef={searchBox} className="hidden w-full max-w-md md:block" />
            <div className="ml-auto flex items-center gap-3">
              <Dialog.Root open={isSearchOpen} onOpenChange={setSearchOpen}>
                <Dialog.Trigger asChild>
                  <button type="button" className="rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden" aria-label="Search" aria-keyshortcuts="Control+K Meta+K">
                    <NavIcon name="search" />
                  </button>
                </Dialog.Trigger>
                <Dialog.Portal>
                  <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
                  <Dialog.Content aria-describedby={undefined} className="fixed inset-x-0 top-0 z-50 bg-white p-4 shadow-xl focus:outline-none">
                    <Dialog.Title className="sr-only">Search</Dialog.Title>
                    <SearchCombobox onNavigate={() => setSearchOpen(false)} />
                  </Dialog.Content>
                </Dialog.Portal>
              </Dialog.Root>
              {workspace}
              {account}
            </div>
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
          {children}
        </main>
        <footer data-shell="" className="border-t border-slate-200 bg-white px-4 py-4 text-center text-xs text-slate-600">
          <Link to="/privacy-policy" className="underline">
            Privacy Policy
          </Link>
          {devTools ? <DevToolsLinks /> : null}
        </footer>
      </div>
    </div>
  );
}

function Logo({ isCompact, textClassName }: { isCompact: boolean; textClassName?: string }) {
  return (
    <Link to="/dashboard" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
      <span aria-hidden className="inline-block h-6 w-6 shrink-0 rounded bg-brand-600" />
      <span className={isCompact ? "sr-only" : textClassName}>Strongroom</span>
    </Link>
  );
}

function WorkspaceNav({ pathname, isCollapsed, badges, onNavigate }: { pathname: string; isCollapsed: boolean; badges: NavBadges; onNavigate?: () => void }) {
  const activeId = activeNavItemId(pathname);
  const renderItem = (item: NavItem) => (
    <li key={item.id}>
      {/* A dot says "something new there": none on the page the member is reading. */}
      <NavEntry item={item} isActive={item.id === activeId} isCollapsed={isCollapsed} badge={item.id === activeId ? undefined : badges[item.id]} onNavigate={onNavigate} />
    </li>
  );
  return (
    <nav aria-label="Workspace" className="flex min-h-0 flex-1 flex-col overflow-y-auto px-2 py-3">
      {NAV_SECTIONS.map((section) => (
        <div key={section.id} className="mb-3">
          {section.label ? (
            <p id={`nav-section-${section.id}`} className={clsx("px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500", isCollapsed && "sr-only")}>
              {section.label}
            </p>
          ) : null}
          <ul aria-labelledby={section.label ? `nav-section-${section.id}` : undefined} className="space-y-0.5">
            {section.items.map(renderItem)}
          </ul>
        </div>
      ))}
      <ul className="mt-auto space-y-0.5 border-t border-slate-200 pt-3">{NAV_FOOTER.map(renderItem)}</ul>
    </nav>
  );
}

function NavEntry({ item, isActive, isCollapsed, badge, onNavigate }: { item: NavItem; isActive: boolean; isCollapsed: boolean; badge?: string; onNavigate?: () => void }) {
  const link = (
    <Link
      to={item.to}
      reloadDocument={item.reloadDocument}
      onClick={onNavigate}
      aria-current={isActive ? "page" : undefined}
      title={isCollapsed ? item.label : undefined}
      className={clsx(
        "flex items-center gap-3 rounded-md px-2 py-1.5 text-sm",
        isCollapsed && "justify-center",
        isActive ? "bg-brand-50 font-semibold text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
      )}
    >
      <span className="relative">
        <NavIcon name={item.icon} />
        {badge ? <span aria-hidden="true" data-testid={`nav-dot-${item.id}`} className="absolute -right-0.5 -top-0.5 h-2 w-2 rounded-full bg-brand-600 ring-2 ring-white" /> : null}
      </span>
      <span className={isCollapsed ? "sr-only" : "truncate"}>{item.label}</span>
      {badge ? <span className="sr-only">, {badge}</span> : null}
    </Link>
  );
  if (!item.requires) return link;
  const { hideOnDenied, ...target } = item.requires;
  return (
    <Restricted {...target} hideOnDenied={hideOnDenied} label={`Open ${item.label}`} className="w-full">
      {link}
    </Restricted>
  );
}
