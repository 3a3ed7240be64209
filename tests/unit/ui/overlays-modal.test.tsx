import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Modal, ModalClose, modalSizes, modalVariants } from "~/components/ui/modal";

describe("the modal", () => {
  it("offers exactly the spec's sizes and variants", () => {
    expect(modalSizes).toEqual(["sm", "md", "lg", "xl", "full"]);
    expect(modalVariants).toEqual(["default", "danger", "info", "success", "warning"]);
  });

  it("uses its title as the dialog's accessible name and its description as the description", () => {
    render(<Modal open title="Rename folder" description="Pick a new name." />);
    const dialog = screen.getByRole("dialog", { name: "Rename folder" });
    const describedBy = dialog.getAttribute("aria-describedby");
    expect(describedBy && document.getElementById(describedBy)?.textContent).toBe("Pick a new name.");
  });

  it("has a close button labelled Close that closes it", () => {
    const onOpenChange = vi.fn();
    render(<Modal open title="Details" onOpenChange={onOpenChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("closes on Escape", () => {
    const onOpenChange = vi.fn();
    render(<Modal open title="Details" onOpenChange={onOpenChange} />);
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("cannot be closed by Escape or its Close button while not dismissable", () => {
    const onOpenChange = vi.fn();
    render(<Modal open title="Deleting" isDismissable={false} onOpenChange={onOpenChange} />);
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    const close = screen.getByRole("button", { name: "Close" });
    expect(close).toHaveProperty("disabled", true);
    fireEvent.click(close);
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole("dialog", { name: "Deleting" })).toBeTruthy();
  });

  it("opens from its trigger and closes from a footer action", () => {
    render(
      <Modal title="Edit" trigger={<button type="button">Open editor</button>} footer={<ModalClose>Cancel</ModalClose>}>
        <p>Body text</p>
      </Modal>,
    );
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Open editor" }));
    expect(screen.getByRole("dialog", { name: "Edit" }).textContent).toContain("Body text");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("records its size and variant for styling", () => {
    render(<Modal open title="Careful" size="xl" variant="danger" />);
    const dialog = screen.getByRole("dialog", { name: "Careful" });
    expect(dialog.dataset.size).toBe("xl");
    expect(dialog.dataset.variant).toBe("danger");
  });

  it("gives focus back to what had it before opening when it has no trigger", async () => {
    function Parent() {
      const [isOpen, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open without trigger
          </button>
          <Modal title="Triggerless" open={isOpen} onOpenChange={setOpen} />
        </>
      );
    }
    render(<Parent />);
    const opener = screen.getByRole("button", { name: "Open without trigger" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Triggerless" });
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    // Radix restores focus in a timeout after the content unmounts.
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it("can be controlled by its parent", () => {
    function Parent() {
      const [isOpen, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Show
          </button>
          <Modal title="Controlled" open={isOpen} onOpenChange={setOpen} />
        </>
      );
    }
    render(<Parent />);
    fireEvent.click(screen.getByRole("button", { name: "Show" }));
    expect(screen.getByRole("dialog", { name: "Controlled" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
