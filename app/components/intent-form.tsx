import type { ReactNode } from "react";
import { Form } from "react-router";
import { CsrfInput } from "./csrf-input";
import { buttonClassName, type ButtonSize, type ButtonVariant } from "./ui/button";

/**
 * A post form to the page's action that says what it is for: the CSRF field, a hidden `intent`
 * (the action's switch) and any hidden values (`fields`), then the visible controls.
 */
export function IntentForm({
  intent,
  fields = {},
  className,
  encType,
  noValidate,
  children,
}: {
  intent: string;
  fields?: Record<string, string>;
  className?: string;
  encType?: "multipart/form-data";
  noValidate?: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="post" className={className} encType={encType} noValidate={noValidate}>
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}

/** The common case of an intent form: one button (Delete, Restore, Send again) with its hidden values. */
export function IntentButton({
  intent,
  fields,
  label,
  ariaLabel,
  variant = "ghost",
  size = "sm",
}: {
  intent: string;
  fields?: Record<string, string>;
  label: string;
  ariaLabel?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
}) {
  return (
    <IntentForm intent={intent} fields={fields}>
      <button type="submit" className={buttonClassName({ variant, size })} aria-label={ariaLabel}>
        {label}
      </button>
    </IntentForm>
  );
}
