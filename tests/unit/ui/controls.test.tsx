import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Alert, alertRole, alertVariants } from "~/components/ui/alert";
import { Avatar, initialsOf } from "~/components/ui/avatar";
import { Badge, badgeVariants } from "~/components/ui/badge";
import { Button, buttonSizes, buttonVariants } from "~/components/ui/button";
import { Checkbox, type CheckboxState } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { RadioGroup } from "~/components/ui/radio-group";
import { Spinner } from "~/components/ui/spinner";
import {
  SortableHeaderCell,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
} from "~/components/ui/table";
import { Toggle } from "~/components/ui/toggle";

describe("Button", () => {
  it("offers exactly the four variants and three sizes of the spec", () => {
    expect(buttonVariants).toEqual(["primary", "secondary", "danger", "ghost"]);
    expect(buttonSizes).toEqual(["sm", "md", "lg"]);
  });

  it("never submits a form unless asked to", () => {
    render(<Button>Save</Button>);
    expect(screen.getByRole("button", { name: "Save" }).getAttribute("type")).toBe("button");
  });

  it("while loading is busy, disabled, shows a spinner and ignores clicks", () => {
    const onClick = vi.fn();
    render(
      <Button isLoading onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole("button", { name: "Save" }) as HTMLButtonElement;
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(button.disabled).toBe(true);
    expect(button.querySelector("svg.animate-spin")).not.toBeNull();
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it("is neither busy nor spinning when not loading", () => {
    render(<Button>Save</Button>);
    const button = screen.getByRole("button", { name: "Save" });
    expect(button.hasAttribute("aria-busy")).toBe(false);
    expect(button.querySelector("svg")).toBeNull();
  });
});

describe("Input", () => {
  it("is labelled, and describes itself with its description and error", () => {
    render(<Input label="Email" description="We send links here." error="Enter an email address" required />);
    const input = screen.getByLabelText(/Email/);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(input.hasAttribute("required")).toBe(true);
    const texts = (input.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent);
    expect(texts).toEqual(["We send links here.", "Enter an email address"]);
  });

  it("shows a required asterisk hidden from screen readers", () => {
    render(<Input label="Email" required />);
    expect(screen.getByText("*").getAttribute("aria-hidden")).toBe("true");
  });

  it("is neither invalid nor described when it has no description or error", () => {
    render(<Input label="Name" />);
    const input = screen.getByLabelText("Name");
    expect(input.hasAttribute("aria-invalid")).toBe(false);
    expect(input.hasAttribute("aria-describedby")).toBe(false);
  });
});

describe("Alert", () => {
  it("interrupts for errors and warnings and waits politely for info and success", () => {
    expect(alertVariants.map((variant) => [variant, alertRole(variant)])).toEqual([
      ["info", "status"],
      ["success", "status"],
      ["warning", "alert"],
      ["error", "alert"],
    ]);
    render(<Alert variant="error">Upload failed</Alert>);
    expect(screen.getByRole("alert").textContent).toContain("Upload failed");
  });

  it("offers a Dismiss button only when it can be dismissed", () => {
    const onDismiss = vi.fn();
    const { rerender } = render(<Alert>Saved</Alert>);
    expect(screen.queryByRole("button", { name: "Dismiss" })).toBeNull();
    rerender(<Alert onDismiss={onDismiss}>Saved</Alert>);
    fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(onDismiss).toHaveBeenCalledOnce();
  });
});

describe("Spinner", () => {
  it("is a status named Loading by default", () => {
    render(<Spinner />);
    expect(screen.getByRole("status").textContent).toBe("Loading");
  });
});

describe("Avatar", () => {
  it("takes initials from the first and last word of a name", () => {
    expect(initialsOf("Ada Lovelace")).toBe("AL");
    expect(initialsOf("  grace  brewster murray hopper ")).toBe("GH");
    expect(initialsOf("Cher")).toBe("C");
    expect(initialsOf("")).toBe("?");
  });

  it("is an image named after the person, showing initials without a picture", () => {
    render(<Avatar name="Ada Lovelace" />);
    expect(screen.getByRole("img", { name: "Ada Lovelace" }).textContent).toBe("AL");
  });
});

describe("Badge", () => {
  it("renders each variant with its text", () => {
    render(
      <>
        {badgeVariants.map((variant) => (
          <Badge key={variant} variant={variant}>
            {variant}
          </Badge>
        ))}
      </>,
    );
    for (const variant of badgeVariants) expect(screen.getByText(variant).getAttribute("data-variant")).toBe(variant);
  });
});

describe("Checkbox", () => {
  it("is labelled, shows indeterminate as mixed, and becomes checked when toggled from there", () => {
    function Parent() {
      const [state, setState] = useState<CheckboxState>("indeterminate");
      return <Checkbox label="Select all" checked={state} onCheckedChange={setState} />;
    }
    render(<Parent />);
    const box = screen.getByRole("checkbox", { name: "Select all" });
    expect(box.getAttribute("aria-checked")).toBe("mixed");
    fireEvent.click(box);
    expect(box.getAttribute("aria-checked")).toBe("true");
    fireEvent.click(box);
    expect(box.getAttribute("aria-checked")).toBe("false");
  });
});

describe("RadioGroup", () => {
  it("is a radiogroup named by its label whose options are labelled radios", () => {
    const onValueChange = vi.fn();
    render(
      <RadioGroup
        label="Sharing"
        onValueChange={onValueChange}
        options={[
          { value: "me", label: "Only me" },
          { value: "all", label: "Everyone", isDisabled: true },
        ]}
      />,
    );
    expect(screen.getByRole("radiogroup", { name: "Sharing" })).toBeTruthy();
    expect((screen.getByRole("radio", { name: "Everyone" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("radio", { name: "Only me" }));
    expect(onValueChange).toHaveBeenCalledWith("me");
  });
});

describe("Toggle", () => {
  it("is a labelled switch that flips when clicked", () => {
    render(<Toggle label="Notifications" />);
    const toggle = screen.getByRole("switch", { name: "Notifications" });
    expect(toggle.getAttribute("aria-checked")).toBe("false");
    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-checked")).toBe("true");
  });
});

describe("Table", () => {
  it("is captioned and marks only the sorted column with aria-sort", () => {
    const onSort = vi.fn();
    render(
      <Table caption="Files">
        <TableHead>
          <TableRow>
            <SortableHeaderCell sortDirection="descending" onSort={onSort}>
              Name
            </SortableHeaderCell>
            <SortableHeaderCell sortDirection="none" onSort={() => {}}>
              Size
            </SortableHeaderCell>
            <TableHeaderCell>Owner</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          <TableRow>
            <TableCell>a.pdf</TableCell>
            <TableCell>1 KB</TableCell>
            <TableCell>Ada</TableCell>
          </TableRow>
        </TableBody>
      </Table>,
    );
    expect(screen.getByRole("table", { name: "Files" })).toBeTruthy();
    const headers = screen.getAllByRole("columnheader");
    expect(headers.map((header) => header.getAttribute("aria-sort"))).toEqual(["descending", null, null]);
    expect(headers.every((header) => header.getAttribute("scope") === "col")).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Name" }));
    expect(onSort).toHaveBeenCalledOnce();
  });
});
