import { useEffect, useRef, useState, type ReactNode } from "react";
import type { PDFDocumentProxy } from "pdfjs-dist";
import { Spinner } from "~/components/ui/spinner";
import { loadPdfjs, pdfWorkerUrl } from "~/features/files/components/preview-libs.client";

/**
 * A document's pages one under another, each with an overlay in page-relative coordinates
 * (issue 38: the designer places fields on it, the signing page shows where to sign; issue 39:
 * redaction marks are drawn on it). pdf.js loads only here (its own chunk); the PDF (≤ 25 MB) is
 * fetched whole. Pages render when they come near the screen, so a 50-page contract opens at once.
 */
export function PdfPages({ url, pageCount, overlay, label }: { url: string; pageCount: number; overlay: (page: number) => ReactNode; label: string }) {
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [ratios, setRatios] = useState<number[]>(() => Array.from({ length: pageCount }, () => 1.294));

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => Promise<void>) | null = null;
    void (async () => {
      try {
        const pdfjs = await loadPdfjs();
        pdfjs.GlobalWorkerOptions.workerSrc = pdfWorkerUrl;
        const response = await fetch(url, { credentials: "same-origin" });
        if (!response.ok) throw new Error(((await response.json().catch(() => null)) as { message?: string } | null)?.message ?? "The document could not be loaded.");
        const data = new Uint8Array(await response.arrayBuffer());
        const task = pdfjs.getDocument({ data });
        destroy = () => task.destroy();
        const opened = await task.promise;
        if (cancelled) return;
        const sizes = await Promise.all(Array.from({ length: opened.numPages }, async (_, index) => {
          const viewport = (await opened.getPage(index + 1)).getViewport({ scale: 1 });
          return viewport.height / viewport.width;
        }));
        if (cancelled) return;
        setRatios(sizes);
        setPdf(opened);
      } catch (error) {
        if (!cancelled) setFailed(error instanceof Error ? error.message : "The document could not be loaded.");
      }
    })();
    return () => {
      cancelled = true;
      void (destroy as (() => Promise<void>) | null)?.().catch(() => undefined);
    };
  }, [url]);

  if (failed) return <p className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">{failed}</p>;
  return (
    <div className="space-y-4" role="group" aria-label={label}>
      {!pdf ? (
        <p className="flex items-center gap-2 text-sm text-slate-700">
          <Spinner /> Loading the document…
        </p>
      ) : null}
      {ratios.map((ratio, index) => (
        <PdfPage key={index} pdf={pdf} index={index} ratio={ratio} total={ratios.length}>
          {overlay(index)}
        </PdfPage>
      ))}
    </div>
  );
}

function PdfPage({ pdf, index, ratio, total, children }: { pdf: PDFDocumentProxy | null; index: number; ratio: number; total: number; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [near, setNear] = useState(index < 2);

  useEffect(() => {
    const element = frame.current;
    if (!element || near) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), { rootMargin: "800px 0px" });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);

  useEffect(() => {
    if (!pdf || !near || !canvas.current || !frame.current) return;
    let task: { cancel: () => void; promise: Promise<void> } | null = null;
    let cancelled = false;
    void (async () => {
      const page = await pdf.getPage(index + 1);
      if (cancelled || !canvas.current || !frame.current) return;
      const width = frame.current.clientWidth || 800;
      const base = page.getViewport({ scale: 1 });
      const scale = (width / base.width) * Math.min(2, window.devicePixelRatio || 1);
      const viewport = page.getViewport({ scale });
      canvas.current.width = Math.floor(viewport.width);
      canvas.current.height = Math.floor(viewport.height);
      task = page.render({ canvas: canvas.current, viewport });
      await task.promise.catch(() => undefined);
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, near, index]);

  return (
    <div ref={frame} className="relative w-full overflow-hidden rounded border border-slate-300 bg-white shadow-sm" style={{ aspectRatio: `1 / ${ratio}` }}>
      <canvas ref={canvas} className="absolute inset-0 h-full w-full" aria-hidden="true" />
      <span className="sr-only">
        Page {index + 1} of {total}
      </span>
      <div className="absolute inset-0">{children}</div>
    </div>
  );
}
