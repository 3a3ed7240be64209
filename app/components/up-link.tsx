import type { ReactNode } from "react";

/** The link above a page's title back to the page it belongs to ("Secrets", "Receive pages"). */
export function UpLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="text-sm text-slate-600">
      <a href={to} className="font-medium text-brand-700 underline-offset-2 hover:underline">
        {children}
      </a>
    </p>
  );
}
