import { clsx } from "clsx";
import { Link } from "react-router";

/**
 * A rounded link with a count (a tag, a metadata field or value): the current one filled. Its
 * name read out is what it shows, then what the count counts (`countText`, for screen readers
 * only), so "q3 finance 1 file" is both seen and heard in the same order.
 */
export function CountChip({ to, label, count, countText, isCurrent }: { to: string; label: string; count?: number; countText?: string; isCurrent: boolean }) {
  return (
    <Link
      to={to}
      aria-current={isCurrent ? "page" : undefined}
      className={clsx(
        "inline-flex max-w-full items-center gap-2 rounded-full px-3 py-1 text-sm ring-1",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
        isCurrent ? "bg-brand-600 text-white ring-brand-600" : "bg-white text-slate-900 ring-slate-300 hover:bg-slate-50",
      )}
    >
      <span className="max-w-[16rem] truncate">{label}</span>
      {count !== undefined ? (
        <span className={clsx("rounded-full px-1.5 text-xs font-semibold", isCurrent ? "bg-white/20" : "bg-slate-100 text-slate-700")}>
          <span className="sr-only"> </span>
          {count}
          {countText ? <span className="sr-only"> {countText}</span> : null}
        </span>
      ) : null}
    </Link>
  );
}
