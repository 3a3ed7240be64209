import { useEffect, useRef, useState } from "react";
import type { PDFDocumentProxy, RenderTask } from "pdfjs-dist";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { createReadAhead, failureOf, fetchPreviewRange, fetchPreviewSize, type PreviewFailure } from "./preview-fetch";
import { loadPdfjs, pdfWorkerUrl } from "./preview-libs.client";
import { usePageTimeReport } from "./use-page-time-report";

/**
 * pdf.js asks for the file in chunks of this size, and only for the chunks a page needs (G8).
 * Small, because opening a document touches many small objects spread over the file (pdf.js
 * reads every page dictionary of a flat page tree): with 64 KiB chunks a 200-page, 40 MB PDF
 * costs 12.7 MiB before its first page, with 4 KiB chunks 1.0 MiB. Sequential reads (a long
 * cross-reference table, a large object) grow their requests instead (`createReadAhead`).
 */
export const PDF_RANGE_CHUNK_SIZE = 4 * 1024;
/** The largest request a run of sequential reads grows to. */
export const PDF_MAX_READ_AHEAD = 256 * 1024;

export type PdfPreviewProps = {
  url: string;
  name: string;
  /**
   * The file's size in bytes (from the file page), so no request is needed just to learn it; null
   * when the preview is a watermarked copy, whose size one HEAD request tells.
   */
  size: number | null;
  onFailure: (failure: PreviewFailure) => void;
  /** Where the viewer reports how long each page is on screen (a room's or a share link's analytics); null: nowhere. */
  pageTimeUrl?: string | null;
};

function pdfFailure(error: unknown): PreviewFailure {
  const name = error instanceof Error ? error.name : "";
  if (name === "PasswordException") return { kind: "other", message: "This PDF is protected with a password, so it cannot be previewed. Download it to open it." };
  if (name === "InvalidPDFException") return { kind: "other", message: "This file could not be read as a PDF. Download it to open it on your device." };
  return failureOf(error);
}

/**
 * A PDF shown page by page with pdf.js, loaded only when a PDF is opened (a dynamic import, so no
 * other page pays for it). pdf.js reads the file through a range transport: every read is one
 * Range request for the chunks it needs, so the first page appears after the trailer, the
 * cross-reference table and that page's objects arrive, never after the whole file (G8). There
 * is no opening full GET either (with a plain URL pdf.js starts one and aborts it).
 */
export function PdfPreview({ url, name, size, onFailure, pageTimeUrl = null }: PdfPreviewProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [renderedPage, setRenderedPage] = useState<number | null>(null);

  // Open the document (first chunks only).
  useEffect(() => {
    const controller = new AbortController();
    let destroy: (() => Promise<void>) | null = null;
    let failed = false;
    const fail = (error: unknown) => {
      if (controller.signal.aborted || failed) return;
      failed = true;
      onFailure(pdfFailure(error));
    };

    (async () => {
      const pdfjs = await loadPdfjs();
      if (controller.signal.aborted) return;
      pdfjs.GlobalWorkerOptions.workerSrc = pdfWorkerUrl;
      const length = size ?? (await fetchPreviewSize(url, controller.signal));
      if (controller.signal.aborted) return;
      const transport = new pdfjs.PDFDataRangeTransport(length, null);
      const readAheadEnd = createReadAhead(PDF_RANGE_CHUNK_SIZE, PDF_MAX_READ_AHEAD, length);
      transport.requestDataRange = (begin: number, end: number) => {
        fetchPreviewRange(url, begin, readAheadEnd(begin, end), controller.signal).then((chunk) => {
          if (!controller.signal.aborted) transport.onDataRange(begin, chunk);
        }, fail);
      };
      const task = pdfjs.getDocument({
        range: transport,
        rangeChunkSize: PDF_RANGE_CHUNK_SIZE,
        disableAutoFetch: true,
        disableStream: true,
        // The app's CSP allows no WebAssembly compilation; pdf.js falls back to its JS decoders.
        useWasm: false,
      });
      destroy = () => task.destroy();
      const document = await task.promise;
      if (controller.signal.aborted) return;
      setPdf(document);
    })().catch(fail);

    return () => {
      controller.abort();
      void destroy?.().catch(() => undefined);
    };
  }, [url, size, onFailure]);

  // Draw the current page (fetching its objects on demand) whenever it changes.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!pdf || !canvas) return;
    let cancelled = false;
    let renderTask: RenderTask | null = null;
    (async () => {
      const page = await pdf.getPage(pageNumber);
      if (cancelled) return;
      const available = frameRef.current?.clientWidth || 800;
      const natural = page.getViewport({ scale: 1 });
      const cssScale = Math.min(available / natural.width, 2);
      const pixelRatio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: cssScale * pixelRatio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / pixelRatio)}px`;
      canvas.style.height = `${Math.floor(viewport.height / pixelRatio)}px`;
      renderTask = page.render({ canvas, viewport });
      await renderTask.promise;
      if (!cancelled) setRenderedPage(pageNumber);
    })().catch((error: unknown) => {
      if (cancelled || (error instanceof Error && error.name === "RenderingCancelledException")) return;
      onFailure(pdfFailure(error));
    });
    return () => {
      cancelled = true;
      renderTask?.cancel();
    };
  }, [pdf, pageNumber, onFailure]);

  // Reading time starts when a page is put on screen (drawing a dense page can take a moment).
  usePageTimeReport(pageTimeUrl, pdf ? pageNumber : null, pdf?.numPages ?? null);

  const pageCount = pdf?.numPages ?? 0;
  const isDrawing = renderedPage !== pageNumber;

  return (
    <div className="space-y-3" data-testid="pdf-preview">
      {pdf ? (
        <nav aria-label="PDF pages" className="flex items-center justify-center gap-3">
          <Button variant="secondary" size="sm" onClick={() => setPageNumber((n) => Math.max(1, n - 1))} disabled={pageNumber <= 1}>
            Previous page
          </Button>
          <p className="min-w-28 text-center text-sm text-slate-800" aria-live="polite" data-testid="pdf-page-status">
            Page {pageNumber} of {pageCount}
          </p>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setPageNumber((n) => Math.min(pageCount, n + 1))}
            disabled={pageNumber >= pageCount}
          >
            Next page
          </Button>
        </nav>
      ) : null}
      <div ref={frameRef} className="relative flex min-h-64 justify-center overflow-auto rounded-lg border border-slate-200 bg-slate-100 p-2">
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={`Page ${pageNumber} of ${name}`}
          data-rendered-page={renderedPage ?? undefined}
          className="max-w-full bg-white shadow-sm"
        />
        {isDrawing ? (
          <div className="absolute inset-0 flex items-center justify-center">
            <Spinner label={pdf ? `Drawing page ${pageNumber}` : `Loading ${name}`} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
