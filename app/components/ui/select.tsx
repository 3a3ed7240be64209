import type { ReactNode } from "react";
import * as SelectPrimitive from "@radix-ui/react-select";
import { clsx } from "clsx";
import {
  FieldDescription,
  FieldError,
  FieldLabel,
  hasErrorMessage,
  joinIds,
  textControlClassName,
  useFieldIds,
} from "./input";

export type SelectOption = {
  value: string;
  label: string;
  isDisabled?: boolean;
};

export type SelectProps = {
  label: ReactNode;
  isLabelHidden?: boolean;
  options: readonly SelectOption[];
  /** Shown while nothing is chosen. */
  placeholder?: string;
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  description?: ReactNode;
  error?: ReactNode;
  isDisabled?: boolean;
  isRequired?: boolean;
  /** Submits the value with a surrounding form under this name. */
  name?: string;
  id?: string;
  className?: string;
};

/** A labelled single-choice list (Radix Select): opens with Enter, Space or the arrow keys; typeahead works. */
export function Select({
  label,
  isLabelHidden,
  options,
  placeholder = "Choose…",
  value,
  defaultValue,
  onValueChange,
  description,
  error,
  isDisabled,
  isRequired,
  name,
  id,
  className,
}: SelectProps) {
  const ids = useFieldIds(id);
  const hasError = hasErrorMessage(error);
  return (
    <div className={clsx("space-y-1.5", className)}>
      <FieldLabel htmlFor={ids.controlId} id={ids.labelId} isRequired={isRequired} isHidden={isLabelHidden}>
        {label}
      </FieldLabel>
      {description ? <FieldDescription id={ids.descriptionId}>{description}</FieldDescription> : null}
      <SelectPrimitive.Root
        value={value}
        defaultValue={defaultValue}
        onValueChange={onValueChange}
        disabled={isDisabled}
        required={isRequired}
        name={name}
      >
        <SelectPrimitive.Trigger
          id={ids.controlId}
          aria-invalid={hasError || undefined}
          aria-required={isRequired || undefined}
          aria-describedby={joinIds(description ? ids.descriptionId : null, hasError && ids.errorId)}
          className={textControlClassName({
            hasError,
            className: "flex items-center justify-between gap-2 text-left data-[placeholder]:text-slate-600",
          })}
        >
          <SelectPrimitive.Value placeholder={placeholder} />
          <SelectPrimitive.Icon className="text-slate-600">
            <ChevronDownIcon />
          </SelectPrimitive.Icon>
        </SelectPrimitive.Trigger>
        <SelectPrimitive.Portal>
          <SelectPrimitive.Content
            position="popper"
            sideOffset={4}
            className="z-50 max-h-[var(--radix-select-content-available-height)] min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border border-slate-300 bg-white shadow-lg"
          >
            <SelectPrimitive.Viewport className="p-1">
              {options.map((option) => (
                <SelectPrimitive.Item
                  key={option.value}
                  value={option.value}
                  disabled={option.isDisabled}
                  className={clsx(
                    "relative flex cursor-default select-none items-center rounded py-2 pl-8 pr-3 text-sm text-slate-900 outline-none",
                    "data-[highlighted]:bg-brand-100 data-[highlighted]:text-brand-900",
                    "data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-500",
                  )}
                >
                  <SelectPrimitive.ItemIndicator className="absolute left-2 inline-flex items-center text-brand-700">
                    <CheckIcon />
                  </SelectPrimitive.ItemIndicator>
                  <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
                </SelectPrimitive.Item>
              ))}
            </SelectPrimitive.Viewport>
          </SelectPrimitive.Content>
        </SelectPrimitive.Portal>
      </SelectPrimitive.Root>
      {hasError ? <FieldError id={ids.errorId}>{error}</FieldError> : null}
    </div>
  );
}

function ChevronDownIcon() {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 16 16" className="h-4 w-4" fill="none">
      <path d="M4 6l4 4 4-4" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 16 16" className="h-4 w-4" fill="none">
      <path d="M3.5 8.5l3 3 6-7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
