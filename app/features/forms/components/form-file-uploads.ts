import { UPLOAD_RETRY_DELAYS, uploadErrorMessage } from "~/features/files/upload-files";
import { readCsrfToken, request } from "~/lib/http";

/**
 * A form's files on their way (issue 37): once the answers are in, each file goes through the file
 * manager's tus path with the submission's grant, one after another, reporting its progress. A
 * file that cannot be sent is withdrawn on the server, so its owner hears at once that it did not
 * arrive. Loaded (with tus-js-client) only when a form with files is sent.
 */

export type FileToSend = { uploadId: string; partSize: number; file: File };
export type SendFailure = { index: number; message: string };

export async function sendFormFiles(grant: string, items: readonly FileToSend[], onProgress: (index: number, sent: number) => void): Promise<SendFailure[]> {
  const tus = await import("tus-js-client");
  const headers = { "X-Requested-With": "XMLHttpRequest", "Strongroom-Upload-Grant": grant };
  const failures: SendFailure[] = [];
  for (const [index, item] of items.entries()) {
    try {
      await new Promise<void>((resolve, reject) => {
        new tus.Upload(item.file, {
          // The upload exists already (the submission made it): tus asks for its offset, then sends the rest.
          uploadUrl: `/api/uploads/${item.uploadId}`,
          chunkSize: item.partSize,
          retryDelays: UPLOAD_RETRY_DELAYS,
          headers,
          onBeforeRequest: (outgoing) => outgoing.setHeader("X-CSRF-TOKEN", readCsrfToken()),
          storeFingerprintForResuming: false,
          onProgress: (sent) => onProgress(index, sent),
          onSuccess: () => resolve(),
          onError: reject,
        }).start();
      });
      onProgress(index, item.file.size);
    } catch (error) {
      failures.push({ index, message: uploadErrorMessage(error as Error) });
      await request(`/api/uploads/${item.uploadId}`, { method: "DELETE", headers: { ...headers, "Tus-Resumable": "1.0.0" }, handleErrors: false }).catch(() => undefined);
    }
  }
  return failures;
}
