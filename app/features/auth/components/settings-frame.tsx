import type { ReactNode } from "react";
import { clsx } from "clsx";
import { NavLink } from "react-router";

type SettingsLink = { to: string; label: string; isExact?: boolean };

/** The side navigation of the settings and profile pages, in the order a member looks for them. */
export const settingsLinks: readonly SettingsLink[] = [
  { to: "/settings", label: "Overview", isExact: true },
  { to: "/settings/account", label: "Account" },
  { to: "/settings/plan", label: "Plan" },
  { to: "/settings/subscription", label: "Subscription" },
  { to: "/settings/invoices", label: "Invoices" },
  { to: "/settings/storage", label: "Storage" },
  { to: "/settings/receive-page-forms", label: "Receive page forms" },
  { to: "/settings/dashboard", label: "Dashboard" },
  { to: "/settings/2fa", label: "Two-factor authentication" },
  { to: "/settings/security", label: "Security", isExact: true },
  { to: "/settings/security-level", label: "Security level" },
  { to: "/profile", label: "Profile", isExact: true },
  { to: "/profile/activity", label: "Activity" },
  { to: "/profile/data", label: "Your data" },
];

/**
 * The frame of every settings and profile page: a side navigation ("Settings") next to the page.
 * The settings layout route wraps its outlet in it; profile pages wrap themselves.
 */
export function SettingsFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col gap-8 md:flex-row">
      <nav aria-label="Settings" className="md:w-60 md:shrink-0">
        <ul className="flex flex-wrap gap-1 md:flex-col">
          {settingsLinks.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end={link.isExact}
                className={({ isActive }) =>
                  clsx(
                    "block rounded-md px-3 py-2 text-sm",
                    isActive ? "bg-brand-50 font-semibold text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                  )
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1 space-y-8">{children}</div>
    </div>
  );
}

/** A settings page's heading and one-line introduction. */
export function SettingsHeader({ title, description }: { title: string; description?: ReactNode }) {
  return (
    <header>
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {description ? <p className="mt-2 text-sm text-slate-700">{description}</p> : null}
    </header>
  );
}

/**
 * The form-level text of a refusal, unless it only repeats field errors already shown beside
 * the fields named here (the service's message then reads "field: problem").
 */
export function formLevelMessage(
  failure: { message: string; fieldErrors?: Record<string, string[]> } | null | undefined,
  shownFields: readonly string[],
): string | null {
  if (!failure) return null;
  const fields = Object.keys(failure.fieldErrors ?? {});
  return fields.length > 0 && fields.every((field) => shownFields.includes(field)) ? null : failure.message;
}
