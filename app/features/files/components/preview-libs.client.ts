/**
 * The preview libraries, loaded on demand in the browser only. A `.client` module is left out of
 * the server build, so pdf.js (and its 1.3 MB worker), marked and papaparse never reach the
 * Worker; each is a separate chunk that only the preview needing it downloads.
 */
export { default as pdfWorkerUrl } from "pdfjs-dist/build/pdf.worker.min.mjs?url";

export const loadPdfjs = () => import("pdfjs-dist");
export const loadMarked = () => import("marked");
export const loadPapaparse = () => import("papaparse");
