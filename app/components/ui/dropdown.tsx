import * as Menu from "@radix-ui/react-dropdown-menu";
import { clsx } from "clsx";
import { useEffect, useRef, useState, type PointerEvent, type ReactNode } from "react";

/** Spec: "Dropdown: hover delay 200 ms, offset 4". */
export const DROPDOWN_HOVER_DELAY_MS = 200;
export const DROPDOWN_OFFSET = 4;
/** How long the pointer may be outside both trigger and menu (crossing the gap) before it closes. */
export const DROPDOWN_CLOSE_GRACE_MS = 150;

export const dropdownSizes = ["sm", "md", "lg"] as const;
export type DropdownSize = (typeof dropdownSizes)[number];
export const dropdownVariants = ["default", "primary", "ghost"] as const;
export type DropdownVariant = (typeof dropdownVariants)[number];

export type DropdownItem = {
  type?: "item";
  /** Passed to `onSelect`; also the React key. */
  id: string;
  label: ReactNode;
  /** Text used for type-ahead when `label` is not plain text. */
  textValue?: string;
  disabled?: boolean;
  /** Destructive actions (Delete, Revoke…) are shown in red. */
  danger?: boolean;
  onSelect?: () => void;
};
export type DropdownSeparator = { type: "separator"; id: string };
export type DropdownLabel = { type: "label"; id: string; label: ReactNode };
export type DropdownEntry = DropdownItem | DropdownSeparator | DropdownLabel;

export type DropdownProps = {
  /** The trigger button's content. */
  label: ReactNode;
  items: DropdownEntry[];
  /** Called with the chosen item's id (after the item's own `onSelect`). */
  onSelect?: (id: string) => void;
  size?: DropdownSize;
  variant?: DropdownVariant;
  align?: "start" | "center" | "end";
  disabled?: boolean;
  /** Open after the mouse rests on the trigger for DROPDOWN_HOVER_DELAY_MS (default true). */
  openOnHover?: boolean;
  className?: string;
  /** Accessible name for the trigger when `label` is not descriptive (e.g. an icon). */
  "aria-label"?: string;
};

type OpenReason = "hover" | "click" | "keyboard";

const triggerSizeClasses: Record<DropdownSize, string> = {
  sm: "px-2.5 py-1 text-xs",
  md: "px-3 py-1.5 text-sm",
  lg: "px-4 py-2 text-base",
};
const triggerVariantClasses: Record<DropdownVariant, string> = {
  default: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50",
  primary: "border border-brand-600 bg-brand-600 text-white hover:bg-brand-700",
  ghost: "border border-transparent bg-transparent text-slate-700 hover:bg-slate-100",
};
const menuSizeClasses: Record<DropdownSize, string> = {
  sm: "min-w-32 text-xs",
  md: "min-w-44 text-sm",
  lg: "min-w-56 text-base",
};

const isMouse = (event: PointerEvent) => event.pointerType === "mouse";

/**
 * A menu button: opens on click, on Enter/Space/ArrowDown, and after the mouse rests on the trigger
 * for 200 ms; a mouse-opened menu closes once the pointer has left both trigger and menu. Items are
 * reached with the arrow keys and chosen with Enter; Escape closes and returns focus to the trigger.
 */
