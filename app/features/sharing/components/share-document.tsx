import { lazy, Suspense } from "react";
import { buttonClassName } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import type { ShareViewerPage } from "../share-viewer.server";
import { ShareHeader } from "./share-header";

// pdf.js and the other preview libraries load only when a document is shown.
const FilePreview = lazy(() => import("~/features/files/components/file-preview").then((module) => ({ default: module.FilePreview })));

/** An open link: the document (with its preview) or a folder's contents, under the link's rules. */
export function ShareDocument({ page, linkKey }: { page: Extract<ShareViewerPage, { state: "open" }>; linkKey: string }) {
  const { content, rules } = page;
  const base = `/s/${encodeURIComponent(linkKey)}`;
  const crumbs = content.crumbs;
  return (
    <>
      <ShareHeader title={content.kind === "file" ? content.file.name : content.folder.name}>
        {crumbs.length > 1 || (content.kind === "file" && crumbs.length) ? (
          <nav aria-label="Folders" className="flex flex-wrap gap-1 text-sm text-slate-700">
            {crumbs.map((crumb, index) => (
              <span key={crumb.id}>
                {index > 0 ? "/ " : ""}
                <a className="text-blue-700 underline" href={index === 0 ? base : `${base}?folder=${encodeURIComponent(crumb.id)}`}>
                  {crumb.name}
                </a>
              </span>
            ))}
          </nav>
        ) : null}
        <p className="text-sm text-slate-700" data-testid="share-rules">
          {[page.visitorEmail ? `Viewing as ${page.visitorEmail}.` : null, rules.watermarked ? "Documents carry a watermark with your details." : null, rules.canDownload ? null : "Downloading is turned off for this link."].filter(Boolean).join(" ")}
        </p>
      </ShareHeader>
      {content.kind === "file" ? (
        <section aria-label="Document" className="space-y-3">
          {rules.canDownload ? (
            <a href={`${base}/files/${encodeURIComponent(content.file.id)}/download`} download className={buttonClassName({ variant: "secondary" })}>
              Download
            </a>
          ) : null}
          <div className={rules.printProtected ? "print:hidden" : undefined}>
            <Suspense fallback={<Spinner label={`Loading ${content.file.name}`} className="py-10" />}>
              <FilePreview
                fileId={content.file.id}
                name={content.file.name}
                type={content.file.type}
                size={content.file.size}
                canDownload={rules.canDownload}
                watermarked={rules.watermarked}
                contentPath={`${base}/files/${encodeURIComponent(content.file.id)}`}
                pageTimeUrl={`${base}/files/${encodeURIComponent(content.file.id)}/page-time`}
              />
            </Suspense>
          </div>
          {rules.printProtected ? <p className="hidden font-semibold print:block">Printing is turned off for this document.</p> : null}
        </section>
      ) : (
        <section aria-label="Contents" className="rounded-lg border border-slate-200 bg-white">
          {content.folders.length + content.files.length === 0 ? <p className="p-4 text-sm text-slate-700">This folder is empty.</p> : null}
          <ul className="divide-y divide-slate-200">
            {content.folders.map((folder) => (
              <li key={folder.id} className="p-3">
                <a className="font-medium text-blue-700 underline" href={`${base}?folder=${encodeURIComponent(folder.id)}`}>
                  {folder.name}/
                </a>
              </li>
            ))}
            {content.files.map((file) => (
              <li key={file.id} className="flex items-center justify-between gap-3 p-3">
                <a className="min-w-0 break-words text-blue-700 underline" href={`${base}/files/${encodeURIComponent(file.id)}`}>
                  {file.name}
                </a>
                {rules.canDownload ? (
                  <a className="shrink-0 text-sm text-slate-700 underline" href={`${base}/files/${encodeURIComponent(file.id)}/download`} download aria-label={`Download ${file.name}`}>
                    Download
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
          {content.truncated ? <p className="p-3 text-sm text-slate-700">Only the first 500 items of this folder are listed.</p> : null}
        </section>
      )}
    </>
  );
}
