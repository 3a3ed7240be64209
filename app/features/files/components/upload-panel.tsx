import { clsx } from "clsx";
import { useCallback, useEffect, useId, useRef, useState, type DragEvent } from "react";
import type { PreviousUpload, Upload } from "tus-js-client";
import { Button } from "~/components/ui/button";
import { ProgressBar } from "~/components/ui/progress-bar";
import { showToast } from "~/components/ui/toast";
import { denyAccess, Restricted } from "~/features/access/components/restricted";
import { readCsrfToken } from "~/lib/http";
import { formatBytes, partSizeFor, UPLOAD_EXPIRY_MS } from "../files.constants";
import { directoryOf, filesFromDrop, overallProgress, takeDropped, UPLOAD_CONCURRENCY, UPLOAD_RETRY_DELAYS, uploadErrorMessage, type PendingFile, type UploadItem } from "../upload-files";
import { UploadRow } from "./upload-row";

/**
 * Uploads into a folder (spec §2 "Folders"): buttons for files and whole folders, a drop zone for
 * both (a dropped folder keeps its structure), one resumable tus upload per file (tus-js-client,
 * loaded on first use) with its own progress bar, pause, resume and cancel, and an overall bar.
 * The server refuses what does not fit (quota, limits, rights) and its message is shown as is.
 */


// ---- the component ------------------------------------------------------------------------

let nextKey = 0;

