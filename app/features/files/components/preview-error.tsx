import { Button } from "~/components/ui/button";

/** The four failures of a preview (spec §2 "Preview error display"). */
export type PreviewErrorKind = "loading" | "security" | "expired" | "other";

/** The spec's exact titles and default messages. */
export const PREVIEW_ERROR_COPY: Record<PreviewErrorKind, { title: string; message: string }> = {
  loading: {
    title: "Failed to Load Preview",
    message: "There was a problem loading the preview. Please check your connection and try again.",
  },
  security: {
    title: "Security Check Failed",
    message: "Unable to verify security requirements. Please ensure you have the necessary permissions.",
  },
  expired: {
    title: "Preview Link Expired",
    message: "The preview link has expired. Please try refreshing the page.",
  },
  other: {
    title: "Something Went Wrong",
    message: "An unexpected error occurred while trying to display the preview.",
  },
};

/**
 * Which display a failed preview request gets: no answer at all (network failure, timeout) or a
 * server error is a loading failure, 401/403 a security one, 410 an expired link, the rest "other".
 */
export function previewErrorKindFor(status: number | null): PreviewErrorKind {
  if (status === null || status >= 500) return "loading";
  if (status === 401 || status === 403) return "security";
  if (status === 410) return "expired";
  return "other";
}

export type PreviewErrorProps = { kind: PreviewErrorKind; message?: string; onRetry?: () => void };

/** A failed preview: title, message and, when the caller can retry, a "Try Again" button. */
export function PreviewError({ kind, message, onRetry }: PreviewErrorProps) {
  const copy = PREVIEW_ERROR_COPY[kind];
  return (
    <div
      role="alert"
      data-testid="preview-error"
      data-kind={kind}
      className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 px-6 py-10 text-center"
    >
      <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" className="h-10 w-10 text-slate-500" fill="none">
        <circle cx="12" cy="12" r="9" stroke="currentColor" strokeWidth="1.75" />
        <path d="M12 7.5v5.5M12 16.5v.01" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
      </svg>
      <h3 className="text-base font-semibold text-slate-900">{copy.title}</h3>
      <p className="max-w-md text-sm text-slate-700">{message ?? copy.message}</p>
      {onRetry ? (
        <Button variant="secondary" onClick={onRetry}>
          Try Again
        </Button>
      ) : null}
    </div>
  );
}
