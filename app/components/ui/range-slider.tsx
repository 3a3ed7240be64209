import * as Slider from "@radix-ui/react-slider";
import { clsx } from "clsx";
import { useState, type CSSProperties, type KeyboardEvent } from "react";

/** Spec: "horizontal left-to-right, right-to-left, vertical top-to-bottom, bottom-to-top". */
export const sliderDirections = ["ltr", "rtl", "ttb", "btt"] as const;
export type SliderDirection = (typeof sliderDirections)[number];
export const sliderTooltipModes = ["always", "hover", "focus", "none"] as const;
export type SliderTooltipMode = (typeof sliderTooltipModes)[number];

/** Thumb diameter in px (Tailwind `size-5`); marks and dots are placed where Radix puts thumb centres. */
export const SLIDER_THUMB_SIZE_PX = 20;
/** Above this many steps, `dots` would be noise (and thousands of nodes): they are not drawn. */
export const SLIDER_MAX_DOTS = 200;

/** The keys Radix's slider reacts to; with `keyboard={false}` they do nothing. */
export const SLIDER_KEYS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"] as const;

export type SliderEdge = "left" | "right" | "top" | "bottom";
export type SliderLayout = {
  orientation: "horizontal" | "vertical";
  dir: "ltr" | "rtl";
  inverted: boolean;
  /** The edge the minimum sits at. */
  startEdge: SliderEdge;
};

/** Maps the spec's `direction` to Radix's orientation/dir/inverted. */
export function getSliderLayout(direction: SliderDirection): SliderLayout {
  switch (direction) {
    case "ltr":
      return { orientation: "horizontal", dir: "ltr", inverted: false, startEdge: "left" };
    case "rtl":
      return { orientation: "horizontal", dir: "rtl", inverted: false, startEdge: "right" };
    case "btt":
      return { orientation: "vertical", dir: "ltr", inverted: false, startEdge: "bottom" };
    case "ttb":
      return { orientation: "vertical", dir: "ltr", inverted: true, startEdge: "top" };
  }
}

/** A value of either shape as the array Radix works with. */
export function toSliderValues(value: number | readonly number[] | undefined, fallback: number): number[] {
  if (value === undefined) return [fallback];
  return typeof value === "number" ? [value] : [...value];
}

/** Radix's array back in the shape the caller gave: a number in, a number out. */
export function fromSliderValues(values: readonly number[], isArray: boolean): number | number[] {
  return isArray ? [...values] : (values[0] ?? 0);
}

/** Every step value from min to max (for `dots`), or [] when there would be too many. */
export function getStepValues(min: number, max: number, step: number): number[] {
  if (!(step > 0) || max <= min) return [];
  const count = Math.floor((max - min) / step + 1e-9) + 1;
  if (count > SLIDER_MAX_DOTS + 1) return [];
  const decimals = (String(step).split(".")[1] ?? "").length;
  return Array.from({ length: count }, (_, index) => Number((min + index * step).toFixed(decimals)));
}

export function valueToPercent(value: number, min: number, max: number): number {
  if (max === min) return 0;
  return Math.min(100, Math.max(0, ((value - min) / (max - min)) * 100));
}

/** Default accessible names of the handles when no `thumbLabels` are given. */
export function defaultThumbLabel(index: number, count: number, label?: string): string | undefined {
  if (count === 1) return label;
  if (count === 2) return index === 0 ? "Minimum" : "Maximum";
  return `Value ${index + 1} of ${count}`;
}

/**
 * Where to put a mark or dot for a value at `percent`: Radix keeps thumbs inside the track, so a
 * thumb centre at p % sits (0.5 - p/100) × thumb size further along; marks follow the same rule.
 */
export function positionAlongTrack(edge: SliderEdge, percent: number, thumbSize = SLIDER_THUMB_SIZE_PX): CSSProperties {
  const shift = (0.5 - percent / 100) * thumbSize;
  const transform = {
    left: "translateX(-50%)",
    right: "translateX(50%)",
    top: "translateY(-50%)",
    bottom: "translateY(50%)",
  }[edge];
  return { [edge]: `calc(${percent}% + ${shift}px)`, transform };
}

export type SliderValue = number | number[];
/** `50` → number, `[20, 80]` → number[]: the shape the caller gave, without literal types. */
type SliderShape<V extends SliderValue> = V extends number ? number : number[];

export type RangeSliderProps<V extends SliderValue = number> = {
  /** Controlled value: a number for one handle, an array for several. */
  value?: V;
  defaultValue?: V;
  /** Called with the new value in the same shape as `value`/`defaultValue`. */
  onChange?: (value: SliderShape<V>) => void;
  /** Called once a drag or key press has finished changing the value. */
  onChangeEnd?: (value: SliderShape<V>) => void;
  min?: number;
  max?: number;
  step?: number;
  disabled?: boolean;
  /** When false, the arrow/Home/End/Page keys do not move the handles (the handles stay focusable). */
  keyboard?: boolean;
  direction?: SliderDirection;
  /** A dot at every step. */
  dots?: boolean;
  /** Labels along the track, keyed by value. */
  marks?: Record<number, string>;
  tooltip?: SliderTooltipMode;
  /** The slider's name: the accessible name of a single handle, of the group for several. */
  label?: string;
  /** Accessible names of the handles, in order (defaults: "Minimum"/"Maximum" for two). */
  thumbLabels?: string[];
  /** Text for tooltips and aria-valuetext (e.g. `(v) => `${v} %``). */
  formatValue?: (value: number) => string;
  /** Smallest gap between neighbouring handles, in steps (default 0: they may meet, never cross). */
  minStepsBetweenHandles?: number;
  name?: string;
  className?: string;
};

