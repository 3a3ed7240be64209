import { useId, useRef } from "react";
import type { PreviousUpload } from "tus-js-client";
import { Button } from "~/components/ui/button";
import { ProgressBar } from "~/components/ui/progress-bar";
import { showToast } from "~/components/ui/toast";
import { denyAccess, Restricted } from "~/features/access/components/restricted";
import { readCsrfToken } from "~/lib/http";
import { formatBytes, partSizeFor, UPLOAD_EXPIRY_MS } from "../files.constants";
import { filesFromDrop, overallProgress, UPLOAD_RETRY_DELAYS, type DroppedItem } from "../upload-files";
import { DropZone, HiddenFilesInput, useUploadQueue } from "./upload-queue";
import { UploadRow } from "./upload-row";

/**
 * Uploads into a folder (spec §2 "Folders"): buttons for files and whole folders, a drop zone for
 * both (a dropped folder keeps its structure), one resumable tus upload per file (tus-js-client,
 * loaded on first use) with its own progress bar, pause, resume and cancel, and an overall bar.
 * The server refuses what does not fit (quota, limits, rights) and its message is shown as is.
 */


// ---- the component ------------------------------------------------------------------------

export function UploadPanel({ folderId, canUploadFolders, onUploaded }: { folderId: string; canUploadFolders: boolean; onUploaded: () => void }) {
  const headingId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const { items, enqueue, start, pause, cancel, clearFinished, isBusy } = useUploadQueue({
    onUploaded,
    createUpload: async (tus, _key, { file, relativePath }, callbacks) => {
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
        ...callbacks,
      });
      const previous = await upload.findPreviousUploads().catch((): PreviousUpload[] => []);
      const resumable = previous
        .filter((entry) => Date.now() - Date.parse(entry.creationTime) < UPLOAD_EXPIRY_MS)
        .sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
      if (resumable) upload.resumeFromPreviousUpload(resumable);
      return upload;
    },
  });

  const cancelWithNotice = (key: string) =>
    cancel(key).catch(() => showToast("The upload was stopped, but the server could not be told. It expires within a day.", { type: "warning" }));

  const onDrop = (dropped: DroppedItem[]) => {
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
        <HiddenFilesInput inputRef={fileInput} testId="upload-files-input" label="Files to upload" onFiles={enqueue} />
        {canUploadFolders ? <HiddenFilesInput inputRef={folderInput} folder testId="upload-folder-input" label="Folder to upload" onFiles={enqueue} /> : null}
      </div>

      <DropZone testId="upload-drop-zone" onDrop={onDrop}>
        {canUploadFolders ? "Drop files or folders here to upload them." : "Drop files here to upload them."}
      </DropZone>

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
              <UploadRow key={item.key} item={item} onPause={pause} onResume={(key) => void start(key)} onCancel={(key) => void cancelWithNotice(key)} />
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
