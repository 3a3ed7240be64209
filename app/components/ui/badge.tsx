import type { ComponentProps } from "react";
import { clsx } from "clsx";

export const badgeVariants = ["neutral", "brand", "info", "success", "warning", "danger"] as const;
export type BadgeVariant = (typeof badgeVariants)[number];

const variantClasses: Record<BadgeVariant, string> = {
  neutral: "bg-slate-100 text-slate-800 ring-slate-300",
  brand: "bg-brand-50 text-brand-700 ring-brand-100",
  info: "bg-sky-50 text-sky-900 ring-sky-200",
  success: "bg-green-50 text-green-800 ring-green-200",
  warning: "bg-amber-50 text-amber-900 ring-amber-200",
  danger: "bg-red-50 text-red-800 ring-red-200",
};

export type BadgeProps = ComponentProps<"span"> & { variant?: BadgeVariant };

/** A short status label. Its meaning is in its text, never only in its colour. */
export function Badge({ variant = "neutral", className, ...rest }: BadgeProps) {
  return (
    <span
      {...rest}
      data-variant={variant}
      className={clsx(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset",
        variantClasses[variant],
        className,
      )}
    />
  );
}
