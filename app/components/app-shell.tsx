import { clsx } from "clsx";
import { useState, type ReactNode } from "react";
import { Link, NavLink } from "react-router";

export type NavItem = { to: string; label: string };

/** The public pages' frame (the signed-in workspace has its own, app/features/workspace): skip link, header with navigation (a menu button on small screens), main. */
export function AppShell({ navItems, account, footer, children }: { navItems: NavItem[]; account?: ReactNode; footer?: ReactNode; children: ReactNode }) {
  const [isMenuOpen, setMenuOpen] = useState(false);
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3">
          <Link to="/" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <span aria-hidden className="inline-block h-6 w-6 rounded bg-brand-600" />
            Strongroom
          </Link>
          <div className="flex items-center gap-3 sm:order-last">
            {account}
          <button
            type="button"
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm sm:hidden"
            aria-expanded={isMenuOpen}
            aria-controls="primary-navigation"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
          </div>
          <nav
            id="primary-navigation"
            aria-label="Primary"
            className={clsx(
              "absolute left-0 right-0 top-14 z-30 border-b border-slate-200 bg-white px-4 pb-3 sm:static sm:block sm:border-0 sm:p-0",
              isMenuOpen ? "block" : "hidden",
            )}
          >
            <ul className="flex flex-col gap-1 sm:flex-row sm:gap-4">
              {navItems.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    onClick={() => setMenuOpen(false)}
                    className={({ isActive }) =>
                      clsx(
                        "block rounded px-2 py-1 text-sm",
                        isActive ? "font-semibold text-brand-700" : "text-slate-700 hover:text-slate-900",
                      )
                    }
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        {children}
      </main>
      <footer className="border-t border-slate-200 bg-white py-4 text-center text-xs text-slate-600">
        <Link to="/privacy-policy" className="underline">
          Privacy Policy
        </Link>
        {footer}
      </footer>
    </div>
  );
}
