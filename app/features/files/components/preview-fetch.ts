import { previewErrorKindFor, type PreviewErrorKind } from "./preview-error";

/**
 * Reading a file's preview bytes in the browser. File content is not an API answer (the app's
 * HTTP client parses JSON and toasts failures), so previews use fetch directly and turn every
 * failure into one of the spec's preview error kinds.
 */
export type PreviewFailure = { kind: PreviewErrorKind; message?: string };

export class PreviewLoadError extends Error {
  readonly failure: PreviewFailure;
  constructor(failure: PreviewFailure) {
    super(failure.message ?? failure.kind);
    this.name = "PreviewLoadError";
    this.failure = failure;
  }
}

/** Where a member reads a file's content; a share link's visitor reads it under the link (/s/{key}/files/{id}). */
export function memberContentPath(fileId: string): string {
  return `/api/files/${encodeURIComponent(fileId)}`;
}

/** The preview address under a content path (`memberContentPath`, or a share link's). */
export function previewUrl(contentPath: string, attempt = 0): string {
  const path = `${contentPath}/preview`;
  // A retry asks again with a fresh URL, so nothing (browser or proxy) answers from an old failure.
  return attempt > 0 ? `${path}?attempt=${attempt}` : path;
}

export function downloadUrl(contentPath: string): string {
  return `${contentPath}/download`;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** Any thrown value as a preview failure (an abort is not one: callers check `signal.aborted`). */
export function failureOf(error: unknown): PreviewFailure {
  if (error instanceof PreviewLoadError) return error.failure;
  if (error instanceof TypeError) return { kind: "loading" }; // fetch: the network failed
  return { kind: "other" };
}

/**
 * Bytes [begin, end) of the preview (a Range request answered by 206). A server that ignores the
 * range (200) still works: the wanted slice is cut from the whole body.
 */
export async function fetchPreviewRange(url: string, begin: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Range: `bytes=${begin}-${end - 1}` }, credentials: "same-origin", signal });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new PreviewLoadError({ kind: "loading" });
  }
  if (response.status !== 206 && response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new PreviewLoadError({ kind: previewErrorKindFor(response.status) });
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return response.status === 200 ? bytes.subarray(begin, end) : bytes;
}

/**
 * The size of what the preview URL serves, asked with HEAD: a watermarked copy is longer than the
 * file it was made from, and the server makes it (once) when first asked.
 */
export async function fetchPreviewSize(url: string, signal?: AbortSignal): Promise<number> {
  let response: Response;
  try {
    response = await fetch(url, { method: "HEAD", credentials: "same-origin", cache: "no-store", signal });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new PreviewLoadError({ kind: "loading" });
  }
  const size = Number(response.headers.get("Content-Length"));
  if (!response.ok || !Number.isSafeInteger(size) || size <= 0) throw new PreviewLoadError({ kind: previewErrorKindFor(response.ok ? 500 : response.status) });
  return size;
}

/** Why a media element (img, video, audio) failed: asks the server for the status with HEAD. */
export async function probePreview(url: string, what: string): Promise<PreviewFailure> {
  try {
    const response = await fetch(url, { method: "HEAD", credentials: "same-origin", cache: "no-store" });
    if (response.ok) return { kind: "other", message: `This ${what} could not be displayed. Download it to open it on your device.` };
    return { kind: previewErrorKindFor(response.status) };
  } catch {
    return { kind: "loading" };
  }
}

/**
 * Where a range request should end: what pdf.js asked for, or more when it keeps asking for the
 * bytes right after the previous request (each such request doubles, up to `max`), so parsing a
 * long run of data takes a few round trips rather than one per 4 KiB. Ends stay chunk-aligned
 * (or at the end of the file), as pdf.js requires.
 */
export function createReadAhead(chunkSize: number, max: number, size: number) {
  let lastEnd = -1;
  let window = chunkSize;
  return function readAheadEnd(begin: number, end: number): number {
    window = begin === lastEnd ? Math.min(window * 2, max) : chunkSize;
    const to = Math.min(size, Math.max(end, begin + window));
    lastEnd = to;
    return to;
  };
}
