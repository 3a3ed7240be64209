import { partSizeFor } from "~/features/files/files.constants";
import { readCsrfToken } from "~/lib/http";
import { sealedFileSize, sealingReader } from "./secret-files";

/**
 * Sends one of a secret's files through the file manager's tus endpoint, sealed part by part as
 * tus asks for it (the plaintext never leaves the browser). Resolves when the server has it all.
 */
export async function uploadSealedFile(file: File, secretFileId: string, key: CryptoKey, onProgress: (sent: number, total: number) => void, grant?: string): Promise<void> {
  const tus = await import("tus-js-client");
  const size = sealedFileSize(file.size);
  await new Promise<void>((resolve, reject) => {
    const upload = new tus.Upload(file, {
      endpoint: "/api/uploads",
      chunkSize: partSizeFor(size),
      retryDelays: [1000, 3000, 5000, 10_000],
      metadata: { filename: "sealed", secretFileId },
      // A visitor without an account sends the grant for this one file instead of a session.
      headers: { "X-Requested-With": "XMLHttpRequest", ...(grant ? { "Strongroom-Upload-Grant": grant } : {}) },
      onBeforeRequest: (request) => request.setHeader("X-CSRF-TOKEN", readCsrfToken()),
      fileReader: sealingReader(key),
      storeFingerprintForResuming: false,
      onProgress,
      onSuccess: () => resolve(),
      onError: (error) => reject(error),
    });
    upload.start();
  });
}
