import { describe, expect, it } from "vitest";
import { PAGINATION_ELLIPSIS as E, paginationRange, type PaginationItem } from "~/components/ui/pagination-range";

const numbered = (items: PaginationItem[]) => items.filter((item): item is number => item !== E);

describe("paginationRange", () => {
  it("returns no items when there are no pages", () => {
    expect(paginationRange({ currentPage: 1, totalPages: 0 })).toEqual([]);
    expect(paginationRange({ currentPage: 1, totalPages: -3 })).toEqual([]);
    expect(paginationRange({ currentPage: 1, totalPages: Number.NaN })).toEqual([]);
  });

  it("lists every page without ellipses when they fit within five", () => {
    expect(paginationRange({ currentPage: 1, totalPages: 1 })).toEqual([1]);
    expect(paginationRange({ currentPage: 2, totalPages: 3 })).toEqual([1, 2, 3]);
    expect(paginationRange({ currentPage: 5, totalPages: 5 })).toEqual([1, 2, 3, 4, 5]);
  });

  it("fills the start and hides the rest behind one ellipsis when the current page is near the start", () => {
    for (const currentPage of [1, 2, 3]) {
      expect(paginationRange({ currentPage, totalPages: 20 })).toEqual([1, 2, 3, 4, E, 20]);
    }
  });

  it("shows the current page with one sibling on each side, between first and last, in the middle", () => {
    expect(paginationRange({ currentPage: 10, totalPages: 20 })).toEqual([1, E, 9, 10, 11, E, 20]);
    expect(paginationRange({ currentPage: 4, totalPages: 20 })).toEqual([1, E, 3, 4, 5, E, 20]);
    expect(paginationRange({ currentPage: 17, totalPages: 20 })).toEqual([1, E, 16, 17, 18, E, 20]);
  });

  it("fills the end and hides the rest behind one ellipsis when the current page is near the end", () => {
    for (const currentPage of [18, 19, 20]) {
      expect(paginationRange({ currentPage, totalPages: 20 })).toEqual([1, E, 17, 18, 19, 20]);
    }
  });

  it("starts ellipses as soon as there are six pages", () => {
    expect(paginationRange({ currentPage: 1, totalPages: 6 })).toEqual([1, 2, 3, 4, E, 6]);
    expect(paginationRange({ currentPage: 6, totalPages: 6 })).toEqual([1, E, 3, 4, 5, 6]);
  });

  it("shows only the current page between the ends when the sibling count is zero", () => {
    expect(paginationRange({ currentPage: 10, totalPages: 20, siblingCount: 0 })).toEqual([1, E, 10, E, 20]);
  });

  it("shows a hidden single page instead of an ellipsis when the budget has room for it", () => {
    expect(paginationRange({ currentPage: 3, totalPages: 20, siblingCount: 0 })).toEqual([1, 2, 3, E, 20]);
    expect(paginationRange({ currentPage: 18, totalPages: 20, siblingCount: 0 })).toEqual([1, E, 18, 19, 20]);
    expect(paginationRange({ currentPage: 4, totalPages: 20, maxVisiblePages: 7 })).toEqual([1, 2, 3, 4, 5, E, 20]);
  });

  it("shows more siblings when the visible-page budget allows", () => {
    expect(paginationRange({ currentPage: 25, totalPages: 50, siblingCount: 2, maxVisiblePages: 7 })).toEqual([
      1, E, 23, 24, 25, 26, 27, E, 50,
    ]);
  });

  it("shrinks the sibling count instead of exceeding five numbered pages", () => {
    expect(paginationRange({ currentPage: 10, totalPages: 20, siblingCount: 3 })).toEqual([1, E, 9, 10, 11, E, 20]);
  });

  it("clamps a current page outside 1..totalPages to the nearest end", () => {
    expect(paginationRange({ currentPage: 0, totalPages: 20 })).toEqual(paginationRange({ currentPage: 1, totalPages: 20 }));
    expect(paginationRange({ currentPage: 99, totalPages: 20 })).toEqual(paginationRange({ currentPage: 20, totalPages: 20 }));
  });

  it("refuses a budget too small to show the first, current and last page, and a negative sibling count", () => {
    expect(() => paginationRange({ currentPage: 1, totalPages: 20, maxVisiblePages: 2 })).toThrow(RangeError);
    expect(() => paginationRange({ currentPage: 1, totalPages: 20, maxVisiblePages: 4.5 })).toThrow(RangeError);
    expect(() => paginationRange({ currentPage: 1, totalPages: 20, siblingCount: -1 })).toThrow(RangeError);
  });

  it("for every combination keeps within the budget, in order, with first, current and last page reachable", () => {
    const violations: string[] = [];
    for (let maxVisiblePages = 3; maxVisiblePages <= 9; maxVisiblePages++) {
      for (let siblingCount = 0; siblingCount <= 3; siblingCount++) {
        for (let totalPages = 1; totalPages <= 40; totalPages++) {
          for (let currentPage = 1; currentPage <= totalPages; currentPage++) {
            const items = paginationRange({ currentPage, totalPages, siblingCount, maxVisiblePages });
            const pages = numbered(items);
            const fail = (rule: string) =>
              violations.push(`${rule}: ${JSON.stringify({ currentPage, totalPages, siblingCount, maxVisiblePages, items })}`);

            if (pages.length > maxVisiblePages) fail("too many numbered pages");
            if (items[0] !== 1) fail("does not start at page 1");
            if (items[items.length - 1] !== totalPages) fail("does not end at the last page");
            if (!pages.includes(currentPage)) fail("current page missing");
            if (totalPages <= maxVisiblePages && items.includes(E)) fail("hides pages although all fit");
            for (let i = 1; i < items.length; i++) {
              const previous = items[i - 1]!;
              const item = items[i]!;
              if (previous === E && item === E) fail("two ellipses in a row");
              if (typeof previous === "number" && typeof item === "number" && item !== previous + 1) {
                fail("a gap without an ellipsis");
              }
              const before = items[i - 2];
              // An ellipsis stands for at least one hidden page, never for none.
              if (previous === E && typeof item === "number" && !(typeof before === "number" && item - before >= 2)) {
                fail("an ellipsis that hides nothing");
              }
            }
            // The siblings that fit the budget are always shown.
            const siblingsThatFit = Math.min(siblingCount, Math.floor((maxVisiblePages - 3) / 2));
            for (let offset = -siblingsThatFit; offset <= siblingsThatFit; offset++) {
              const page = currentPage + offset;
              if (page >= 1 && page <= totalPages && !pages.includes(page)) fail(`sibling ${page} missing`);
            }
          }
        }
      }
    }
    expect(violations.slice(0, 5)).toEqual([]);
  });
});
