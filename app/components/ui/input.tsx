import { useId, type ComponentProps, type ReactNode } from "react";
import { clsx } from "clsx";

/** The ids that tie a control to its label, description and error message. */
export function useFieldIds(id?: string) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  return {
    controlId,
    labelId: `${controlId}-label`,
    descriptionId: `${controlId}-description`,
    errorId: `${controlId}-error`,
  };
}

/** Joins the ids that apply into an aria-describedby value (undefined when none do). */
export function joinIds(...ids: Array<string | false | null | undefined>): string | undefined {
  const present = ids.filter((id): id is string => Boolean(id));
  return present.length > 0 ? present.join(" ") : undefined;
}

/** Whether an error prop holds a message worth showing. */
export function hasErrorMessage(error: ReactNode): boolean {
  return error != null && error !== false && error !== "";
}

/**
 * The star after a required field's label. Visual only: the control itself carries `required`,
 * which screen readers announce.
 */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-red-700">
      *
    </span>
  );
}

export function FieldLabel({
  htmlFor,
  id,
  isRequired = false,
  isHidden = false,
  children,
}: {
  htmlFor?: string;
  id?: string;
  isRequired?: boolean;
  isHidden?: boolean;
  children: ReactNode;
}) {
  return (
    <label htmlFor={htmlFor} id={id} className={clsx("block text-sm font-medium text-slate-900", isHidden && "sr-only")}>
      {children}
      {isRequired ? <RequiredMark /> : null}
    </label>
  );
}

export function FieldDescription({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm text-slate-600">
      {children}
    </p>
  );
}

export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm font-medium text-red-700">
      {children}
    </p>
  );
}

/** The shared look of text controls (input, textarea, select trigger). */
export function textControlClassName({ hasError, className }: { hasError: boolean; className?: string }) {
  return clsx(
    "block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
    "disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600",
    hasError ? "border-red-700" : "border-slate-500",
    className,
  );
}

export type InputProps = Omit<ComponentProps<"input">, "children"> & {
  label: ReactNode;
  /** Hides the label visually; it is still read by screen readers. */
  isLabelHidden?: boolean;
  description?: ReactNode;
  /** An error message; when present the input is marked invalid and describes itself with it. */
  error?: ReactNode;
  /** Classes for the wrapper around label, input and messages. */
  className?: string;
  inputClassName?: string;
};

/** A labelled text input with optional description and error message. */
export function Input({
  label,
  isLabelHidden,
  description,
  error,
  id,
  required,
  className,
  inputClassName,
  "aria-describedby": ariaDescribedBy,
  ...rest
}: InputProps) {
  const ids = useFieldIds(id);
  const hasError = hasErrorMessage(error);
  return (
    <div className={clsx("space-y-1.5", className)}>
      <FieldLabel htmlFor={ids.controlId} id={ids.labelId} isRequired={required} isHidden={isLabelHidden}>
        {label}
      </FieldLabel>
      {description ? <FieldDescription id={ids.descriptionId}>{description}</FieldDescription> : null}
      <input
        {...rest}
        id={ids.controlId}
        required={required}
        aria-invalid={hasError || undefined}
        aria-describedby={joinIds(description ? ids.descriptionId : null, hasError && ids.errorId, ariaDescribedBy)}
        className={textControlClassName({ hasError, className: inputClassName })}
      />
      {hasError ? <FieldError id={ids.errorId}>{error}</FieldError> : null}
    </div>
  );
}
