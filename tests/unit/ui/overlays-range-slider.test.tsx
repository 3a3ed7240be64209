import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import {
  defaultThumbLabel,
  fromSliderValues,
  getSliderLayout,
  getStepValues,
  positionAlongTrack,
  RangeSlider,
  SLIDER_MAX_DOTS,
  sliderDirections,
  toSliderValues,
  valueToPercent,
} from "~/components/ui/range-slider";

describe("the slider's direction mapping", () => {
  it("offers exactly the four spec directions", () => {
    expect(sliderDirections).toEqual(["ltr", "rtl", "ttb", "btt"]);
  });

  it("maps left-to-right to a horizontal slider with the minimum on the left", () => {
    expect(getSliderLayout("ltr")).toEqual({ orientation: "horizontal", dir: "ltr", inverted: false, startEdge: "left" });
  });

  it("maps right-to-left to a horizontal rtl slider with the minimum on the right", () => {
    expect(getSliderLayout("rtl")).toEqual({ orientation: "horizontal", dir: "rtl", inverted: false, startEdge: "right" });
  });

  it("maps bottom-to-top to Radix's plain vertical slider (minimum at the bottom)", () => {
    expect(getSliderLayout("btt")).toEqual({ orientation: "vertical", dir: "ltr", inverted: false, startEdge: "bottom" });
  });

  it("maps top-to-bottom to an inverted vertical slider (minimum at the top)", () => {
    expect(getSliderLayout("ttb")).toEqual({ orientation: "vertical", dir: "ltr", inverted: true, startEdge: "top" });
  });
});

describe("the slider's value shape", () => {
  it("turns a number into a one-element array and an array into a copy", () => {
    expect(toSliderValues(30, 0)).toEqual([30]);
    const original = [10, 90];
    const values = toSliderValues(original, 0);
    expect(values).toEqual([10, 90]);
    expect(values).not.toBe(original);
  });

  it("falls back to the minimum when there is no value at all", () => {
    expect(toSliderValues(undefined, 5)).toEqual([5]);
  });

  it("gives a number back for a number and an array back for an array", () => {
    expect(fromSliderValues([42], false)).toBe(42);
    expect(fromSliderValues([42], true)).toEqual([42]);
    expect(fromSliderValues([1, 2], true)).toEqual([1, 2]);
  });
});

