import { clsx } from "clsx";
import { Button } from "~/components/ui/button";
import { ProgressBar } from "~/components/ui/progress-bar";
import { formatBytes } from "../files.constants";
import type { UploadItem, UploadStatus } from "../upload-files";

/** One upload on a list: its progress bar, status and sizes, and Pause, Resume and Cancel. */

const STATUS_TEXT: Record<UploadStatus, string> = {
  queued: "Waiting",
  uploading: "Uploading",
  paused: "Paused",
  done: "Uploaded",
  error: "Failed",
};

export function UploadRow({
  item,
  onPause,
  onResume,
  onCancel,
}: {
  item: UploadItem;
  onPause: (key: string) => void;
  onResume: (key: string) => void;
  onCancel: (key: string) => void;
}) {
  const displayName = item.relativePath ? `${item.relativePath}/${item.name}` : item.name;
  const percent = item.status === "done" ? 100 : item.size === 0 ? 0 : (item.bytesSent / item.size) * 100;
  return (
    <li data-testid="upload-item" data-status={item.status} aria-label={displayName} className="space-y-1.5">
      <ProgressBar value={percent} showValue size="sm" label={displayName} />
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className={clsx(item.status === "error" ? "text-red-800" : "text-slate-700")} role={item.status === "error" ? "alert" : undefined}>
          {STATUS_TEXT[item.status]} · {formatBytes(item.status === "done" ? item.size : item.bytesSent)} of {formatBytes(item.size)}
          {item.error ? ` · ${item.error}` : null}
        </span>
        <span className="flex gap-1">
          {item.status === "uploading" ? (
            <Button size="sm" variant="secondary" aria-label={`Pause ${displayName}`} onClick={() => onPause(item.key)}>
              Pause
            </Button>
          ) : null}
          {item.status === "paused" || item.status === "error" ? (
            <Button size="sm" variant="secondary" aria-label={`Resume ${displayName}`} onClick={() => onResume(item.key)}>
              Resume
            </Button>
          ) : null}
          {item.status !== "done" ? (
            <Button size="sm" variant="ghost" aria-label={`Cancel ${displayName}`} onClick={() => onCancel(item.key)}>
              Cancel
            </Button>
          ) : null}
        </span>
      </div>
    </li>
  );
}
