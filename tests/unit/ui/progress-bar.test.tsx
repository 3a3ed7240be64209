import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { clamp, clampProgress, ProgressBar } from "~/components/ui/progress-bar";

describe("clampProgress", () => {
  it("keeps values between 0 and 100 unchanged", () => {
    expect(clampProgress(0)).toBe(0);
    expect(clampProgress(42.5)).toBe(42.5);
    expect(clampProgress(100)).toBe(100);
  });

  it("raises values below 0 to 0 and lowers values above 100 to 100", () => {
    expect(clampProgress(-20)).toBe(0);
    expect(clampProgress(-Infinity)).toBe(0);
    expect(clampProgress(150)).toBe(100);
    expect(clampProgress(Infinity)).toBe(100);
  });

  it("treats a value that is not a number as 0", () => {
    expect(clampProgress(Number.NaN)).toBe(0);
  });

  it("clamps between any bounds", () => {
    expect(clamp(5, 10, 20)).toBe(10);
    expect(clamp(25, 10, 20)).toBe(20);
    expect(clamp(15, 10, 20)).toBe(15);
  });
});

describe("ProgressBar", () => {
  it("exposes a progressbar from 0 to 100 whose current value is clamped", () => {
    const { rerender } = render(<ProgressBar value={150} label="Upload" />);
    const bar = screen.getByRole("progressbar", { name: "Upload" });
    expect(bar.getAttribute("aria-valuemin")).toBe("0");
    expect(bar.getAttribute("aria-valuemax")).toBe("100");
    expect(bar.getAttribute("aria-valuenow")).toBe("100");
    rerender(<ProgressBar value={-20} label="Upload" />);
    expect(bar.getAttribute("aria-valuenow")).toBe("0");
    rerender(<ProgressBar value={37} label="Upload" />);
    expect(bar.getAttribute("aria-valuenow")).toBe("37");
  });

  it("fills the bar to the clamped percentage", () => {
    const { rerender } = render(<ProgressBar value={250} label="Upload" />);
    const fill = () => screen.getByRole("progressbar").firstElementChild as HTMLElement;
    expect(fill().style.width).toBe("100%");
    rerender(<ProgressBar value={-5} label="Upload" />);
    expect(fill().style.width).toBe("0%");
  });

  it("shows the clamped, rounded percentage only when asked", () => {
    const { rerender } = render(<ProgressBar value={133.3} label="Scan" showValue />);
    expect(screen.getByText("100%")).toBeTruthy();
    rerender(<ProgressBar value={33.4} label="Scan" showValue />);
    expect(screen.getByText("33%")).toBeTruthy();
    rerender(<ProgressBar value={33.4} label="Scan" />);
    expect(screen.queryByText("33%")).toBeNull();
  });

  it("is named Progress when it has no visible label", () => {
    render(<ProgressBar value={10} />);
    expect(screen.getByRole("progressbar", { name: "Progress" })).toBeTruthy();
  });
});
