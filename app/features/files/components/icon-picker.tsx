import * as Dialog from "@radix-ui/react-dialog";
import { clsx } from "clsx";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Spinner } from "~/components/ui/spinner";
import "material-icons/iconfont/filled.css";
import { DialogCloseButton } from "~/components/ui/modal";

/** At most this many matches are drawn at once; typing narrows the rest down. */
export const ICON_RESULTS_LIMIT = 300;

/**
 * The ~2,100 Material icon names (45 KB of JSON) are loaded only when a picker opens, so they are
 * never part of a page's first load. One load per page, shared by every picker.
 */
let iconNamesPromise: Promise<readonly string[]> | null = null;
export function loadIconNames(): Promise<readonly string[]> {
  iconNamesPromise ??= import("~/features/files/material-icons").then((module) => module.MATERIAL_ICON_NAMES);
  // A failed load (offline) may be tried again by opening the picker again.
  iconNamesPromise.catch(() => {
    iconNamesPromise = null;
  });
  return iconNamesPromise;
}

/** "arrow back" and "Arrow_Back" both find arrow_back; names starting with the text come first. */
export function filterIconNames(names: readonly string[], text: string): string[] {
  const query = text.trim().toLowerCase().replace(/[\s-]+/g, "_");
  if (query === "") return [...names];
  const starts: string[] = [];
  const contains: string[] = [];
  for (const name of names) {
    if (name.startsWith(query)) starts.push(name);
    else if (name.includes(query)) contains.push(name);
  }
  return [...starts, ...contains];
}

/** The number of columns the grid is drawn with (read from the layout; 1 where there is none). */
function columnCount(grid: HTMLElement | null): number {
  if (!grid) return 1;
  const template = getComputedStyle(grid).gridTemplateColumns;
  const count = template ? template.split(" ").filter((part) => part && part !== "none").length : 0;
  return Math.max(1, count);
}

export type IconPickerProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The icon chosen now (highlighted in the grid), or null. */
  value: string | null;
  onSelect: (name: string) => void;
};

/**
 * Spec §2 "Icon: opens an icon picker with a filter box ("Type to filter"). One icon name is
 * chosen from a long built-in list of Material icon names." A dialog over the panel: the filter
 * box first, then a grid of buttons (named by the icon) that the arrow keys move through.
 */
