import { clsx } from "clsx";
import { useCallback, useEffect, useRef, useState, type DragEvent, type ReactNode, type RefObject } from "react";
import type * as Tus from "tus-js-client";
import type { Upload } from "tus-js-client";
import { directoryOf, takeDropped, UPLOAD_CONCURRENCY, uploadErrorMessage, type DroppedItem, type PendingFile, type UploadItem } from "../upload-files";

/**
 * The browser's upload queue, shared by the file manager's upload panel and receive pages: one
 * resumable tus upload per file (tus-js-client, loaded on first use), at most
 * UPLOAD_CONCURRENCY at once, each with its progress, Pause, Resume and Cancel; leaving the page
 * pauses (never terminates) what runs, and the browser warns before leaving while uploads run.
 * What each upload is (a new one into a folder, or one a receive page's submission made) is the
 * caller's `createUpload`.
 */

type TusModule = typeof Tus;
export type UploadCallbacks = { onProgress: (bytesSent: number) => void; onSuccess: () => void; onError: (error: Error) => void };
export type QueuedFile = PendingFile & { key?: string; name?: string };

let nextKey = 0;

export function useUploadQueue({
  createUpload,
  onUploaded,
  onCancelUnstarted,
}: {
  /** Makes (not starts) the tus upload of one file; it may resume an earlier one first. */
  createUpload: (tus: TusModule, key: string, pending: PendingFile, callbacks: UploadCallbacks) => Promise<Upload>;
  onUploaded?: () => void;
  /** A file cancelled before its upload was made (the server may still hold it). */
  onCancelUnstarted?: (key: string) => void;
}) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const uploads = useRef(new Map<string, Upload>());
  const files = useRef(new Map<string, PendingFile>());
  const started = useRef(new Set<string>());
  const latest = useRef({ createUpload, onUploaded, onCancelUnstarted });
  latest.current = { createUpload, onUploaded, onCancelUnstarted };

  const update = useCallback((key: string, change: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  /** Starts (or resumes) one file's upload. */
  const start = useCallback(
    async (key: string) => {
      const pending = files.current.get(key);
      if (!pending) return;
      update(key, { status: "uploading", error: null });
      const existing = uploads.current.get(key);
      if (existing) {
        existing.start();
        return;
      }
      const tus = await import("tus-js-client");
      const upload = await latest.current.createUpload(tus, key, pending, {
        onProgress: (bytesSent) => update(key, { bytesSent }),
        onSuccess: () => {
          uploads.current.delete(key);
          update(key, { status: "done", bytesSent: pending.file.size });
          latest.current.onUploaded?.();
        },
        onError: (error) => update(key, { status: "error", error: uploadErrorMessage(error) }),
      });
      uploads.current.set(key, upload);
      upload.start();
    },
    [update],
  );

  useEffect(() => {
    const running = items.filter((item) => item.status === "uploading").length;
    const queued = items.filter((item) => item.status === "queued" && !started.current.has(item.key)).slice(0, Math.max(0, UPLOAD_CONCURRENCY - running));
    for (const item of queued) {
      started.current.add(item.key);
      void start(item.key);
    }
  }, [items, start]);

  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const upload of running.values()) void upload.abort(false);
    };
  }, []);

  const isBusy = items.some((item) => item.status === "uploading" || item.status === "queued");
  useLeaveWarning(isBusy);

  const enqueue = useCallback((queued: readonly QueuedFile[]) => {
    if (queued.length === 0) return;
    const added = queued.map(({ file, relativePath, key = `upload-${++nextKey}`, name = file.name }) => {
      files.current.set(key, { file, relativePath });
      return { key, name, relativePath, size: file.size, bytesSent: 0, status: "queued" as const, error: null };
    });
    setItems((current) => [...current, ...added]);
  }, []);

  const pause = useCallback(
    (key: string) => {
      void uploads.current.get(key)?.abort(false);
      update(key, { status: "paused" });
    },
    [update],
  );

  /** Stops and forgets one upload; the server is told (tus termination) so it keeps nothing of it. */
  const cancel = useCallback(async (key: string) => {
    const upload = uploads.current.get(key);
    uploads.current.delete(key);
    files.current.delete(key);
    setItems((current) => current.filter((item) => item.key !== key));
    if (upload) await upload.abort(true);
    else latest.current.onCancelUnstarted?.(key);
  }, []);

  const clearFinished = useCallback(() => setItems((current) => current.filter((item) => item.status !== "done")), []);

  return { items, enqueue, start, pause, cancel, clearFinished, isBusy };
}

/** While `active`, the browser asks before the page is left (uploads or a submission on their way). */
export function useLeaveWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [active]);
}

/** A drop zone for files and folders: what was dropped, taken while the drop event lasts. */
export function DropZone({ onDrop, testId, accent, children }: { onDrop: (dropped: DroppedItem[]) => void; testId: string; accent?: string | null; children: ReactNode }) {
  const [isDragging, setDragging] = useState(false);
  return (
    <div
      data-testid={testId}
      onDragEnter={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event: DragEvent<HTMLDivElement>) => {
        event.preventDefault();
        setDragging(false);
        onDrop(takeDropped(event.dataTransfer));
      }}
      className={clsx(
        "flex min-h-20 items-center justify-center rounded-md border-2 border-dashed px-4 py-6 text-center text-sm",
        isDragging ? "border-brand-600 bg-brand-50 text-brand-800" : "border-slate-300 text-slate-700",
      )}
      style={isDragging && accent ? { borderColor: accent } : undefined}
    >
      {children}
    </div>
  );
}

/** A hidden file chooser (opened by a button): files, or a whole folder with its structure. */
export function HiddenFilesInput({
  inputRef,
  folder = false,
  testId,
  label,
  accept,
  onFiles,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  folder?: boolean;
  testId: string;
  label: string;
  accept?: string;
  onFiles: (files: PendingFile[]) => void;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      multiple
      hidden
      data-testid={testId}
      aria-label={label}
      accept={accept}
      // Non-standard but supported by every current browser: choose a whole folder.
      {...(folder ? { webkitdirectory: "", directory: "" } : {})}
      onChange={(event) => {
        onFiles([...(event.currentTarget.files ?? [])].map((file) => ({ file, relativePath: folder ? directoryOf(file.webkitRelativePath || file.name) : "" })));
        event.currentTarget.value = "";
      }}
    />
  );
}
