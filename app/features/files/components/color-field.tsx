import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from "react";
import { HexAlphaColorPicker, HexColorPicker } from "react-colorful";
import { FieldDescription, FieldError, FieldLabel, joinIds, textControlClassName } from "~/components/ui/input";
import { COLOR_FORMAT_MESSAGE, parseFolderColor } from "../folder-color";

/** What the picker starts from while the box is empty or holds text that is not a colour. */
const PICKER_FALLBACK = "#64748b";

/** The message for the text in the box: null when it is empty (no colour) or a colour. */
export function colorTextError(text: string): string | null {
  if (text.trim() === "") return null;
  return parseFolderColor(text) === null ? COLOR_FORMAT_MESSAGE : null;
}

export type ColorFieldProps = {
  value: string;
  onChange: (value: string) => void;
  label?: string;
  /** The form field name, for plain form posts. */
  name?: string;
  /** A message from outside (a refused submit, the server); shown instead of the field's own. */
  error?: string | null;
  /** Spec §5 "Alpha can be hidden": no alpha slider, and picked colours are opaque. */
  hideAlpha?: boolean;
  id?: string;
};

/**
 * Spec §2 "Color: text box that opens a colour picker". The box accepts every format of spec §5
 * (hex with 3, 4, 6 or 8 digits, rgb(), hsl(), hwb()); focusing or clicking it opens a popover
 * with the picker, a swatch shows the colour the text parses to, and text that is not a colour is
 * named inline once the member leaves the box. The picker writes canonical hex back into the box.
 * The picker opens in the flow, below the box, so it never covers the fields after it.
 */
export function ColorField({ value, onChange, label = "Color", name, error, hideAlpha = false, id }: ColorFieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  const popoverId = `${controlId}-picker`;
  const wrapperRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [isOpen, setOpen] = useState(false);
  const [isTouched, setTouched] = useState(false);

  const hex = parseFolderColor(value);
  const ownError = isTouched ? colorTextError(value) : null;
  const shownError = error || ownError;
  const pickerColor = hex ?? PICKER_FALLBACK;

  const close = () => setOpen(false);
  const containsNode = (node: EventTarget | null) => node instanceof Node && Boolean(wrapperRef.current?.contains(node));

  /** Leaving the field closes the picker and lets its own message show. */
  const leaveRef = useRef(() => {});
  leaveRef.current = () => {
    close();
    setTouched(true);
  };

  /**
   * A pointer press outside blurs the box on pointer-down, but the picker (in the flow) must not
   * vanish before the press ends: the fields below would move under the pointer and the click
   * would miss. So a blur during a press is settled once the press is over.
   */
  const pointer = useRef({ isDown: false, startedInside: false, isLeavePending: false });
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      pointer.current = { isDown: true, startedInside: containsNode(event.target), isLeavePending: false };
    };
    const onPointerUp = () => {
      const press = pointer.current;
      pointer.current = { isDown: false, startedInside: false, isLeavePending: false };
      if (!press.isLeavePending) return;
      window.setTimeout(() => {
        // A press on the field's own frame (swatch, picker border) keeps it open, with focus back in the box.
        if (press.startedInside) inputRef.current?.focus();
        else leaveRef.current();
      }, 0);
    };
    document.addEventListener("pointerdown", onPointerDown, true);
    document.addEventListener("pointerup", onPointerUp, true);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown, true);
      document.removeEventListener("pointerup", onPointerUp, true);
    };
    // Installed once: everything it reads lives in refs.
  }, []);

  const onWrapperBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (containsNode(event.relatedTarget)) return;
    if (pointer.current.isDown) {
      pointer.current.isLeavePending = true;
      return;
    }
    leaveRef.current();
  };

  const onWrapperKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape" && isOpen) {
      // The surrounding panel leaves Escape to the open popover (data-color-popover-open).
      event.stopPropagation();
      close();
    }
  };

  return (
    <div
      ref={wrapperRef}
      className="space-y-1.5"
      onBlur={onWrapperBlur}
      onKeyDown={onWrapperKeyDown}
      data-color-popover-open={isOpen ? "" : undefined}
    >
      <FieldLabel htmlFor={controlId}>{label}</FieldLabel>
      <FieldDescription id={descriptionId}>Hex (#abc, #abcd, #aabbcc, #aabbccdd), rgb(), hsl() or hwb().</FieldDescription>
      <div className="flex items-center gap-2">
        <span
          role="img"
          aria-label={hex ? `Color preview: ${hex}` : "No color"}
          data-testid="color-swatch"
          data-color={hex ?? ""}
          className="relative h-9 w-9 shrink-0 overflow-hidden rounded-md border border-slate-400"
          style={{
            // A checkerboard under the colour makes transparency visible.
            backgroundImage:
              "linear-gradient(45deg,#cbd5e1 25%,transparent 25%,transparent 75%,#cbd5e1 75%),linear-gradient(45deg,#cbd5e1 25%,transparent 25%,transparent 75%,#cbd5e1 75%)",
            backgroundSize: "10px 10px",
            backgroundPosition: "0 0,5px 5px",
          }}
        >
          <span className="absolute inset-0" style={{ backgroundColor: hex ?? "#ffffff" }} />
          {hex ? null : <span aria-hidden className="absolute left-1/2 top-[-20%] h-[140%] w-0.5 -translate-x-1/2 rotate-45 bg-red-600" />}
        </span>
        <input
          ref={inputRef}
          id={controlId}
          name={name}
          type="text"
          // The APG date-picker pattern: a text field that opens a dialog is a combobox
          // (a plain textbox may not carry aria-expanded).
          role="combobox"
          aria-autocomplete="none"
          value={value}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          placeholder="e.g. #3b82f6"
          aria-invalid={shownError ? true : undefined}
          aria-describedby={joinIds(descriptionId, shownError ? errorId : null)}
          aria-haspopup="dialog"
          aria-expanded={isOpen}
          aria-controls={isOpen ? popoverId : undefined}
          className={textControlClassName({ hasError: Boolean(shownError), className: "font-mono" })}
          onChange={(event) => onChange(event.target.value)}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
        />
      </div>
      {shownError ? <FieldError id={errorId}>{shownError}</FieldError> : null}
      {isOpen ? (
        <div
          id={popoverId}
          role="dialog"
          aria-label="Color picker"
          data-testid="color-picker"
          className="ml-11 w-fit space-y-2 rounded-lg border border-slate-300 bg-white p-3 shadow-md"
        >
          {hideAlpha ? (
            <HexColorPicker color={pickerColor.slice(0, 7)} onChange={(next) => onChange(next.toLowerCase())} />
          ) : (
            <HexAlphaColorPicker color={pickerColor} onChange={(next) => onChange(next.toLowerCase())} />
          )}
          <p className="max-w-[200px] text-xs text-slate-600">Drag, or use the arrow keys. Escape closes the picker.</p>
        </div>
      ) : null}
    </div>
  );
}

/** Whether a colour popover inside `root` is open (panels leave Escape to it). */
export function hasOpenColorPopover(root: HTMLElement | null): boolean {
  return Boolean(root?.querySelector("[data-color-popover-open]"));
}
