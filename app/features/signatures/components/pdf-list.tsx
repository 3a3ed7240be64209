import type { ReactNode } from "react";

/** The PDFs a member may send, each with its action (prepare it, make a template of it). */
export function PdfList({ pdfs, action }: { pdfs: { id: string; name: string; spaceName: string }[]; action: (pdf: { id: string; name: string }) => ReactNode }) {
  return (
    <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
      {pdfs.map((pdf) => (
        <li key={pdf.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm">
          <span>
            <span className="font-medium text-slate-900">{pdf.name}</span> <span className="text-slate-600">in {pdf.spaceName}</span>
          </span>
          {action(pdf)}
        </li>
      ))}
    </ul>
  );
}
