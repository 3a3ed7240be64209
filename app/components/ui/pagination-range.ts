/** Spec: pagination shows at most this many numbered pages. */
export const PAGINATION_DEFAULT_MAX_VISIBLE_PAGES = 5;
/** Spec: pages shown on each side of the current one (when room allows). */
export const PAGINATION_DEFAULT_SIBLING_COUNT = 1;
/** First, current and last page need three slots; fewer cannot keep both ends reachable. */
export const PAGINATION_MIN_VISIBLE_PAGES = 3;

export const PAGINATION_ELLIPSIS = "ellipsis" as const;
export type PaginationItem = number | typeof PAGINATION_ELLIPSIS;

export type PaginationRangeOptions = {
  currentPage: number;
  totalPages: number;
  siblingCount?: number;
  maxVisiblePages?: number;
};

function range(from: number, to: number): number[] {
  const pages: number[] = [];
  for (let page = from; page <= to; page++) pages.push(page);
  return pages;
}

/**
 * The items a pagination control shows: page numbers and "ellipsis" markers, in order.
 *
 * - Never more than `maxVisiblePages` numbered pages.
 * - The first and the last page are always present, so both ends are one click away.
 * - The current page is always present, with up to `siblingCount` pages on each side; the
 *   sibling count shrinks when `maxVisiblePages` leaves no room for it.
 * - Near either end, the pages up to that end are filled in instead of an ellipsis.
 *
 * `totalPages` below 1 gives no items; `currentPage` is clamped into 1..totalPages.
 */
export function paginationRange({
  currentPage,
  totalPages,
  siblingCount = PAGINATION_DEFAULT_SIBLING_COUNT,
  maxVisiblePages = PAGINATION_DEFAULT_MAX_VISIBLE_PAGES,
}: PaginationRangeOptions): PaginationItem[] {
  if (!Number.isInteger(siblingCount) || siblingCount < 0) {
    throw new RangeError(`siblingCount must be a whole number of 0 or more, got ${siblingCount}`);
  }
  if (!Number.isInteger(maxVisiblePages) || maxVisiblePages < PAGINATION_MIN_VISIBLE_PAGES) {
    throw new RangeError(
      `maxVisiblePages must be a whole number of ${PAGINATION_MIN_VISIBLE_PAGES} or more, got ${maxVisiblePages}`,
    );
  }
  const total = Number.isFinite(totalPages) ? Math.floor(totalPages) : 0;
  if (total < 1) return [];
  if (total <= maxVisiblePages) return range(1, total);

  const current = Math.min(Math.max(Number.isFinite(currentPage) ? Math.floor(currentPage) : 1, 1), total);
  // First + last + current take three slots; siblings share what is left, evenly on both sides.
  const siblings = Math.min(siblingCount, Math.floor((maxVisiblePages - PAGINATION_MIN_VISIBLE_PAGES) / 2));
  const windowStart = current - siblings;
  const windowEnd = current + siblings;

  // The window touches the first page: fill the budget from the start.
  if (windowStart <= 2) return [...range(1, maxVisiblePages - 1), PAGINATION_ELLIPSIS, total];
  // The window touches the last page: fill the budget up to the end.
  if (windowEnd >= total - 1) return [1, PAGINATION_ELLIPSIS, ...range(total - maxVisiblePages + 2, total)];

  // Middle: an ellipsis that would hide a single page shows that page instead, if the budget allows.
  let spare = maxVisiblePages - (windowEnd - windowStart + 1) - 2;
  const items: PaginationItem[] = [1];
  if (windowStart === 3 && spare > 0) {
    items.push(2);
    spare--;
  } else {
    items.push(PAGINATION_ELLIPSIS);
  }
  items.push(...range(windowStart, windowEnd));
  if (windowEnd === total - 2 && spare > 0) items.push(total - 1);
  else items.push(PAGINATION_ELLIPSIS);
  items.push(total);
  return items;
}
