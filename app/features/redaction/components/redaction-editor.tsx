import { lazy, Suspense, useRef, useState, type PointerEvent } from "react";
import { useNavigate } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { readCsrfToken } from "~/lib/csrf-token";
import { REDACTION_UNPROVEN } from "../redaction-types";
import { findMatches, REDACTION_PRESETS, type RedactionPreset, type TextLayerPage, type TextMatch } from "../text-layer";

const PdfPages = lazy(() => import("~/features/files/components/pdf-pages").then((module) => ({ default: module.PdfPages })));

type Mark = { id: number; page: number; x: number; y: number; w: number; h: number; text: string | null; keep: boolean };
type Draft = { page: number; x0: number; y0: number; x1: number; y1: number };

let sequence = 0;
const nextId = () => (sequence += 1);
/** A drawn area smaller than this (a click, a twitch) is not a mark. */
const MIN_SIDE = 0.004;

const fraction = (value: number) => Math.min(1, Math.max(0, value));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

type SearchKind = RedactionPreset | "words" | "pattern";

/**
 * Marking a PDF for redaction (issue 39, /files/{id}/redact): the pages, rectangles drawn on them
 * with the pointer, a search (words, the presets, or a regular expression) whose matches are
 * marked one by one or all at once, and the review list of every mark by page, each kept or
 * dropped. Applying sends the kept marks; the server removes what is under them, checks its own
 * result and saves it as a new version.
 */
