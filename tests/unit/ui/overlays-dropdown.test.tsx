import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  Dropdown,
  DROPDOWN_CLOSE_GRACE_MS,
  DROPDOWN_HOVER_DELAY_MS,
  DROPDOWN_OFFSET,
  dropdownSizes,
  dropdownVariants,
  type DropdownEntry,
} from "~/components/ui/dropdown";

const items: DropdownEntry[] = [
  { id: "rename", label: "Rename" },
  { id: "archive", label: "Archive", disabled: true },
  { type: "separator", id: "sep" },
  { id: "delete", label: "Delete", danger: true },
];

describe("the dropdown's constants", () => {
  it("follow the spec: hover delay 200 ms, offset 4", () => {
    expect(DROPDOWN_HOVER_DELAY_MS).toBe(200);
    expect(DROPDOWN_OFFSET).toBe(4);
  });

  it("are fixed enumerations for sizes and variants", () => {
    expect(dropdownSizes).toEqual(["sm", "md", "lg"]);
    expect(dropdownVariants).toEqual(["default", "primary", "ghost"]);
  });
});

describe("the dropdown", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens only after the mouse has rested on the trigger for the hover delay", () => {
    render(<Dropdown label="Actions" items={items} />);
    fireEvent.pointerEnter(screen.getByRole("button", { name: "Actions" }), { pointerType: "mouse" });
    act(() => {
      vi.advanceTimersByTime(DROPDOWN_HOVER_DELAY_MS - 1);
    });
    expect(screen.queryByRole("menu")).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole("menu")).toBeTruthy();
  });

  it("does not open when the mouse leaves before the hover delay", () => {
    render(<Dropdown label="Actions" items={items} />);
    const trigger = screen.getByRole("button", { name: "Actions" });
    fireEvent.pointerEnter(trigger, { pointerType: "mouse" });
    act(() => {
      vi.advanceTimersByTime(100);
    });
    fireEvent.pointerLeave(trigger, { pointerType: "mouse" });
    act(() => {
      vi.advanceTimersByTime(500);
    });
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("does not open on a touch 'hover'", () => {
    render(<Dropdown label="Actions" items={items} />);
    fireEvent.pointerEnter(screen.getByRole("button", { name: "Actions" }), { pointerType: "touch" });
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("closes after a short grace once the pointer has left, unless it comes back onto the menu", () => {
    render(<Dropdown label="Actions" items={items} />);
    const trigger = screen.getByRole("button", { name: "Actions" });
    fireEvent.pointerEnter(trigger, { pointerType: "mouse" });
    act(() => {
      vi.advanceTimersByTime(DROPDOWN_HOVER_DELAY_MS);
    });
    fireEvent.pointerLeave(trigger, { pointerType: "mouse" });
    act(() => {
      vi.advanceTimersByTime(DROPDOWN_CLOSE_GRACE_MS / 2);
    });
    fireEvent.pointerEnter(screen.getByRole("menu"), { pointerType: "mouse" });
    act(() => {
      vi.advanceTimersByTime(DROPDOWN_CLOSE_GRACE_MS * 2);
    });
    expect(screen.getByRole("menu")).toBeTruthy();
    fireEvent.pointerLeave(screen.getByRole("menu"), { pointerType: "mouse" });
    act(() => {
      vi.advanceTimersByTime(DROPDOWN_CLOSE_GRACE_MS);
    });
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("opens from the keyboard, stays open when the mouse moves away, and chooses an item", () => {
    const onSelect = vi.fn();
    render(<Dropdown label="Actions" items={items} onSelect={onSelect} />);
    const trigger = screen.getByRole("button", { name: "Actions" });
    trigger.focus();
    fireEvent.keyDown(trigger, { key: "ArrowDown" });
    const menu = screen.getByRole("menu");
    fireEvent.pointerLeave(trigger, { pointerType: "mouse" });
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole("menu")).toBe(menu);
    fireEvent.click(screen.getByRole("menuitem", { name: "Rename" }));
    expect(onSelect).toHaveBeenCalledWith("rename");
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("marks disabled items and danger items, and shows separators", () => {
    render(<Dropdown label="Actions" items={items} />);
    fireEvent.keyDown(screen.getByRole("button", { name: "Actions" }), { key: "Enter" });
    expect(screen.getByRole("menuitem", { name: "Archive" }).getAttribute("aria-disabled")).toBe("true");
    expect(screen.getByRole("menuitem", { name: "Delete" }).hasAttribute("data-danger")).toBe(true);
    expect(screen.getByRole("menuitem", { name: "Rename" }).hasAttribute("data-danger")).toBe(false);
    expect(screen.getAllByRole("separator")).toHaveLength(1);
  });

  it("does not call onSelect for a disabled item", () => {
    const onSelect = vi.fn();
    render(<Dropdown label="Actions" items={items} onSelect={onSelect} />);
    fireEvent.keyDown(screen.getByRole("button", { name: "Actions" }), { key: "Enter" });
    fireEvent.click(screen.getByRole("menuitem", { name: "Archive" }));
    expect(onSelect).not.toHaveBeenCalled();
  });

  it("never opens on hover when disabled", () => {
    render(<Dropdown label="Actions" items={items} disabled />);
    fireEvent.pointerEnter(screen.getByRole("button", { name: "Actions" }), { pointerType: "mouse" });
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByRole("menu")).toBeNull();
  });
});