const tooltipVisibility: Record<Exclude<SliderTooltipMode, "none">, string> = {
  always: "block",
  hover: "hidden group-hover:block",
  focus: "hidden group-focus:block",
};

/** A slider with one or more handles that never cross, optional dots, marks and value tooltips. */
export function RangeSlider<V extends SliderValue = number>(props: RangeSliderProps<V>) {
  const {
    min = 0,
    max = 100,
    step = 1,
    disabled = false,
    keyboard = true,
    direction = "ltr",
    dots = false,
    marks,
    tooltip = "none",
    label,
    thumbLabels,
    formatValue,
    minStepsBetweenHandles = 0,
    name,
    className,
  } = props;
  const isControlled = props.value !== undefined;
  const isArray = Array.isArray(props.value ?? props.defaultValue);
  const [uncontrolled, setUncontrolled] = useState(() => toSliderValues(props.defaultValue, min));
  const values = isControlled ? toSliderValues(props.value, min) : uncontrolled;

  const layout = getSliderLayout(direction);
  const isVertical = layout.orientation === "vertical";
  const markEntries = Object.entries(marks ?? {})
    .map(([key, text]) => [Number(key), text] as const)
    .filter(([value]) => Number.isFinite(value) && value >= min && value <= max);
  const dotValues = dots ? getStepValues(min, max, step) : [];
  const [low, high] = values.length > 1 ? [Math.min(...values), Math.max(...values)] : [min, values[0] ?? min];

  const format = formatValue ?? String;
  const emit = (callback: ((value: SliderShape<V>) => void) | undefined, next: number[]) => {
    callback?.(fromSliderValues(next, isArray) as SliderShape<V>);
  };

  const onThumbKeyDown = (event: KeyboardEvent) => {
    // Radix listens on the root: stopping the key here leaves the value alone (the page may scroll).
    if (!keyboard && (SLIDER_KEYS as readonly string[]).includes(event.key)) event.stopPropagation();
  };

  return (
    <div
      role={values.length > 1 ? "group" : undefined}
      aria-label={values.length > 1 ? label : undefined}
      data-direction={direction}
      className={clsx(
        "relative select-none",
        isVertical ? "flex h-48 gap-3" : "w-full",
        tooltip === "always" && (isVertical ? "pl-12" : "pt-8"),
        disabled && "opacity-60",
        className,
      )}
    >
      <Slider.Root
        value={values}
        onValueChange={(next) => {
          if (!isControlled) setUncontrolled(next);
          emit(props.onChange, next);
        }}
        onValueCommit={(next) => emit(props.onChangeEnd, next)}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        orientation={layout.orientation}
        dir={layout.dir}
        inverted={layout.inverted}
        preserveThumbOrder
        minStepsBetweenThumbs={minStepsBetweenHandles}
        name={name}
        className={clsx(
          "relative flex touch-none items-center",
          isVertical ? "h-full w-5 flex-col" : "h-5 w-full",
          disabled ? "cursor-not-allowed" : "cursor-pointer",
        )}
      >
        <Slider.Track
          data-testid="slider-track"
          className={clsx("relative grow rounded-full bg-slate-200", isVertical ? "w-1.5" : "h-1.5")}
        >
          <Slider.Range
            className={clsx("absolute rounded-full", isVertical ? "w-full" : "h-full", disabled ? "bg-slate-400" : "bg-brand-600")}
          />
          {dotValues.map((value) => (
            <span
              key={value}
              aria-hidden
              data-slider-dot=""
              className={clsx(
                "absolute size-2 rounded-full border-2 bg-white",
                isVertical ? "left-1/2 -ml-1" : "top-1/2 -mt-1",
                value >= low && value <= high ? "border-brand-600" : "border-slate-300",
              )}
              style={positionAlongTrack(layout.startEdge, valueToPercent(value, min, max))}
            />
          ))}
        </Slider.Track>
        {values.map((value, index) => (
          <Slider.Thumb
            key={index}
            aria-label={thumbLabels?.[index] ?? defaultThumbLabel(index, values.length, label)}
            aria-valuetext={formatValue ? formatValue(value) : undefined}
            onKeyDown={onThumbKeyDown}
            className={clsx(
              "group relative block size-5 rounded-full border-2 bg-white shadow focus:outline-none focus-visible:ring-4 focus-visible:ring-brand-500/40",
              disabled ? "border-slate-400" : "border-brand-600 hover:ring-4 hover:ring-brand-500/20",
            )}
          >
            {tooltip !== "none" ? (
              <span
                aria-hidden
                data-slider-tooltip=""
                className={clsx(
                  "pointer-events-none absolute whitespace-nowrap rounded bg-slate-900 px-1.5 py-0.5 text-xs font-medium text-white",
                  isVertical ? "right-full top-1/2 mr-2 -translate-y-1/2" : "bottom-full left-1/2 mb-2 -translate-x-1/2",
                  tooltipVisibility[tooltip],
                )}
              >
                {format(value)}
              </span>
            ) : null}
          </Slider.Thumb>
        ))}
      </Slider.Root>
      {markEntries.length > 0 ? (
        <div className={clsx("relative text-xs text-slate-600", isVertical ? "h-full w-16" : "mt-1 h-5 w-full")}>
          {markEntries.map(([value, text]) => (
            <span
              key={value}
              data-slider-mark={value}
              className={clsx("absolute whitespace-nowrap", isVertical ? "left-0" : "top-0")}
              style={positionAlongTrack(layout.startEdge, valueToPercent(value, min, max))}
            >
              {text}
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}
