import { useId, type ReactNode } from "react";
import { clsx } from "clsx";

export const PROGRESS_MIN = 0;
export const PROGRESS_MAX = 100;

/** Keeps `value` within min..max; a value that is not a number counts as min. */
export function clamp(value: number, min: number, max: number): number {
  if (Number.isNaN(value)) return min;
  return Math.min(Math.max(value, min), max);
}

/** Spec: progress is a percentage, clamped to 0..100. */
export function clampProgress(value: number): number {
  return clamp(value, PROGRESS_MIN, PROGRESS_MAX);
}

export const progressBarSizes = ["sm", "md", "lg"] as const;
export type ProgressBarSize = (typeof progressBarSizes)[number];

const sizeClasses: Record<ProgressBarSize, string> = { sm: "h-1.5", md: "h-2.5", lg: "h-4" };

export type ProgressBarProps = {
  /** Percent complete; anything below 0 shows as 0 and anything above 100 as 100. */
  value: number;
  /** A visible label naming what progresses; without it the bar is named "Progress". */
  label?: ReactNode;
  /** Shows the rounded percentage beside the label. */
  showValue?: boolean;
  size?: ProgressBarSize;
  className?: string;
};

/** A determinate progress bar (role "progressbar", 0..100). */
export function ProgressBar({ value, label, showValue = false, size = "md", className }: ProgressBarProps) {
  const labelId = useId();
  const percent = clampProgress(value);
  const rounded = Math.round(percent);
  return (
    <div className={clsx("space-y-1.5", className)}>
      {label || showValue ? (
        <div className="flex items-center justify-between gap-4 text-sm">
          {label ? (
            <span id={labelId} className="font-medium text-slate-900">
              {label}
            </span>
          ) : (
            <span />
          )}
          {/* The bar's aria-valuetext already says this; the text is for sighted users. */}
          {showValue ? (
            <span aria-hidden="true" className="tabular-nums text-slate-700">
              {rounded}%
            </span>
          ) : null}
        </div>
      ) : null}
      <div
        role="progressbar"
        aria-valuemin={PROGRESS_MIN}
        aria-valuemax={PROGRESS_MAX}
        aria-valuenow={percent}
        aria-valuetext={`${rounded}%`}
        aria-labelledby={label ? labelId : undefined}
        aria-label={label ? undefined : "Progress"}
        data-size={size}
        className={clsx("w-full overflow-hidden rounded-full bg-slate-200", sizeClasses[size])}
      >
        <div
          className="h-full rounded-full bg-brand-600 transition-[width] duration-300 motion-reduce:transition-none"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
