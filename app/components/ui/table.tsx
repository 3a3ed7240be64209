import type { ComponentProps, ReactNode } from "react";
import { clsx } from "clsx";

export const sortDirections = ["ascending", "descending", "none"] as const;
export type SortDirection = (typeof sortDirections)[number];

export type TableProps = Omit<ComponentProps<"table">, "children"> & {
  /** Every table is named by a caption; hide it visually when a heading already says the same. */
  caption: ReactNode;
  isCaptionHidden?: boolean;
  children: ReactNode;
};

/** A semantic data table with a caption; scrolls sideways on narrow screens. */
export function Table({ caption, isCaptionHidden = false, className, children, ...rest }: TableProps) {
  return (
    // relative: what is absolutely placed inside (a visually hidden column name) stays inside the scrolling box.
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table {...rest} className={clsx("min-w-full border-collapse text-left text-sm", className)}>
        <caption className={isCaptionHidden ? "sr-only" : "px-4 py-3 text-left text-sm font-semibold text-slate-900"}>
          {caption}
        </caption>
        {children}
      </table>
    </div>
  );
}

export function TableHead({ className, ...rest }: ComponentProps<"thead">) {
  return <thead {...rest} className={clsx("border-y border-slate-200 bg-slate-50", className)} />;
}

/** A table head of plain column headers, from their names. */
export function HeaderRow({ columns }: { columns: readonly string[] }) {
  return (
    <TableHead>
      <TableRow>
        {columns.map((column) => (
          <TableHeaderCell key={column}>{column}</TableHeaderCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

export function TableBody({ className, ...rest }: ComponentProps<"tbody">) {
  return <tbody {...rest} className={clsx("divide-y divide-slate-200", className)} />;
}

export function TableRow({ className, ...rest }: ComponentProps<"tr">) {
  return <tr {...rest} className={clsx("hover:bg-slate-50", className)} />;
}

/** A header cell; `scope` defaults to "col" (use "row" for a row's leading header). */
export function TableHeaderCell({ className, scope = "col", ...rest }: ComponentProps<"th">) {
  return (
    <th
      {...rest}
      scope={scope}
      className={clsx(
        "px-4 py-2.5",
        scope === "row" ? "font-medium text-slate-900" : "text-xs font-semibold uppercase tracking-wide text-slate-700",
        className,
      )}
    />
  );
}

export type SortableHeaderCellProps = Omit<ComponentProps<"th">, "onClick"> & {
  /** How this column currently sorts the table; "none" when another column does. */
  sortDirection: SortDirection;
  onSort: () => void;
};

/**
 * A column header that sorts the table: a button inside the header, with `aria-sort` on the
 * header of the sorted column only.
 */
export function SortableHeaderCell({
  sortDirection,
  onSort,
  scope = "col",
  className,
  children,
  ...rest
}: SortableHeaderCellProps) {
  return (
    <th
      {...rest}
      scope={scope}
      aria-sort={sortDirection === "none" ? undefined : sortDirection}
      className={clsx("px-2 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-700", className)}
    >
      <button
        type="button"
        onClick={onSort}
        className="inline-flex items-center gap-1 rounded px-2 py-1 uppercase tracking-wide hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        {children}
        <SortIcon direction={sortDirection} />
      </button>
    </th>
  );
}

function SortIcon({ direction }: { direction: SortDirection }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none">
      <path
        d="M5 6.5L8 3.5l3 3"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
        strokeLinejoin="round"
        className={direction === "descending" ? "opacity-30" : undefined}
      />
      <path
        d="M5 9.5l3 3 3-3"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
        strokeLinejoin="round"
        className={direction === "ascending" ? "opacity-30" : undefined}
      />
    </svg>
  );
}

export function TableCell({ className, ...rest }: ComponentProps<"td">) {
  return <td {...rest} className={clsx("px-4 py-2.5 text-slate-700", className)} />;
}
