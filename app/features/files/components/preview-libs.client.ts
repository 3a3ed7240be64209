/**
 * The preview libraries, loaded on demand in the browser only. A `.client` module is left out of
 * the server build, so pdf.js (and its 1.3 MB worker), marked and papaparse never reach the
 * Worker; each is a separate chunk that only the preview needing it downloads.
 */
export { default as pdfWorkerUrl } from "pdfjs-dist/build/pdf.worker.min.mjs?url";

let abortsIgnored = false;

/**
 * pdf.js, once per page. A document destroyed while it loads (the member leaves the page, by the
 * client router, before the first page arrives) makes pdf.js reject internal promises nobody
 * awaits with its AbortException ("Worker was terminated."), or with the worker's own plain error
 * for the same abort ("Worker was terminated", passed back as an UnknownErrorException): that is the
 * abort we asked for, so it is not reported as an error. Any other rejection still is.
 */
export const loadPdfjs = () => {
  if (!abortsIgnored && typeof window !== "undefined") {
    abortsIgnored = true;
    window.addEventListener("unhandledrejection", (event) => {
      const reason: unknown = event.reason;
      if (typeof reason === "string" && /^Worker was terminated\.?$/.test(reason)) return event.preventDefault();
      if (typeof reason !== "object" || reason === null) return;
      const { name, message } = reason as { name?: unknown; message?: unknown };
      // Matched by its words too: pdf.js's exception classes are named differently from one build to the next.
      if (name === "AbortException" || (typeof message === "string" && /^Worker was terminated\.?$/.test(message))) event.preventDefault();
    });
  }
  return import("pdfjs-dist");
};
export const loadMarked = () => import("marked");
export const loadPapaparse = () => import("papaparse");
