import { useEffect, useRef } from "react";
import { clsx } from "clsx";
import {
  PAGINATION_DEFAULT_MAX_VISIBLE_PAGES,
  PAGINATION_DEFAULT_SIBLING_COUNT,
  PAGINATION_ELLIPSIS,
  paginationRange,
} from "./pagination-range";

export type PaginationProps = {
  currentPage: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  siblingCount?: number;
  maxVisiblePages?: number;
  /** Names the navigation landmark; "Pagination" by default. */
  label?: string;
  className?: string;
};

const itemClassName = clsx(
  "inline-flex h-9 min-w-9 items-center justify-center rounded-md px-3 text-sm font-medium",
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
);
const stepClassName = clsx(
  itemClassName,
  "text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:text-slate-500 disabled:hover:bg-transparent",
);

/**
 * Page navigation: Previous, at most `maxVisiblePages` numbered pages (first and last always
 * among them) with ellipses for the gaps, and Next. Previous and Next are disabled at the ends.
 */
export function Pagination({
  currentPage,
  totalPages,
  onPageChange,
  siblingCount = PAGINATION_DEFAULT_SIBLING_COUNT,
  maxVisiblePages = PAGINATION_DEFAULT_MAX_VISIBLE_PAGES,
  label = "Pagination",
  className,
}: PaginationProps) {
  const navRef = useRef<HTMLElement>(null);
  const shouldFocusCurrentRef = useRef(false);
  const items = paginationRange({ currentPage, totalPages, siblingCount, maxVisiblePages });
  const lastPage = Math.floor(totalPages);
  const current = Math.min(Math.max(Math.floor(currentPage), 1), Math.max(lastPage, 1));

  // Previous/Next become disabled at the ends, which would drop keyboard focus to the page body;
  // hand it to the current page instead.
  useEffect(() => {
    if (!shouldFocusCurrentRef.current) return;
    shouldFocusCurrentRef.current = false;
    navRef.current?.querySelector<HTMLButtonElement>('[aria-current="page"]')?.focus();
  }, [current]);

  if (items.length === 0) return null;
  const goTo = (page: number) => {
    if (page !== current && page >= 1 && page <= lastPage) onPageChange(page);
  };
  const step = (page: number) => {
    shouldFocusCurrentRef.current = page <= 1 || page >= lastPage;
    goTo(page);
  };

  return (
    <nav ref={navRef} aria-label={label} className={className}>
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          <button type="button" onClick={() => step(current - 1)} disabled={current <= 1} className={stepClassName}>
            <span aria-hidden="true">‹</span>
            <span className="ml-1">Previous</span>
          </button>
        </li>
        {items.map((item, index) =>
          item === PAGINATION_ELLIPSIS ? (
            // Screen-reader users skip the gap: the page buttons already say which page each is.
            <li key={`ellipsis-${index}`} aria-hidden="true" className="px-1 text-sm text-slate-600">
              …
            </li>
          ) : (
            <li key={item}>
              <button
                type="button"
                onClick={() => goTo(item)}
                aria-current={item === current ? "page" : undefined}
                aria-label={`Page ${item}`}
                className={clsx(
                  itemClassName,
                  item === current
                    ? "bg-brand-600 text-white"
                    : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100",
                )}
              >
                {item}
              </button>
            </li>
          ),
        )}
        <li>
          <button type="button" onClick={() => step(current + 1)} disabled={current >= lastPage} className={stepClassName}>
            <span className="mr-1">Next</span>
            <span aria-hidden="true">›</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
