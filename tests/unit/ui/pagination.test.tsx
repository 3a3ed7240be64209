import { fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Pagination } from "~/components/ui/pagination";

const pageButtons = () =>
  within(screen.getByRole("navigation", { name: "Pagination" }))
    .getAllByRole("button")
    .filter((button) => /^Page \d+$/.test(button.getAttribute("aria-label") ?? ""));

function TwentyPages({ initialPage = 1 }: { initialPage?: number }) {
  const [page, setPage] = useState(initialPage);
  return <Pagination currentPage={page} totalPages={20} onPageChange={setPage} />;
}

describe("Pagination", () => {
  it("is a navigation landmark named Pagination that marks the current page", () => {
    render(<TwentyPages initialPage={7} />);
    expect(screen.getByRole("navigation", { name: "Pagination" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Page 7" }).getAttribute("aria-current")).toBe("page");
    expect(screen.getByRole("button", { name: "Page 6" }).hasAttribute("aria-current")).toBe(false);
  });

  it("disables Previous on the first page and Next on the last", () => {
    const { rerender } = render(<Pagination currentPage={1} totalPages={20} onPageChange={() => {}} />);
    expect((screen.getByRole("button", { name: "Previous" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Next" }) as HTMLButtonElement).disabled).toBe(false);
    rerender(<Pagination currentPage={20} totalPages={20} onPageChange={() => {}} />);
    expect((screen.getByRole("button", { name: "Previous" }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole("button", { name: "Next" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("moves between pages with Next, Previous and the page buttons, never showing more than five numbers", () => {
    render(<TwentyPages />);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("button", { name: "Page 2" }).getAttribute("aria-current")).toBe("page");
    fireEvent.click(screen.getByRole("button", { name: "Page 20" }));
    expect(screen.getByRole("button", { name: "Page 20" }).getAttribute("aria-current")).toBe("page");
    expect(pageButtons().map((button) => button.textContent)).toEqual(["1", "17", "18", "19", "20"]);
    fireEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(screen.getByRole("button", { name: "Page 19" }).getAttribute("aria-current")).toBe("page");
    for (let i = 0; i < 25; i++) {
      fireEvent.click(screen.getByRole("button", { name: "Previous" }));
      expect(pageButtons().length).toBeLessThanOrEqual(5);
    }
    expect(screen.getByRole("button", { name: "Page 1" }).getAttribute("aria-current")).toBe("page");
  });

  it("does not report a change when the current page is chosen again", () => {
    const onPageChange = vi.fn();
    render(<Pagination currentPage={3} totalPages={5} onPageChange={onPageChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Page 3" }));
    expect(onPageChange).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Page 4" }));
    expect(onPageChange).toHaveBeenCalledWith(4);
  });

  it("keeps keyboard focus on the current page when Next reaches the last page and becomes disabled", () => {
    render(<TwentyPages initialPage={19} />);
    const next = screen.getByRole("button", { name: "Next" });
    next.focus();
    fireEvent.click(next);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Page 20" }));
  });

  it("renders nothing when there are no pages", () => {
    const { container } = render(<Pagination currentPage={1} totalPages={0} onPageChange={() => {}} />);
    expect(container.innerHTML).toBe("");
  });
});
