import type { ComponentProps } from "react";
import { clsx } from "clsx";
import { SpinnerIcon } from "./spinner";

export const buttonVariants = ["primary", "secondary", "danger", "ghost"] as const;
export type ButtonVariant = (typeof buttonVariants)[number];

export const buttonSizes = ["sm", "md", "lg"] as const;
export type ButtonSize = (typeof buttonSizes)[number];

const variantClasses: Record<ButtonVariant, string> = {
  primary: "bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:hover:bg-brand-600",
  secondary:
    "border border-slate-400 bg-white text-slate-900 shadow-sm hover:bg-slate-100 disabled:hover:bg-white",
  danger: "bg-red-700 text-white shadow-sm hover:bg-red-800 disabled:hover:bg-red-700",
  ghost: "bg-transparent text-brand-700 hover:bg-brand-50 disabled:hover:bg-transparent",
};

const sizeClasses: Record<ButtonSize, string> = {
  sm: "h-8 gap-1.5 px-3 text-sm",
  md: "h-10 gap-2 px-4 text-sm",
  lg: "h-12 gap-2 px-6 text-base",
};

/** The shared look of a button, for elements that must look like one (a link, a Radix trigger). */
export function buttonClassName({
  variant = "primary",
  size = "md",
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}) {
  return clsx(
    "inline-flex select-none items-center justify-center rounded-md font-medium transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
    "disabled:cursor-not-allowed disabled:opacity-60",
    variantClasses[variant],
    sizeClasses[size],
    className,
  );
}

export type ButtonProps = ComponentProps<"button"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, marks the button busy and stops further clicks until the work is done. */
  isLoading?: boolean;
};

/** A button. `type` defaults to "button" so a button inside a form never submits by accident. */
export function Button({
  variant = "primary",
  size = "md",
  isLoading = false,
  disabled,
  type = "button",
  className,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || isLoading}
      aria-busy={isLoading || undefined}
      data-variant={variant}
      data-size={size}
      className={buttonClassName({ variant, size, className })}
    >
      {isLoading ? <SpinnerIcon size={size === "lg" ? "md" : "sm"} /> : null}
      {children}
    </button>
  );
}
