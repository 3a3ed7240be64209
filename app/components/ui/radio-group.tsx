import type { ReactNode } from "react";
import * as RadioGroupPrimitive from "@radix-ui/react-radio-group";
import { clsx } from "clsx";
import { FieldDescription, FieldError, hasErrorMessage, joinIds, RequiredMark, useFieldIds } from "./input";

export const radioGroupOrientations = ["vertical", "horizontal"] as const;
export type RadioGroupOrientation = (typeof radioGroupOrientations)[number];

export type RadioOption = {
  value: string;
  label: ReactNode;
  description?: ReactNode;
  isDisabled?: boolean;
};

export type RadioGroupProps = {
  /** Names the whole group. */
  label: ReactNode;
  options: readonly RadioOption[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  description?: ReactNode;
  error?: ReactNode;
  isDisabled?: boolean;
  isRequired?: boolean;
  orientation?: RadioGroupOrientation;
  name?: string;
  id?: string;
  className?: string;
};

/** A labelled group of radio buttons (Radix): Tab enters the group, the arrow keys choose. */
export function RadioGroup({
  label,
  options,
  value,
  defaultValue,
  onValueChange,
  description,
  error,
  isDisabled,
  isRequired,
  orientation = "vertical",
  name,
  id,
  className,
}: RadioGroupProps) {
  const ids = useFieldIds(id);
  const hasError = hasErrorMessage(error);
  return (
    <div className={clsx("space-y-2", className)}>
      <div id={ids.labelId} className="text-sm font-medium text-slate-900">
        {label}
        {isRequired ? <RequiredMark /> : null}
      </div>
      {description ? <FieldDescription id={ids.descriptionId}>{description}</FieldDescription> : null}
      <RadioGroupPrimitive.Root
        id={ids.controlId}
        value={value}
        defaultValue={defaultValue}
        onValueChange={onValueChange}
        disabled={isDisabled}
        required={isRequired}
        orientation={orientation}
        name={name}
        aria-labelledby={ids.labelId}
        aria-invalid={hasError || undefined}
        aria-describedby={joinIds(description ? ids.descriptionId : null, hasError && ids.errorId)}
        className={clsx("flex gap-3", orientation === "vertical" ? "flex-col" : "flex-row flex-wrap gap-x-6")}
      >
        {options.map((option) => {
          const itemId = `${ids.controlId}-${option.value}`;
          const isItemDisabled = isDisabled || option.isDisabled;
          return (
            <div key={option.value} className="flex items-start gap-3">
              <RadioGroupPrimitive.Item
                id={itemId}
                value={option.value}
                disabled={option.isDisabled}
                aria-describedby={option.description ? `${itemId}-description` : undefined}
                className={clsx(
                  "mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full border-2 bg-white",
                  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
                  "data-[state=checked]:border-brand-600",
                  "disabled:cursor-not-allowed disabled:opacity-60",
                  hasError ? "border-red-700" : "border-slate-500",
                )}
              >
                <RadioGroupPrimitive.Indicator className="block h-2.5 w-2.5 rounded-full bg-brand-600" />
              </RadioGroupPrimitive.Item>
              <div className="space-y-0.5">
                <label
                  htmlFor={itemId}
                  className={clsx(
                    "block text-sm text-slate-900",
                    isItemDisabled ? "cursor-not-allowed opacity-60" : "cursor-pointer",
                  )}
                >
                  {option.label}
                </label>
                {option.description ? (
                  <p id={`${itemId}-description`} className="text-sm text-slate-600">
                    {option.description}
                  </p>
                ) : null}
              </div>
            </div>
          );
        })}
      </RadioGroupPrimitive.Root>
      {hasError ? <FieldError id={ids.errorId}>{error}</FieldError> : null}
    </div>
  );
}