describe("the slider's dots, marks and labels", () => {
  it("lists every step from min to max", () => {
    expect(getStepValues(0, 100, 10)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  });

  it("lists decimal steps without floating-point noise", () => {
    expect(getStepValues(0, 0.5, 0.1)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
  });

  it("draws no dots when there would be more than the cap", () => {
    expect(getStepValues(0, SLIDER_MAX_DOTS * 2, 1)).toEqual([]);
    expect(getStepValues(0, SLIDER_MAX_DOTS, 1)).toHaveLength(SLIDER_MAX_DOTS + 1);
  });

  it("draws no dots for a nonsensical step or range", () => {
    expect(getStepValues(0, 100, 0)).toEqual([]);
    expect(getStepValues(10, 10, 1)).toEqual([]);
  });

  it("converts values to percentages clamped to the track", () => {
    expect(valueToPercent(25, 0, 100)).toBe(25);
    expect(valueToPercent(15, 10, 20)).toBe(50);
    expect(valueToPercent(-5, 0, 100)).toBe(0);
    expect(valueToPercent(500, 0, 100)).toBe(100);
  });

  it("places a mark where Radix puts the thumb centre: inset by half a thumb at the ends", () => {
    expect(positionAlongTrack("left", 0, 20)).toEqual({ left: "calc(0% + 10px)", transform: "translateX(-50%)" });
    expect(positionAlongTrack("left", 50, 20)).toEqual({ left: "calc(50% + 0px)", transform: "translateX(-50%)" });
    expect(positionAlongTrack("bottom", 100, 20)).toEqual({ bottom: "calc(100% + -10px)", transform: "translateY(50%)" });
  });

  it("names two handles Minimum and Maximum and a single one after the slider", () => {
    expect(defaultThumbLabel(0, 2)).toBe("Minimum");
    expect(defaultThumbLabel(1, 2)).toBe("Maximum");
    expect(defaultThumbLabel(0, 1, "Volume")).toBe("Volume");
    expect(defaultThumbLabel(2, 3)).toBe("Value 3 of 3");
  });
});

describe("the RangeSlider component", () => {
  it("calls onChange with a number when it was given a number", () => {
    const onChange = vi.fn();
    render(<RangeSlider label="Volume" value={30} onChange={onChange} />);
    fireEvent.keyDown(screen.getByRole("slider", { name: "Volume" }), { key: "ArrowRight" });
    expect(onChange).toHaveBeenCalledWith(31);
  });

  it("calls onChange with an array when it was given an array", () => {
    const onChange = vi.fn();
    render(<RangeSlider label="Price" value={[20, 80]} onChange={onChange} />);
    const maximum = screen.getByRole("slider", { name: "Maximum" });
    // Radix moves the handle that has focus (a user tabs or clicks to it first).
    fireEvent.focus(maximum);
    fireEvent.keyDown(maximum, { key: "ArrowLeft" });
    expect(onChange).toHaveBeenCalledWith([20, 79]);
  });

  it("keeps its own value when uncontrolled", () => {
    const onChange = vi.fn();
    render(<RangeSlider label="Volume" defaultValue={10} step={5} onChange={onChange} />);
    const thumb = screen.getByRole("slider", { name: "Volume" });
    fireEvent.keyDown(thumb, { key: "ArrowUp" });
    fireEvent.keyDown(thumb, { key: "ArrowUp" });
    expect(onChange).toHaveBeenLastCalledWith(20);
    expect(thumb.getAttribute("aria-valuenow")).toBe("20");
  });

  it("ignores the slider keys when keyboard is false, yet stays focusable", () => {
    const onChange = vi.fn();
    render(<RangeSlider label="Locked keys" value={50} onChange={onChange} keyboard={false} />);
    const thumb = screen.getByRole("slider", { name: "Locked keys" });
    for (const key of ["ArrowRight", "ArrowLeft", "Home", "End", "PageUp", "PageDown"]) fireEvent.keyDown(thumb, { key });
    expect(onChange).not.toHaveBeenCalled();
    expect(thumb.getAttribute("tabindex")).toBe("0");
  });

  it("takes the handle out of the tab order and ignores keys when disabled", () => {
    const onChange = vi.fn();
    render(<RangeSlider label="Off" value={50} onChange={onChange} disabled />);
    const thumb = screen.getByRole("slider", { name: "Off" });
    fireEvent.keyDown(thumb, { key: "ArrowRight" });
    expect(onChange).not.toHaveBeenCalled();
    expect(thumb.hasAttribute("tabindex")).toBe(false);
  });

  it("does not let the lower handle pass the upper one", () => {
    function Controlled() {
      const [value, setValue] = useState([49, 50]);
      return <RangeSlider label="Range" value={value} onChange={setValue} />;
    }
    render(<Controlled />);
    const minimum = screen.getByRole("slider", { name: "Minimum" });
    fireEvent.focus(minimum);
    for (let press = 0; press < 5; press += 1) fireEvent.keyDown(minimum, { key: "ArrowRight" });
    expect(minimum.getAttribute("aria-valuenow")).toBe("50");
    expect(screen.getByRole("slider", { name: "Maximum" }).getAttribute("aria-valuenow")).toBe("50");
  });

  it("uses the given handle labels and names the group after the slider", () => {
    render(<RangeSlider label="Budget" value={[1, 2]} thumbLabels={["From", "To"]} />);
    expect(screen.getByRole("group", { name: "Budget" })).toBeTruthy();
    expect(screen.getByRole("slider", { name: "From" })).toBeTruthy();
    expect(screen.getByRole("slider", { name: "To" })).toBeTruthy();
  });

  it("draws a dot per step and a label per mark within range", () => {
    const { container } = render(
      <RangeSlider label="Stepped" value={40} step={10} dots marks={{ 0: "Zero", 50: "Half", 100: "Full", 150: "Out" }} />,
    );
    expect(container.querySelectorAll("[data-slider-dot]")).toHaveLength(11);
    expect([...container.querySelectorAll("[data-slider-mark]")].map((mark) => mark.textContent)).toEqual(["Zero", "Half", "Full"]);
  });

  it("shows the formatted value in the tooltip and as aria-valuetext", () => {
    const { container } = render(<RangeSlider label="Price" value={25} tooltip="always" formatValue={(v) => `€${v}`} />);
    expect(container.querySelector("[data-slider-tooltip]")?.textContent).toBe("€25");
    expect(screen.getByRole("slider", { name: "Price" }).getAttribute("aria-valuetext")).toBe("€25");
  });

  it("renders no tooltip when tooltip is none", () => {
    const { container } = render(<RangeSlider label="Plain" value={25} />);
    expect(container.querySelector("[data-slider-tooltip]")).toBeNull();
  });

  it("marks a vertical slider's handles with a vertical orientation", () => {
    render(<RangeSlider label="Up" value={5} direction="btt" />);
    expect(screen.getByRole("slider", { name: "Up" }).getAttribute("aria-orientation")).toBe("vertical");
  });
});
