import type { ReactNode } from "react";

/** The top of a share link's page: what is shared, then the page's own lines. */
export function ShareHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="space-y-1">
      <p className="text-sm text-slate-600">Shared with you through Strongroom</p>
      <h1 className="break-words text-2xl font-semibold text-slate-900">{title}</h1>
      {children}
    </header>
  );
}

