import { useEffect, useState } from "react";
import { Spinner } from "~/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "~/components/ui/table";
import { formatBytes } from "../files.constants";
import { failureOf, fetchPreviewRange, type PreviewFailure } from "./preview-fetch";
import { loadMarked, loadPapaparse } from "./preview-libs.client";

/** Text previews read at most this much of the file (one range request). */
export const TEXT_PREVIEW_BYTES = 256 * 1024;
/** A CSV preview shows at most this many rows below its header. */
export const CSV_PREVIEW_ROWS = 500;

export type TextPreviewKind = "text" | "markdown" | "csv";

/**
 * The first bytes as text. When the file was cut, a character split at the cut is left out
 * rather than shown as "�" (the decoder keeps an incomplete sequence back in stream mode).
 */
export function decodePreviewText(bytes: Uint8Array, isTruncated: boolean): string {
  const decoder = new TextDecoder("utf-8");
  return isTruncated ? decoder.decode(bytes, { stream: true }) : decoder.decode(bytes);
}

/**
 * A sandboxed document for rendered Markdown: the iframe has `sandbox=""` (no scripts, no
 * forms, an opaque origin) and the document's own policy loads nothing from anywhere.
 */
export function markdownDocument(html: string): string {
  return [
    "<!doctype html><html><head><meta charset=\"utf-8\">",
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
    "<style>body{font:15px/1.6 system-ui,sans-serif;color:#0f172a;margin:1.5rem;max-width:48rem}",
    "pre{overflow:auto;background:#f1f5f9;padding:.75rem;border-radius:.375rem}code{font-family:ui-monospace,monospace}",
    "img{max-width:100%}table{border-collapse:collapse}td,th{border:1px solid #cbd5e1;padding:.25rem .5rem}",
    "a{color:#1d4ed8}blockquote{border-left:4px solid #cbd5e1;margin-left:0;padding-left:1rem;color:#334155}</style>",
    "</head><body>",
    html,
    "</body></html>",
  ].join("");
}

/** Rows of a CSV preview: the header, at most `limit` rows below it, and whether rows were left out. */
export function csvPreviewRows(rows: string[][], limit: number, wasCut: boolean): { header: string[]; body: string[][]; isTruncated: boolean } {
  // A file cut by the byte limit may end in the middle of a row: that row is left out.
  const complete = wasCut ? rows.slice(0, -1) : rows;
  const [header = [], ...rest] = complete;
  return { header, body: rest.slice(0, limit), isTruncated: wasCut || rest.length > limit };
}

type Loaded =
  | { kind: "text"; text: string }
  | { kind: "markdown"; html: string }
  | { kind: "csv"; header: string[]; body: string[][]; isTruncated: boolean };

async function load(kind: TextPreviewKind, url: string, size: number, signal: AbortSignal): Promise<Loaded> {
  const wasCut = size > TEXT_PREVIEW_BYTES;
  const bytes = size === 0 ? new Uint8Array() : await fetchPreviewRange(url, 0, Math.min(size, TEXT_PREVIEW_BYTES), signal);
  const text = decodePreviewText(bytes, wasCut);
  if (kind === "markdown") {
    const { marked } = await loadMarked();
    return { kind, html: await marked.parse(text, { async: true, gfm: true }) };
  }
  if (kind === "csv") {
    const { default: Papa } = await loadPapaparse();
    const parsed = Papa.parse<string[]>(text, { preview: CSV_PREVIEW_ROWS + 2, skipEmptyLines: true });
    return { kind, ...csvPreviewRows(parsed.data, CSV_PREVIEW_ROWS, wasCut) };
  }
  return { kind, text };
}

export type TextPreviewProps = {
  kind: TextPreviewKind;
  url: string;
  name: string;
  size: number;
  onFailure: (failure: PreviewFailure) => void;
};

/** Plain text in a wrapping <pre>, Markdown rendered in a sandboxed frame, CSV in a table. */
export function TextPreview({ kind, url, name, size, onFailure }: TextPreviewProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    load(kind, url, size, controller.signal)
      .then(setLoaded)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) onFailure(failureOf(error));
      });
    return () => controller.abort();
  }, [kind, url, size, onFailure]);

  if (!loaded) return <Spinner label={`Loading the preview of ${name}`} className="py-10" />;

  const cutNotice =
    size > TEXT_PREVIEW_BYTES ? (
      <p className="text-sm text-slate-700" data-testid="preview-truncated">
        Showing the first {formatBytes(TEXT_PREVIEW_BYTES)} of {formatBytes(size)}. Download the file to see all of it.
      </p>
    ) : null;

  if (loaded.kind === "markdown") {
    return (
      <div className="space-y-2">
        <iframe
          title={`Preview of ${name}`}
          sandbox=""
          srcDoc={markdownDocument(loaded.html)}
          className="h-[70vh] w-full rounded-lg border border-slate-200 bg-white"
        />
        {cutNotice}
      </div>
    );
  }

  if (loaded.kind === "csv") {
    return (
      <div className="space-y-2">
        <Table caption={`${name}: first rows`} isCaptionHidden data-testid="csv-preview">
          <TableHead>
            <TableRow>
              {loaded.header.map((cell, index) => (
                <TableHeaderCell key={index}>{cell}</TableHeaderCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {loaded.body.map((row, rowIndex) => (
              <TableRow key={rowIndex}>
                {row.map((cell, cellIndex) => (
                  <TableCell key={cellIndex}>{cell}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {loaded.isTruncated ? (
          <p className="text-sm text-slate-700" data-testid="preview-truncated">
            Showing the first {Math.min(loaded.body.length, CSV_PREVIEW_ROWS)} rows. Download the file to see all of it.
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <div className="space-y-2">
      <pre
        tabIndex={0}
        aria-label={`Contents of ${name}`}
        className="max-h-[70vh] overflow-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-white p-4 font-mono text-sm text-slate-900"
      >
        {loaded.text}
      </pre>
      {cutNotice}
    </div>
  );
}