export function IconPicker({ open, onOpenChange, value, onSelect }: IconPickerProps) {
  const focusBeforeOpen = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-slate-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          onOpenAutoFocus={() => {
            focusBeforeOpen.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            // Back to the control that opened the picker (there is no Radix trigger to return to).
            event.preventDefault();
            if (focusBeforeOpen.current?.isConnected) focusBeforeOpen.current.focus();
          }}
          className="fixed left-1/2 top-1/2 z-[60] flex max-h-[calc(100vh-2rem)] w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-lg bg-white shadow-xl focus:outline-none"
        >
          <IconPickerBody
            value={value}
            onSelect={(name) => {
              onSelect(name);
              onOpenChange(false);
            }}
          />
          <DialogCloseButton />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

type LoadState = { status: "loading" } | { status: "ready"; names: readonly string[] } | { status: "failed" };

/** The picker's content; mounted while the dialog is open, so each opening starts with an empty filter. */
export function IconPickerBody({ value, onSelect }: { value: string | null; onSelect: (name: string) => void }) {
  const [load, setLoad] = useState<LoadState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [filter, setFilter] = useState("");
  const [activeIndex, setActiveIndex] = useState(0);
  const gridRef = useRef<HTMLDivElement>(null);
  const filterId = "icon-picker-filter";

  useEffect(() => {
    let isCurrent = true;
    loadIconNames().then(
      (names) => isCurrent && setLoad({ status: "ready", names }),
      () => isCurrent && setLoad({ status: "failed" }),
    );
    return () => {
      isCurrent = false;
    };
  }, [attempt]);

  const matches = useMemo(() => (load.status === "ready" ? filterIconNames(load.names, filter) : []), [load, filter]);
  const shown = matches.slice(0, ICON_RESULTS_LIMIT);
  const active = Math.min(activeIndex, Math.max(0, shown.length - 1));

  const focusIcon = (index: number) => {
    const clamped = Math.max(0, Math.min(index, shown.length - 1));
    setActiveIndex(clamped);
    gridRef.current?.querySelectorAll<HTMLButtonElement>("button[data-icon]")[clamped]?.focus();
  };

  const onGridKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const columns = columnCount(gridRef.current);
    const moves: Record<string, number> = {
      ArrowRight: active + 1,
      ArrowLeft: active - 1,
      ArrowDown: active + columns,
      ArrowUp: active - columns,
      Home: 0,
      End: shown.length - 1,
      PageDown: active + columns * 5,
      PageUp: active - columns * 5,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    if (event.key === "ArrowUp" && active < columns) {
      document.getElementById(filterId)?.focus();
      return;
    }
    focusIcon(target);
  };

  return (
    <>
      <div className="space-y-3 border-b border-slate-200 py-4 pl-5 pr-12">
        <Dialog.Title className="text-lg font-semibold text-slate-900">Choose an icon</Dialog.Title>
        <div className="space-y-1.5">
          <label htmlFor={filterId} className="block text-sm font-medium text-slate-900">
            Type to filter
          </label>
          <input
            id={filterId}
            type="search"
            value={filter}
            placeholder="Type to filter"
            autoComplete="off"
            spellCheck={false}
            maxLength={64}
            aria-describedby="icon-picker-count"
            className="block w-full rounded-md border border-slate-500 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            onChange={(event) => {
              setFilter(event.target.value);
              setActiveIndex(0);
            }}
            onKeyDown={(event) => {
              if (event.key === "ArrowDown" && shown.length > 0) {
                event.preventDefault();
                focusIcon(0);
              }
              if (event.key === "Enter") {
                event.preventDefault();
                const first = shown[0];
                if (shown.length === 1 && first) onSelect(first);
              }
            }}
          />
          <p id="icon-picker-count" aria-live="polite" className="text-sm text-slate-600">
            {load.status === "ready"
              ? matches.length > shown.length
                ? `Showing ${shown.length} of ${matches.length} icons. Keep typing to narrow them down.`
                : `${matches.length} ${matches.length === 1 ? "icon" : "icons"}`
              : null}
          </p>
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
        {load.status === "loading" ? <Spinner label="Loading icons" /> : null}
        {load.status === "failed" ? (
          <div className="space-y-2 text-sm text-slate-700">
            <p>The icon list could not be loaded. Check your connection.</p>
            <button type="button" className="font-medium text-brand-700 underline" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          </div>
        ) : null}
        {load.status === "ready" && shown.length === 0 ? <p className="text-sm text-slate-700">No icon matches “{filter.trim()}”.</p> : null}
        {shown.length > 0 ? (
          <div
            ref={gridRef}
            role="group"
            aria-label="Icons"
            data-testid="icon-grid"
            className="grid grid-cols-5 gap-1 sm:grid-cols-8"
            onKeyDown={onGridKeyDown}
          >
            {shown.map((name, index) => (
              <button
                key={name}
                type="button"
                data-icon={name}
                aria-label={name}
                title={name}
                aria-pressed={name === value}
                tabIndex={index === active ? 0 : -1}
                onFocus={() => setActiveIndex(index)}
                onClick={() => onSelect(name)}
                className={clsx(
                  "flex h-14 flex-col items-center justify-center gap-0.5 rounded-md border text-slate-800 hover:bg-slate-100",
                  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
                  name === value ? "border-brand-600 bg-brand-50" : "border-transparent",
                )}
              >
                <span aria-hidden className="material-icons text-2xl leading-none">
                  {name}
                </span>
                <span aria-hidden className="w-full truncate px-0.5 text-center text-[10px] text-slate-600">
                  {name}
                </span>
              </button>
            ))}
          </div>
        ) : null}
      </div>
    </>
  );
}