export function RedactionEditor({ file }: { file: { id: string; name: string; version: number; pageCount: number; documentUrl: string; kind: "pdf" | "image" } }) {
  const navigate = useNavigate();
  const [marks, setMarks] = useState<Mark[]>([]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const drawing = useRef<Draft | null>(null);
  const [layer, setLayer] = useState<TextLayerPage[] | null>(null);
  const [kind, setKind] = useState<SearchKind>("email");
  const [query, setQuery] = useState("");
  const [matches, setMatches] = useState<TextMatch[] | null>(null);
  const [searchProblem, setSearchProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<"search" | "apply" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const kept = marks.filter((mark) => mark.keep);

  function addMarks(added: Omit<Mark, "id" | "keep">[]) {
    setMarks((list) => [...list, ...added.map((mark) => ({ ...mark, id: nextId(), keep: true }))]);
  }

  async function textLayer(): Promise<TextLayerPage[] | null> {
    if (layer) return layer;
    const response = await fetch(`/api/files/${file.id}/text-layer`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    const body = (await response.json().catch(() => ({}))) as { pages?: TextLayerPage[]; message?: string };
    if (!response.ok || !body.pages) {
      setSearchProblem(body.message ?? "The document's text could not be read. Draw the areas instead.");
      return null;
    }
    setLayer(body.pages);
    return body.pages;
  }

  async function search() {
    setSearchProblem(null);
    let pattern: RegExp;
    try {
      if (kind === "words") {
        if (!query.trim()) return setSearchProblem("Type the words to find.");
        pattern = new RegExp(escapeRegExp(query.trim()).replace(/\s+/g, "\\s+"), "giu");
      } else if (kind === "pattern") {
        if (!query.trim()) return setSearchProblem("Type a regular expression, like [0-9]{3}-[0-9]{4}.");
        pattern = new RegExp(query, "gu");
      } else pattern = new RegExp(REDACTION_PRESETS[kind].pattern, "gu");
    } catch {
      return setSearchProblem("This regular expression is not valid. Check its brackets and escapes.");
    }
    setBusy("search");
    const pages = await textLayer();
    setBusy(null);
    if (!pages) return;
    setMatches(findMatches(pages, pattern));
  }

  const isMarked = (match: TextMatch) => marks.some((mark) => mark.page === match.page && mark.text === match.text && match.rects.some((rect) => Math.abs(rect.x - mark.x) < 1e-6 && Math.abs(rect.y - mark.y) < 1e-6));
  const markMatch = (match: TextMatch) => addMarks(match.rects.map((rect) => ({ ...rect, text: match.text })));

  async function apply(flatten = false) {
    setBusy("apply");
    setProblem(null);
    try {
      const response = await fetch(`/api/files/${file.id}/redact`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-TOKEN": readCsrfToken() },
        body: JSON.stringify({ version: file.version, flatten, marks: kept.map(({ page, x, y, w, h }) => ({ page, x, y, w, h })) }),
      });
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      if (response.ok) {
        void navigate(`/files/${file.id}?redacted=1`);
        return;
      }
      setProblem(body.message ?? "The redaction could not be applied. Try again.");
    } catch {
      setProblem("The redaction could not be sent. Check your connection and try again.");
    } finally {
      setBusy(null);
    }
  }

  const point = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: fraction((event.clientX - box.left) / box.width), y: fraction((event.clientY - box.top) / box.height) };
  };

  const overlay = (page: number) => (
    <div
      className="absolute inset-0 cursor-crosshair touch-none"
      data-testid={`redact-page-${page + 1}`}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        const { x, y } = point(event);
        drawing.current = { page, x0: x, y0: y, x1: x, y1: y };
        setDraft(drawing.current);
      }}
      onPointerMove={(event) => {
        if (!drawing.current || drawing.current.page !== page) return;
        const { x, y } = point(event);
        drawing.current = { ...drawing.current, x1: x, y1: y };
        setDraft(drawing.current);
      }}
      onPointerUp={() => {
        const done = drawing.current;
        drawing.current = null;
        setDraft(null);
        if (!done) return;
        const w = Math.abs(done.x1 - done.x0);
        const h = Math.abs(done.y1 - done.y0);
        if (w < MIN_SIDE || h < MIN_SIDE) return;
        addMarks([{ page, x: Math.min(done.x0, done.x1), y: Math.min(done.y0, done.y1), w, h, text: null }]);
      }}
    >
      {marks
        .filter((mark) => mark.page === page)
        .map((mark) => (
          <div
            key={mark.id}
            className={mark.keep ? "absolute border border-red-600 bg-slate-900/70" : "absolute border border-dashed border-slate-500"}
            style={{ left: `${mark.x * 100}%`, top: `${mark.y * 100}%`, width: `${mark.w * 100}%`, height: `${mark.h * 100}%` }}
          />
        ))}
      {draft && draft.page === page ? (
        <div
          className="absolute border-2 border-red-600 bg-red-500/20"
          style={{ left: `${Math.min(draft.x0, draft.x1) * 100}%`, top: `${Math.min(draft.y0, draft.y1) * 100}%`, width: `${Math.abs(draft.x1 - draft.x0) * 100}%`, height: `${Math.abs(draft.y1 - draft.y0) * 100}%` }}
        />
      ) : null}
    </div>
  );

  const byPage = [...marks].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <section aria-label="The document" className="order-2 lg:order-1">
        {file.kind === "image" ? (
          <>
            <p className="mb-2 text-sm text-slate-700">Drag across the picture to mark an area. Each mark is painted black into the picture's pixels when you apply.</p>
            <div className="relative inline-block max-w-full">
              <img src={file.documentUrl} alt={file.name} className="block max-w-full select-none" draggable={false} />
              {overlay(0)}
            </div>
          </>
        ) : (
          <>
            <p className="mb-2 text-sm text-slate-700">Drag across a page to mark an area. Everything under a mark is removed when you apply: text, pictures, form fields and notes.</p>
            <Suspense fallback={<Spinner />}>
              <PdfPages url={file.documentUrl} pageCount={file.pageCount} label={`${file.name}, ${file.pageCount} pages`} overlay={overlay} />
            </Suspense>
          </>
        )}
      </section>
      <div className="order-1 space-y-4 lg:sticky lg:top-4 lg:order-2 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">
        {file.kind === "pdf" ? (
        <section className="space-y-3 rounded-md border border-slate-200 p-4" aria-labelledby="find-heading">
          <h2 id="find-heading" className="text-lg font-semibold text-slate-900">
            Find and mark
          </h2>
          <form
            className="space-y-2"
            onSubmit={(event) => {
              event.preventDefault();
              void search();
            }}
          >
            <label htmlFor="redact-find" className="block text-sm font-medium text-slate-900">
              What to find
            </label>
            <select id="redact-find" value={kind} onChange={(event) => setKind(event.target.value as SearchKind)} className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm">
                {(Object.keys(REDACTION_PRESETS) as RedactionPreset[]).map((preset) => (
                  <option key={preset} value={preset}>
                    {REDACTION_PRESETS[preset].label}
                  </option>
                ))}
                <option value="words">Words or a phrase</option>
                <option value="pattern">A regular expression</option>
            </select>
            {kind === "words" || kind === "pattern" ? (
              <label className="block text-sm font-medium text-slate-900">
                {kind === "words" ? "Words to find" : "Regular expression"}
                <input value={query} onChange={(event) => setQuery(event.target.value)} maxLength={200} className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 font-mono text-sm" />
              </label>
            ) : null}
            <Button type="submit" variant="secondary" size="sm" disabled={busy !== null}>
              {busy === "search" ? "Reading the text…" : "Find"}
            </Button>
          </form>
          {searchProblem ? <p className="text-sm text-red-800">{searchProblem}</p> : null}
          {matches ? (
            <div className="space-y-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm text-slate-700" role="status">
                  {matches.length === 0 ? "No matches." : `${matches.length} match${matches.length === 1 ? "" : "es"}.`}
                </p>
                {matches.some((match) => !isMarked(match)) ? (
                  <Button type="button" size="sm" onClick={() => matches.filter((match) => !isMarked(match)).forEach(markMatch)}>
                    Mark all
                  </Button>
                ) : null}
              </div>
              <ul className="max-h-64 space-y-1 overflow-y-auto text-sm">
                {matches.map((match, index) => (
                  <li key={index} className="flex items-center justify-between gap-2">
                    <span className="min-w-0 break-all">
                      <span className="text-slate-600">p. {match.page + 1}</span> {match.text}
                    </span>
                    <Button type="button" size="sm" variant="ghost" disabled={isMarked(match)} onClick={() => markMatch(match)} aria-label={`${isMarked(match) ? "Marked" : "Mark"} “${match.text}” on page ${match.page + 1}`}>
                      {isMarked(match) ? "Marked" : "Mark"}
                    </Button>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </section>
        ) : null}

        <section className="space-y-3 rounded-md border border-slate-200 p-4" aria-labelledby="review-heading">
          <h2 id="review-heading" className="text-lg font-semibold text-slate-900">
            Review ({kept.length} of {marks.length} kept)
          </h2>
          {marks.length === 0 ? <p className="text-sm text-slate-700">No marks yet: find words above, or drag across a page.</p> : null}
          <ol className="max-h-72 space-y-1 overflow-y-auto text-sm">
            {byPage.map((mark) => (
              <li key={mark.id} className="flex items-center justify-between gap-2">
                <label className="flex min-w-0 items-center gap-2">
                  <input type="checkbox" checked={mark.keep} onChange={(event) => setMarks((list) => list.map((one) => (one.id === mark.id ? { ...one, keep: event.target.checked } : one)))} className="h-4 w-4" />
                  <span className="min-w-0 break-all">
                    <span className="text-slate-600">p. {mark.page + 1}</span> {mark.text ?? "Area"}
                  </span>
                </label>
                <Button type="button" size="sm" variant="ghost" onClick={() => setMarks((list) => list.filter((one) => one.id !== mark.id))} aria-label={`Remove the mark ${mark.text ? `“${mark.text}”` : "area"} on page ${mark.page + 1}`}>
                  Remove
                </Button>
              </li>
            ))}
          </ol>
          {problem ? <Alert variant="error">{problem}</Alert> : null}
          {problem?.startsWith(REDACTION_UNPROVEN) ? (
            <Button type="button" variant="secondary" onClick={() => void apply(true)} disabled={busy !== null} className="w-full">
              Flatten the marked pages to pictures and apply
            </Button>
          ) : null}
          <Button type="button" onClick={() => void apply()} disabled={busy !== null || kept.length === 0} className="w-full">
            {busy === "apply" ? "Redacting…" : `Apply ${kept.length} mark${kept.length === 1 ? "" : "s"}`}
          </Button>
          <p className="text-xs text-slate-600">The redacted file becomes a new version; the original stays as the previous version, for people who may redact.</p>
        </section>
      </div>
    </div>
  );
}