export function UploadPanel({ folderId, canUploadFolders, onUploaded }: { folderId: string; canUploadFolders: boolean; onUploaded: () => void }) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const [isDragging, setDragging] = useState(false);
  const headingId = useId();
  const uploads = useRef(new Map<string, Upload>());
  const files = useRef(new Map<string, PendingFile>());
  const started = useRef(new Set<string>());
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const onUploadedRef = useRef(onUploaded);
  onUploadedRef.current = onUploaded;

  const update = useCallback((key: string, change: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  /** Starts (or resumes) one file's tus upload; a previous unfinished upload of it resumes from its offset. */
  const startUpload = useCallback(
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
      const { file, relativePath } = pending;
      const upload = new tus.Upload(file, {
        endpoint: "/api/uploads",
        chunkSize: partSizeFor(file.size),
        retryDelays: UPLOAD_RETRY_DELAYS,
        metadata: { filename: file.name, folderId, relativePath },
        headers: { "X-Requested-With": "XMLHttpRequest" },
        // The token is read for every request: a long upload outlives nothing, but stays correct.
        onBeforeRequest: (request) => request.setHeader("X-CSRF-TOKEN", readCsrfToken()),
        // The same file into another folder is another upload.
        fingerprint: async () => ["strongroom", folderId, relativePath, file.name, file.size, file.lastModified].join("/"),
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        onProgress: (bytesSent) => update(key, { bytesSent }),
        onSuccess: () => {
          uploads.current.delete(key);
          update(key, { status: "done", bytesSent: file.size });
          onUploadedRef.current();
        },
        onError: (error) => {
          update(key, { status: "error", error: uploadErrorMessage(error) });
        },
      });
      uploads.current.set(key, upload);
      const previous = await upload.findPreviousUploads().catch((): PreviousUpload[] => []);
      const resumable = previous
        .filter((entry) => Date.now() - Date.parse(entry.creationTime) < UPLOAD_EXPIRY_MS)
        .sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
      if (resumable) upload.resumeFromPreviousUpload(resumable);
      upload.start();
    },
    [folderId, update],
  );

  // A small queue: at most UPLOAD_CONCURRENCY uploads run at once.
  useEffect(() => {
    const running = items.filter((item) => item.status === "uploading").length;
    const queued = items.filter((item) => item.status === "queued" && !started.current.has(item.key)).slice(0, Math.max(0, UPLOAD_CONCURRENCY - running));
    for (const item of queued) {
      started.current.add(item.key);
      void startUpload(item.key);
    }
  }, [items, startUpload]);

  // Leaving the page pauses (never terminates) what is running: it resumes next time.
  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const upload of running.values()) void upload.abort(false);
    };
  }, []);

  const isBusy = items.some((item) => item.status === "uploading" || item.status === "queued");
  useEffect(() => {
    if (!isBusy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [isBusy]);

  const enqueue = (pending: PendingFile[]) => {
    if (pending.length === 0) return;
    const added = pending.map(({ file, relativePath }) => {
      const key = `upload-${++nextKey}`;
      files.current.set(key, { file, relativePath });
      return { key, name: file.name, relativePath, size: file.size, bytesSent: 0, status: "queued" as const, error: null };
    });
    setItems((current) => [...current, ...added]);
  };

  const pause = (key: string) => {
    void uploads.current.get(key)?.abort(false);
    update(key, { status: "paused" });
  };

  const cancel = async (key: string) => {
    const upload = uploads.current.get(key);
    uploads.current.delete(key);
    files.current.delete(key);
    setItems((current) => current.filter((item) => item.key !== key));
    if (upload) {
      // Termination: the server aborts the R2 upload and forgets it.
      await upload.abort(true).catch(() => showToast("The upload was stopped, but the server could not be told. It expires within a day.", { type: "warning" }));
    }
  };

  const clearFinished = () => {
    setItems((current) => current.filter((item) => item.status !== "done"));
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = takeDropped(event.dataTransfer);
    const hasFolders = dropped.some((item) => item.entry?.isDirectory);
    // Whole folders are a plan feature (bulk_upload): the files dropped beside them still go.
    if (hasFolders && !canUploadFolders) denyAccess({ feature: "bulk_upload" });
    filesFromDrop(dropped, canUploadFolders)
      .then(enqueue)
      .catch((error: unknown) => {
        console.warn("Reading the dropped items failed", error);
        showToast("The dropped items could not be read. Try the Upload buttons instead.", { type: "error" });
      });
  };

  const overall = overallProgress(items);
  const finished = items.filter((item) => item.status === "done").length;

  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded-lg border border-slate-300 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          Upload
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <Button size="sm" onClick={() => fileInput.current?.click()}>
            Upload files
          </Button>
          {canUploadFolders ? (
            <Button size="sm" variant="secondary" onClick={() => folderInput.current?.click()}>
              Upload folder
            </Button>
          ) : (
            <Restricted feature="bulk_upload" label="Upload folder">
              <Button size="sm" variant="secondary" tabIndex={-1}>
                Upload folder
              </Button>
            </Restricted>
          )}
        </div>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="upload-files-input"
          aria-label="Files to upload"
          onChange={(event) => {
            enqueue([...(event.currentTarget.files ?? [])].map((file) => ({ file, relativePath: "" })));
            event.currentTarget.value = "";
          }}
        />
        {canUploadFolders ? (
          <input
            ref={folderInput}
            type="file"
            multiple
            hidden
            data-testid="upload-folder-input"
            aria-label="Folder to upload"
            // Non-standard but supported by every current browser: choose a whole folder.
            {...{ webkitdirectory: "", directory: "" }}
            onChange={(event) => {
              enqueue([...(event.currentTarget.files ?? [])].map((file) => ({ file, relativePath: directoryOf(file.webkitRelativePath || file.name) })));
              event.currentTarget.value = "";
            }}
          />
        ) : null}
      </div>

      <div
        data-testid="upload-drop-zone"
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = "copy";
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={clsx(
          "flex min-h-20 items-center justify-center rounded-md border-2 border-dashed px-4 py-6 text-center text-sm",
          isDragging ? "border-brand-600 bg-brand-50 text-brand-800" : "border-slate-300 text-slate-700",
        )}
      >
        {canUploadFolders ? "Drop files or folders here to upload them." : "Drop files here to upload them."}
      </div>

      {items.length > 0 ? (
        <div className="space-y-4">
          <ProgressBar
            value={overall.percent}
            showValue
            size="lg"
            label={`Overall: ${finished} of ${items.length} ${items.length === 1 ? "file" : "files"} uploaded (${formatBytes(overall.sent)} of ${formatBytes(overall.total)})`}
          />
          <ul className="space-y-3" aria-label="Uploads">
            {items.map((item) => (
              <UploadRow key={item.key} item={item} onPause={pause} onResume={(key) => void startUpload(key)} onCancel={(key) => void cancel(key)} />
            ))}
          </ul>
          {finished > 0 && !isBusy ? (
            <Button size="sm" variant="ghost" onClick={clearFinished}>
              Clear finished uploads
            </Button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
