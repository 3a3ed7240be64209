import { useState, type ReactNode } from "react";
import { IntentForm } from "./intent-form";
import { Button, type ButtonSize } from "./ui/button";
import { Modal, ModalClose } from "./ui/modal";

/**
 * A danger button that asks first (removing someone, ending access): the button opens a dialog
 * that says what happens, and only its confirm button posts the intent (with the page's CSRF
 * field and the hidden values). Cancel, Escape or a click outside change nothing.
 */
export function ConfirmIntentButton({
  intent,
  fields,
  label,
  ariaLabel,
  title,
  description,
  confirmLabel,
  isLoading = false,
  size = "sm",
}: {
  intent: string;
  fields?: Record<string, string>;
  label: string;
  ariaLabel?: string;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  isLoading?: boolean;
  size?: ButtonSize;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Modal
      open={open}
      onOpenChange={setOpen}
      variant="danger"
      size="sm"
      title={title}
      description={description}
      trigger={
        <Button type="button" size={size} variant="danger" isLoading={isLoading} aria-label={ariaLabel}>
          {label}
        </Button>
      }
      footer={
        <>
          <ModalClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </ModalClose>
          <IntentForm intent={intent} fields={fields}>
            <Button type="submit" variant="danger" onClick={() => setTimeout(() => setOpen(false), 0)}>
              {confirmLabel}
            </Button>
          </IntentForm>
        </>
      }
    />
  );
}
