import { clsx } from "clsx";

export const spinnerSizes = ["sm", "md", "lg"] as const;
export type SpinnerSize = (typeof spinnerSizes)[number];

const sizeClasses: Record<SpinnerSize, string> = {
  sm: "h-4 w-4",
  md: "h-6 w-6",
  lg: "h-10 w-10",
};

/** The spinning ring alone, hidden from assistive technology: for use inside a labelled control. */
export function SpinnerIcon({ size = "sm", className }: { size?: SpinnerSize; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      fill="none"
      className={clsx("shrink-0 animate-spin motion-reduce:animate-[spin_2s_linear_infinite]", sizeClasses[size], className)}
    >
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="4" className="opacity-25" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

export type SpinnerProps = {
  size?: SpinnerSize;
  /** What is loading, for screen readers. */
  label?: string;
  className?: string;
};

/** A loading indicator announced as a status ("Loading") to screen readers. */
export function Spinner({ size = "md", label = "Loading", className }: SpinnerProps) {
  return (
    <span role="status" className={clsx("inline-flex items-center text-brand-600", className)}>
      <SpinnerIcon size={size} />
      <span className="sr-only">{label}</span>
    </span>
  );
}