export function Dropdown({
  label,
  items,
  onSelect,
  size = "md",
  variant = "default",
  align = "start",
  disabled = false,
  openOnHover = true,
  className,
  "aria-label": ariaLabel,
}: DropdownProps) {
  const [isOpen, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const openReason = useRef<OpenReason>("click");
  const nextReason = useRef<OpenReason>("click");
  const openTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const clearTimers = () => {
    clearTimeout(openTimer.current);
    clearTimeout(closeTimer.current);
  };
  useEffect(() => clearTimers, []);

  const changeOpen = (next: boolean, reason: OpenReason = nextReason.current) => {
    clearTimers();
    if (next) openReason.current = reason;
    setOpen(next);
  };

  const onPointerEnterAny = (event: PointerEvent) => {
    if (isMouse(event)) clearTimeout(closeTimer.current);
  };
  const onPointerLeaveAny = (event: PointerEvent) => {
    if (!isMouse(event)) return;
    clearTimeout(openTimer.current);
    // A menu opened from the keyboard stays put wherever the mouse happens to go.
    if (isOpen && openReason.current !== "keyboard") {
      clearTimeout(closeTimer.current);
      closeTimer.current = setTimeout(() => setOpen(false), DROPDOWN_CLOSE_GRACE_MS);
    }
  };

  return (
    <Menu.Root open={isOpen} onOpenChange={(next) => changeOpen(next)} modal={false}>
      <Menu.Trigger
        ref={triggerRef}
        disabled={disabled}
        aria-label={ariaLabel}
        className={clsx(
          "inline-flex items-center gap-1.5 rounded-md font-medium disabled:cursor-not-allowed disabled:opacity-50",
          triggerSizeClasses[size],
          triggerVariantClasses[variant],
          className,
        )}
        onPointerEnter={(event) => {
          onPointerEnterAny(event);
          if (!openOnHover || disabled || !isMouse(event) || isOpen) return;
          clearTimeout(openTimer.current);
          openTimer.current = setTimeout(() => changeOpen(true, "hover"), DROPDOWN_HOVER_DELAY_MS);
        }}
        onPointerLeave={onPointerLeaveAny}
        onPointerDown={(event) => {
          clearTimeout(openTimer.current);
          if (isOpen && openReason.current === "hover" && isMouse(event) && event.button === 0) {
            // The menu opened by hovering a moment ago: a click confirms it rather than closing it.
            event.preventDefault();
            openReason.current = "click";
            return;
          }
          nextReason.current = "click";
        }}
        onKeyDown={() => {
          nextReason.current = "keyboard";
        }}
      >
        {label}
        <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4 opacity-70" fill="currentColor">
          <path d="M5.2 7.2a1 1 0 0 1 1.4 0L10 10.6l3.4-3.4a1 1 0 1 1 1.4 1.4l-4.1 4.1a1 1 0 0 1-1.4 0L5.2 8.6a1 1 0 0 1 0-1.4Z" />
        </svg>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          sideOffset={DROPDOWN_OFFSET}
          align={align}
          loop
          collisionPadding={8}
          className={clsx(
            "z-50 rounded-md border border-slate-200 bg-white p-1 text-slate-800 shadow-lg focus:outline-none",
            menuSizeClasses[size],
          )}
          onPointerEnter={onPointerEnterAny}
          onPointerLeave={onPointerLeaveAny}
          onPointerDownOutside={(event) => {
            // The trigger handles its own clicks (toggle, or confirm a hover-opened menu).
            const target = event.detail.originalEvent.target;
            if (target instanceof Node && triggerRef.current?.contains(target)) event.preventDefault();
          }}
        >
          {items.map((entry) => {
            if (entry.type === "separator") {
              return <Menu.Separator key={entry.id} className="my-1 h-px bg-slate-200" />;
            }
            if (entry.type === "label") {
              return (
                <Menu.Label key={entry.id} className="px-2 py-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
                  {entry.label}
                </Menu.Label>
              );
            }
            return (
              <Menu.Item
                key={entry.id}
                disabled={entry.disabled}
                textValue={entry.textValue}
                data-danger={entry.danger ? "" : undefined}
                className={clsx(
                  "flex cursor-default select-none items-center rounded px-2 py-1.5 outline-none",
                  "data-[disabled]:cursor-not-allowed data-[disabled]:text-slate-400",
                  entry.danger
                    ? "text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800"
                    : "data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900",
                )}
                onSelect={() => {
                  entry.onSelect?.();
                  onSelect?.(entry.id);
                }}
              >
                {entry.label}
              </Menu.Item>
            );
          })}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
