import { useState, type ChangeEvent, type ComponentProps, type ReactNode } from "react";
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

/** Spec: a textarea is four rows tall unless told otherwise. */
export const TEXTAREA_DEFAULT_ROWS = 4;

/** The counter text: "n / max" with a limit, "n characters" without. */
export function characterCountText(length: number, maxLength?: number): string {
  if (maxLength != null) return `${length} / ${maxLength}`;
  return `${length} ${length === 1 ? "character" : "characters"}`;
}

export type TextareaProps = Omit<ComponentProps<"textarea">, "children"> & {
  label: ReactNode;
  isLabelHidden?: boolean;
  description?: ReactNode;
  error?: ReactNode;
  /** Shows the character counter (on by default). */
  showCount?: boolean;
  /** Classes for the wrapper around label, textarea and messages. */
  className?: string;
  textareaClassName?: string;
};

/**
 * A labelled multi-line text field with a character counter ("n / max" when `maxLength` is set,
 * "n characters" otherwise) that screen readers hear politely as it changes.
 */
export function Textarea({
  label,
  isLabelHidden,
  description,
  error,
  showCount = true,
  id,
  rows = TEXTAREA_DEFAULT_ROWS,
  required,
  maxLength,
  value,
  defaultValue,
  onChange,
  className,
  textareaClassName,
  "aria-describedby": ariaDescribedBy,
  ...rest
}: TextareaProps) {
  const ids = useFieldIds(id);
  const counterId = `${ids.controlId}-count`;
  const [uncontrolledLength, setUncontrolledLength] = useState(() => String(defaultValue ?? "").length);
  const length = value !== undefined ? String(value ?? "").length : uncontrolledLength;
  const hasError = hasErrorMessage(error);
  // A value set by code (not typed) can exceed maxLength; say so instead of hiding it.
  const isOverLimit = maxLength != null && length > maxLength;

  const handleChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    setUncontrolledLength(event.target.value.length);
    onChange?.(event);
  };

  return (
    <div className={clsx("space-y-1.5", className)}>
      <FieldLabel htmlFor={ids.controlId} id={ids.labelId} isRequired={required} isHidden={isLabelHidden}>
        {label}
      </FieldLabel>
      {description ? <FieldDescription id={ids.descriptionId}>{description}</FieldDescription> : null}
      <textarea
        {...rest}
        id={ids.controlId}
        rows={rows}
        required={required}
        maxLength={maxLength}
        value={value}
        defaultValue={defaultValue}
        onChange={handleChange}
        aria-invalid={hasError || isOverLimit || undefined}
        aria-describedby={joinIds(
          description ? ids.descriptionId : null,
          hasError && ids.errorId,
          showCount && counterId,
          ariaDescribedBy,
        )}
        className={textControlClassName({ hasError: hasError || isOverLimit, className: clsx("resize-y", textareaClassName) })}
      />
      <div className="flex items-start justify-between gap-4">
        <div>{hasError ? <FieldError id={ids.errorId}>{error}</FieldError> : null}</div>
        {showCount ? (
          <p
            id={counterId}
            aria-live="polite"
            className={clsx("shrink-0 text-sm tabular-nums", isOverLimit ? "font-medium text-red-700" : "text-slate-600")}
          >
            {characterCountText(length, maxLength)}
          </p>
        ) : null}
      </div>
    </div>
  );
}
