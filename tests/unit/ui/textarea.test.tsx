import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { characterCountText, Textarea, TEXTAREA_DEFAULT_ROWS } from "~/components/ui/textarea";

function counterOf(textarea: HTMLElement): HTMLElement {
  const counter = (textarea.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id))
    .find((element) => element?.getAttribute("aria-live") === "polite");
  if (!counter) throw new Error("the textarea is not described by a polite live counter");
  return counter;
}

describe("characterCountText", () => {
  it("reads 'n / max' when there is a limit", () => {
    expect(characterCountText(0, 200)).toBe("0 / 200");
    expect(characterCountText(57, 200)).toBe("57 / 200");
  });

  it("reads 'n characters' when there is no limit", () => {
    expect(characterCountText(0)).toBe("0 characters");
    expect(characterCountText(1)).toBe("1 character");
    expect(characterCountText(12)).toBe("12 characters");
  });
});

describe("Textarea", () => {
  it("is four rows tall by default", () => {
    render(<Textarea label="Notes" />);
    expect(TEXTAREA_DEFAULT_ROWS).toBe(4);
    expect(screen.getByLabelText("Notes").getAttribute("rows")).toBe("4");
  });

  it("takes a different number of rows when given one", () => {
    render(<Textarea label="Notes" rows={8} />);
    expect(screen.getByLabelText("Notes").getAttribute("rows")).toBe("8");
  });

  it("counts characters against the limit as the user types, politely announced", () => {
    render(<Textarea label="Description" maxLength={200} />);
    const textarea = screen.getByLabelText("Description");
    expect(textarea.getAttribute("maxlength")).toBe("200");
    const counter = counterOf(textarea);
    expect(counter.textContent).toBe("0 / 200");
    fireEvent.change(textarea, { target: { value: "Quarterly" } });
    expect(counter.textContent).toBe("9 / 200");
  });

  it("counts characters without a limit as 'n characters'", () => {
    render(<Textarea label="Notes" />);
    const textarea = screen.getByLabelText("Notes");
    const counter = counterOf(textarea);
    expect(counter.textContent).toBe("0 characters");
    fireEvent.change(textarea, { target: { value: "a" } });
    expect(counter.textContent).toBe("1 character");
    fireEvent.change(textarea, { target: { value: "abc" } });
    expect(counter.textContent).toBe("3 characters");
  });

  it("counts a default value from the start", () => {
    render(<Textarea label="Notes" defaultValue="Hello" maxLength={10} />);
    expect(counterOf(screen.getByLabelText("Notes")).textContent).toBe("5 / 10");
  });

  it("counts the value of a controlled textarea", () => {
    function Controlled() {
      const [value, setValue] = useState("ab");
      return <Textarea label="Notes" value={value} onChange={(event) => setValue(event.target.value.toUpperCase())} />;
    }
    render(<Controlled />);
    const textarea = screen.getByLabelText("Notes") as HTMLTextAreaElement;
    expect(counterOf(textarea).textContent).toBe("2 characters");
    fireEvent.change(textarea, { target: { value: "abcd" } });
    expect(textarea.value).toBe("ABCD");
    expect(counterOf(textarea).textContent).toBe("4 characters");
  });

  it("flags a value set by code that is longer than the limit", () => {
    render(<Textarea label="Notes" value={"x".repeat(12)} maxLength={10} onChange={() => {}} />);
    const textarea = screen.getByLabelText("Notes");
    expect(counterOf(textarea).textContent).toBe("12 / 10");
    expect(textarea.getAttribute("aria-invalid")).toBe("true");
  });

  it("hides the counter when asked", () => {
    render(<Textarea label="Notes" showCount={false} />);
    expect(screen.queryByText("0 characters")).toBeNull();
  });

  it("marks itself invalid and describes itself with its error message", () => {
    render(<Textarea label="Reason" error="Write a reason" description="Why you reject it." required />);
    const textarea = screen.getByLabelText(/Reason/);
    expect(textarea.getAttribute("aria-invalid")).toBe("true");
    expect(textarea.hasAttribute("required")).toBe(true);
    const describedBy = (textarea.getAttribute("aria-describedby") ?? "").split(" ");
    const texts = describedBy.map((id) => document.getElementById(id)?.textContent);
    expect(texts).toContain("Write a reason");
    expect(texts).toContain("Why you reject it.");
  });
});
