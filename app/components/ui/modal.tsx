import * as Dialog from "@radix-ui/react-dialog";
import { clsx } from "clsx";
import { useRef, type ReactElement, type ReactNode } from "react";

/** Spec: the modal's fixed sizes and variants. */
export const modalSizes = ["sm", "md", "lg", "xl", "full"] as const;
export type ModalSize = (typeof modalSizes)[number];
export const modalVariants = ["default", "danger", "info", "success", "warning"] as const;
export type ModalVariant = (typeof modalVariants)[number];

const sizeClasses: Record<ModalSize, string> = {
  sm: "w-[calc(100vw-2rem)] max-w-sm max-h-[calc(100vh-2rem)]",
  md: "w-[calc(100vw-2rem)] max-w-lg max-h-[calc(100vh-2rem)]",
  lg: "w-[calc(100vw-2rem)] max-w-2xl max-h-[calc(100vh-2rem)]",
  xl: "w-[calc(100vw-2rem)] max-w-4xl max-h-[calc(100vh-2rem)]",
  full: "w-[calc(100vw-2rem)] h-[calc(100vh-2rem)]",
};

const variantStyles: Record<ModalVariant, { accent: string; icon: string | null; iconText: string }> = {
  default: { accent: "border-t-slate-200", icon: null, iconText: "" },
  danger: { accent: "border-t-red-600", icon: "bg-red-100 text-red-700", iconText: "!" },
  info: { accent: "border-t-sky-600", icon: "bg-sky-100 text-sky-700", iconText: "i" },
  success: { accent: "border-t-emerald-600", icon: "bg-emerald-100 text-emerald-700", iconText: "✓" },
  warning: { accent: "border-t-amber-500", icon: "bg-amber-100 text-amber-800", iconText: "!" },
};

export type ModalProps = {
  /** The heading, also the dialog's accessible name. */
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Actions, right-aligned at the bottom (e.g. Cancel / Save buttons). */
  footer?: ReactNode;
  size?: ModalSize;
  variant?: ModalVariant;
  /**
   * The element that opens the modal (rendered as the dialog trigger; focus returns to it on close).
   * Leave it out to control the modal with `open`/`onOpenChange` only.
   */
  trigger?: ReactElement;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** `false` blocks closing by Escape, outside click and the Close button (e.g. while "Deleting..."). */
  isDismissable?: boolean;
  className?: string;
};

/**
 * An accessible modal dialog: focus is trapped inside while open and returns to the trigger (or to
 * whatever had focus before it opened) on close; Escape and a click outside close it unless
 * `isDismissable` is false.
 */
export function Modal({
  title,
  description,
  children,
  footer,
  size = "md",
  variant = "default",
  trigger,
  open,
  defaultOpen,
  onOpenChange,
  isDismissable = true,
  className,
}: ModalProps) {
  // Radix returns focus to its Trigger only; without one, return it to where it was before opening.
  const focusBeforeOpen = useRef<HTMLElement | null>(null);
  const style = variantStyles[variant];

  const handleOpenChange = (next: boolean) => {
    if (!next && !isDismissable) return;
    onOpenChange?.(next);
  };

  return (
    <Dialog.Root open={open} defaultOpen={defaultOpen} onOpenChange={handleOpenChange}>
      {trigger ? <Dialog.Trigger asChild>{trigger}</Dialog.Trigger> : null}
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          data-size={size}
          data-variant={variant}
          className={clsx(
            "fixed left-1/2 top-1/2 z-50 flex -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-lg border-t-4 bg-white shadow-xl focus:outline-none",
            sizeClasses[size],
            style.accent,
            className,
          )}
          // Without a description, tell Radix there is none on purpose.
          {...(description ? {} : { "aria-describedby": undefined })}
          onOpenAutoFocus={() => {
            focusBeforeOpen.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            if (trigger) return;
            event.preventDefault();
            const target = focusBeforeOpen.current;
            if (target?.isConnected) target.focus();
          }}
          onEscapeKeyDown={(event) => {
            if (!isDismissable) event.preventDefault();
          }}
          onInteractOutside={(event) => {
            if (!isDismissable) event.preventDefault();
          }}
        >
          <div className="flex items-start gap-3 border-b border-slate-200 py-4 pl-5 pr-12">
            {style.icon ? (
              <span
                aria-hidden
                className={clsx("flex h-8 w-8 shrink-0 items-center justify-center rounded-full font-bold", style.icon)}
              >
                {style.iconText}
              </span>
            ) : null}
            <div className="min-w-0 flex-1">
              <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
              {description ? (
                <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
              ) : null}
            </div>
          </div>
          {children ? <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4 text-slate-700">{children}</div> : null}
          {footer ? (
            <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 bg-slate-50 px-5 py-3">{footer}</div>
          ) : null}
          {/* Last in the DOM so that Tab reaches the body's fields first; shown top-right. */}
          <DialogCloseButton disabled={!isDismissable} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The × in the top-right corner of every dialog (the kit Modal and the app's own panels). */
export function DialogCloseButton({ disabled }: { disabled?: boolean }) {
  return (
    <Dialog.Close
      aria-label="Close"
      disabled={disabled}
      className="absolute right-3 top-3 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40"
    >
      <svg aria-hidden viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
        <path d="M5.3 4.3a1 1 0 0 0-1.4 1.4L8.6 10l-4.7 4.3a1 1 0 1 0 1.4 1.4L10 11.4l4.3 4.3a1 1 0 0 0 1.4-1.4L11.4 10l4.3-4.3a1 1 0 0 0-1.4-1.4L10 8.6 5.3 4.3Z" />
      </svg>
    </Dialog.Close>
  );
}

/** A footer action that closes the modal when pressed (e.g. "Cancel"). */
export function ModalClose({ children, ...props }: Dialog.DialogCloseProps) {
  return <Dialog.Close {...props}>{children}</Dialog.Close>;
}
