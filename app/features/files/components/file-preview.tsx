import { useCallback, useEffect, useState, type ReactNode } from "react";
import { buttonClassName } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { canCarryWatermark } from "~/features/watermark/watermark.constants";
import { previewKindOf } from "../files.constants";
import { PdfPreview } from "./pdf-preview";
import { PreviewError } from "./preview-error";
import { downloadUrl, memberContentPath, previewUrl, probePreview, type PreviewFailure } from "./preview-fetch";
import { TextPreview } from "./text-preview";

export type FilePreviewProps = {
  fileId: string;
  name: string;
  /** The sniffed content type. */
  type: string;
  size: number;
  canDownload: boolean;
  /** The room's watermark applies to the viewer: PDFs come as their stamped copy; nothing else is shown. */
  watermarked?: boolean;
  /** The file is in a data room: its PDF viewer reports time per page for the room's analytics. */
  isInRoom?: boolean;
  /** Where the content is read: a member's (the default) or a share link's (`/s/{key}/files/{id}`). */
  contentPath?: string;
  /** Where the PDF viewer reports time per page; by default the room's, for a file in a room. */
  pageTimeUrl?: string | null;
};

/**
 * The preview of a file, picked by its type: PDF (pdf.js, page by page), images, video and audio
 * (the browser's own players), text, Markdown and CSV; anything else offers the download. Every
 * failure shows the spec's preview error display with "Try Again", which starts over.
 * Rendered in the browser only: media errors that happened before hydration would be lost.
 */
export function FilePreview({ fileId, name, type, size, canDownload, watermarked = false, isInRoom = false, contentPath, pageTimeUrl }: FilePreviewProps) {
  const kind = previewKindOf(type, name);
  const base = contentPath ?? memberContentPath(fileId);
  const reportTo = pageTimeUrl !== undefined ? pageTimeUrl : isInRoom ? `${base}/page-time` : null;
  const [isMounted, setIsMounted] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [failure, setFailure] = useState<PreviewFailure | null>(null);
  const url = previewUrl(base, attempt);

  useEffect(() => setIsMounted(true), []);
  const onFailure = useCallback((next: PreviewFailure) => setFailure(next), []);
  const onMediaError = useCallback(
    (what: string) => {
      void probePreview(url, what).then(setFailure);
    },
    [url],
  );
  const retry = useCallback(() => {
    setFailure(null);
    setAttempt((n) => n + 1);
  }, []);

  if (watermarked && !canCarryWatermark(type, name)) {
    return (
      <NoPreview title="Not shown while watermarking is on" contentPath={base} canDownload={canDownload}>
        This data room marks every document it shows with your name, and only PDFs, JPEG and PNG images can carry that mark.
      </NoPreview>
    );
  }
  if (failure) return <PreviewError kind={failure.kind} message={failure.message} onRetry={retry} />;
  if (!isMounted && kind !== "none") return <Spinner label={`Loading the preview of ${name}`} className="py-10" />;

  switch (kind) {
    case "pdf":
      return <PdfPreview key={attempt} url={url} name={name} size={watermarked ? null : size} onFailure={onFailure} pageTimeUrl={reportTo} />;
    case "image":
      return (
        <div className="flex justify-center rounded-lg border border-slate-200 bg-slate-100 p-2">
          {/* SVG too: inside <img> a document never runs its scripts. */}
          <img key={attempt} src={url} alt={name} onError={() => onMediaError("image")} className="max-h-[70vh] max-w-full object-contain" />
        </div>
      );
    case "video":
      return (
        <video key={attempt} src={url} controls preload="metadata" aria-label={name} onError={() => onMediaError("video")} className="max-h-[70vh] w-full rounded-lg bg-black">
          Your browser cannot play this video. Download it to watch it.
        </video>
      );
    case "audio":
      return (
        <audio key={attempt} src={url} controls preload="metadata" aria-label={name} onError={() => onMediaError("audio file")} className="w-full">
          Your browser cannot play this audio file. Download it to listen to it.
        </audio>
      );
    case "text":
    case "markdown":
    case "csv":
      return <TextPreview key={attempt} kind={kind} url={url} name={name} size={size} onFailure={onFailure} />;
    default:
      return <NoPreview title="No preview for this type" contentPath={base} canDownload={canDownload} />;
  }
}

/** Instead of a preview: why there is none, and the download where the person may download. */
function NoPreview({ title, contentPath, canDownload, children }: { title: string; contentPath: string; canDownload: boolean; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 px-6 py-10 text-center" data-testid="no-preview">
      <p className="text-base font-semibold text-slate-900">{title}</p>
      {children ? <p className="max-w-prose text-sm text-slate-700">{children}</p> : null}
      {canDownload ? (
        <a href={downloadUrl(contentPath)} download className={buttonClassName({ variant: "secondary" })}>
          Download
        </a>
      ) : null}
    </div>
  );
}
