import type { ReactNode } from "react";
import { Link } from "react-router";

/** The head of a form's own pages (dashboard, submissions, one submission): the way back, the page's name, a line under it. */
export function FormPageHeader({ back, backLabel, title, children }: { back: string; backLabel: string; title: string; children?: ReactNode }) {
  return (
    <div className="space-y-1">
      <Link to={back} className="text-sm text-brand-700 underline-offset-2 hover:underline">
        ← {backLabel}
      </Link>
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {children}
    </div>
  );
}
