import type { ReactNode } from "react";
import * as CheckboxPrimitive from "@radix-ui/react-checkbox";
import { clsx } from "clsx";
import { FieldDescription, FieldError, hasErrorMessage, joinIds, RequiredMark, useFieldIds } from "./input";

/** true, false, or "indeterminate" (some but not all of a group are checked). */
export type CheckboxState = CheckboxPrimitive.CheckedState;

export type CheckboxProps = {
  label: ReactNode;
  checked?: CheckboxState;
  defaultChecked?: CheckboxState;
  onCheckedChange?: (checked: CheckboxState) => void;
  description?: ReactNode;
  error?: ReactNode;
  isDisabled?: boolean;
  isRequired?: boolean;
  name?: string;
  value?: string;
  id?: string;
  className?: string;
};

/** A labelled checkbox (Radix): Space toggles it; an indeterminate box becomes checked when toggled. */
export function Checkbox({
  label,
  checked,
  defaultChecked,
  onCheckedChange,
  description,
  error,
  isDisabled,
  isRequired,
  name,
  value,
  id,
  className,
}: CheckboxProps) {
  const ids = useFieldIds(id);
  const hasError = hasErrorMessage(error);
  return (
    <div className={clsx("flex items-start gap-3", className)}>
      <CheckboxPrimitive.Root
        id={ids.controlId}
        checked={checked}
        defaultChecked={defaultChecked}
        onCheckedChange={onCheckedChange}
        disabled={isDisabled}
        required={isRequired}
        name={name}
        value={value}
        aria-invalid={hasError || undefined}
        aria-describedby={joinIds(description ? ids.descriptionId : null, hasError && ids.errorId)}
        className={clsx(
          "group mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded border-2 bg-white text-white",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
          "data-[state=checked]:border-brand-600 data-[state=checked]:bg-brand-600",
          "data-[state=indeterminate]:border-brand-600 data-[state=indeterminate]:bg-brand-600",
          "disabled:cursor-not-allowed disabled:opacity-60",
          hasError ? "border-red-700" : "border-slate-500",
        )}
      >
        <CheckboxPrimitive.Indicator>
          <svg
            aria-hidden="true"
            focusable="false"
            viewBox="0 0 16 16"
            fill="none"
            className="hidden h-3.5 w-3.5 group-data-[state=checked]:block"
          >
            <path d="M3.5 8.5l3 3 6-7" stroke="currentColor" strokeWidth="2.25" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <svg
            aria-hidden="true"
            focusable="false"
            viewBox="0 0 16 16"
            fill="none"
            className="hidden h-3.5 w-3.5 group-data-[state=indeterminate]:block"
          >
            <path d="M4 8h8" stroke="currentColor" strokeWidth="2.25" strokeLinecap="round" />
          </svg>
        </CheckboxPrimitive.Indicator>
      </CheckboxPrimitive.Root>
      <div className="space-y-1">
        <label
          htmlFor={ids.controlId}
          className={clsx("block text-sm font-medium text-slate-900", isDisabled ? "cursor-not-allowed" : "cursor-pointer")}
        >
          {label}
          {isRequired ? <RequiredMark /> : null}
        </label>
        {description ? <FieldDescription id={ids.descriptionId}>{description}</FieldDescription> : null}
        {hasError ? <FieldError id={ids.errorId}>{error}</FieldError> : null}
      </div>
    </div>
  );
}
