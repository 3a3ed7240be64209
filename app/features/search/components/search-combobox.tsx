import { clsx } from "clsx";
import { useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { SEARCH_QUICK_SIZE, type SearchHit } from "../search.constants";
import { Highlighted } from "./highlighted";

export const KIND_WORDS: Record<SearchHit["kind"], string> = {
  file: "File",
  folder: "Folder",
  room: "Data room",
  "share-link": "Share link",
  "receive-page": "Receive page",
  secret: "Secret",
  form: "Form",
  signature: "Signature",
};

/** The suggestions: while a new answer is on its way the previous hits stay (no flicker as the member types). */
type Quick = { status: "idle" | "loading" | "done" | "failed"; hits: SearchHit[] };

/**
 * The shell's search (issue 36): a real form (Enter opens /search?q=, without JavaScript too) whose
 * box suggests results as the member types (the ARIA combobox pattern: arrows move, Enter opens,
 * Escape closes). Ctrl/⌘-K brings the member here from anywhere (workspace-shell.tsx).
 */
export function SearchCombobox({ inputRef, onNavigate, className }: { inputRef?: React.RefObject<HTMLInputElement | null>; onNavigate?: () => void; className?: string }) {
  const navigate = useNavigate();
  const listId = useId();
  const [query, setQuery] = useState("");
  const [quick, setQuick] = useState<Quick>({ status: "idle", hits: [] });
  const [isOpen, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const ownRef = useRef<HTMLInputElement>(null);
  const input = inputRef ?? ownRef;

  useEffect(() => {
    if (!query.trim()) {
      setQuick({ status: "idle", hits: [] });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setQuick((previous) => ({ status: "loading", hits: previous.hits }));
      fetch(`/api/search?${new URLSearchParams({ q: query, limit: String(SEARCH_QUICK_SIZE) })}`, { headers: { accept: "application/json" }, signal: controller.signal })
        .then(async (response) => {
          if (!response.ok) throw new Error(String(response.status));
          const { hits } = (await response.json()) as { hits: SearchHit[] };
          setQuick({ status: "done", hits: hits.slice(0, SEARCH_QUICK_SIZE) });
          setActive(-1);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setQuick({ status: "failed", hits: [] });
          void error;
        });
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const hits = quick.hits;
  // The options: each hit, then "all results" (the /search page with its filters).
  const options = [...hits.map((hit) => ({ key: `${hit.kind}:${hit.id}`, href: hit.href, hit })), ...(query.trim() ? [{ key: "all", href: `/search?${new URLSearchParams({ q: query })}`, hit: null }] : [])];
  const isExpanded = isOpen && query.trim().length > 0;

  function go(href: string) {
    setOpen(false);
    setQuery("");
    onNavigate?.();
    void navigate(href);
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" && options.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % options.length);
    } else if (event.key === "ArrowUp" && options.length > 0) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? options.length - 1 : index - 1));
    } else if (event.key === "Enter" && isExpanded && active >= 0 && options[active]) {
      event.preventDefault();
      go(options[active].href);
    } else if (event.key === "Escape" && isExpanded) {
      // Closes the suggestions first; a second Escape reaches the dialog around it (if any).
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  }

  return (
    <form
      role="search"
      action="/search"
      method="get"
      className={clsx("relative", className)}
      onSubmit={(event) => {
        event.preventDefault();
        if (query.trim()) go(`/search?${new URLSearchParams({ q: query })}`);
      }}
    >
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search Strongroom
      </label>
      <input
        ref={input}
        id={`${listId}-input`}
        name="q"
        type="search"
        role="combobox"
        autoComplete="off"
        aria-expanded={isExpanded}
        aria-controls={`${listId}-list`}
        aria-autocomplete="list"
        aria-activedescendant={isExpanded && active >= 0 ? `${listId}-option-${active}` : undefined}
        aria-keyshortcuts="Control+K Meta+K"
        placeholder="Search files, rooms, links…"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-1.5 text-sm text-slate-900 placeholder:text-slate-600 focus:bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      />
      <div hidden={!isExpanded} className="absolute left-0 right-0 top-full z-40 mt-1 rounded-md border border-slate-200 bg-white py-1 shadow-lg">
      <div id={`${listId}-list`} role="listbox" aria-label="Search suggestions" className="max-h-96 overflow-y-auto">
        {options.map((option, index) => (
          <div
            key={option.key}
            id={`${listId}-option-${index}`}
            role="option"
            aria-selected={index === active}
            // mousedown, not click: the box keeps focus until the page changes.
            onMouseDown={(event) => {
              event.preventDefault();
              go(option.href);
            }}
            onMouseMove={() => setActive(index)}
            className={clsx("cursor-pointer px-3 py-2 text-sm", index === active ? "bg-brand-50" : "")}
          >
            {option.hit ? (
              <>
                <span className="block truncate font-medium text-slate-900">{option.hit.title}</span>
                <span className="block truncate text-xs text-slate-600">
                  {[KIND_WORDS[option.hit.kind], option.hit.place].filter(Boolean).join(" · ")}
                  {option.hit.snippet ? (
                    <>
                      {" · "}
                      <Highlighted text={option.hit.snippet} />
                    </>
                  ) : null}
                </span>
              </>
            ) : (
              <span className="font-medium text-brand-700">See all results for “{query.trim()}”</span>
            )}
          </div>
        ))}
      </div>
        <p className="px-3 py-1 text-xs text-slate-600" role="status">
          {quick.status === "loading" ? "Searching…" : quick.status === "failed" ? "Search is not answering. Press Enter to try the search page." : quick.status === "done" && hits.length === 0 ? "No quick matches. Press Enter to search everything." : ""}
        </p>
      </div>
    </form>
  );
}
