import type { ReactNode } from "react";
import { clsx } from "clsx";

export const alertVariants = ["info", "success", "warning", "error"] as const;
export type AlertVariant = (typeof alertVariants)[number];

const variantClasses: Record<AlertVariant, string> = {
  info: "border-sky-300 bg-sky-50 text-sky-900",
  success: "border-green-300 bg-green-50 text-green-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
};

/** Warnings and errors interrupt (role "alert"); information and success wait their turn (role "status"). */
export function alertRole(variant: AlertVariant): "alert" | "status" {
  return variant === "error" || variant === "warning" ? "alert" : "status";
}

export type AlertProps = {
  variant?: AlertVariant;
  title?: ReactNode;
  children?: ReactNode;
  /** When given, the alert shows a "Dismiss" button that calls it. */
  onDismiss?: () => void;
  dismissLabel?: string;
  className?: string;
};

/** An inline message about the page or a task: info, success, warning or error. */
export function Alert({ variant = "info", title, children, onDismiss, dismissLabel = "Dismiss", className }: AlertProps) {
  return (
    <div
      role={alertRole(variant)}
      data-variant={variant}
      className={clsx("flex items-start gap-3 rounded-md border px-4 py-3 text-sm", variantClasses[variant], className)}
    >
      <AlertIcon variant={variant} />
      <div className="min-w-0 flex-1 space-y-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div>{children}</div> : null}
      </div>
      {onDismiss ? (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={dismissLabel}
          className="-m-1 shrink-0 rounded p-1 hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          <svg aria-hidden="true" focusable="false" viewBox="0 0 16 16" className="h-4 w-4" fill="none">
            <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
          </svg>
        </button>
      ) : null}
    </div>
  );
}

function AlertIcon({ variant }: { variant: AlertVariant }) {
  const common = {
    "aria-hidden": true,
    focusable: false,
    viewBox: "0 0 20 20",
    className: "mt-0.5 h-4 w-4 shrink-0",
    fill: "none",
  } as const;
  switch (variant) {
    case "success":
      return (
        <svg {...common}>
          <circle cx="10" cy="10" r="8" stroke="currentColor" strokeWidth="1.75" />
          <path d="M6.5 10.5l2.5 2.5 4.5-5.5" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
    case "warning":
      return (
        <svg {...common}>
          <path d="M10 2.5l8 14.5H2L10 2.5z" stroke="currentColor" strokeWidth="1.75" strokeLinejoin="round" />
          <path d="M10 8v4M10 14.5v.01" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
        </svg>
      );
    case "error":
      return (
        <svg {...common}>
          <circle cx="10" cy="10" r="8" stroke="currentColor" strokeWidth="1.75" />
          <path d="M7 7l6 6M13 7l-6 6" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
        </svg>
      );
    case "info":
      return (
        <svg {...common}>
          <circle cx="10" cy="10" r="8" stroke="currentColor" strokeWidth="1.75" />
          <path d="M10 9v5M10 6v.01" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
        </svg>
      );
  }
}
