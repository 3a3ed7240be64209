import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { showToast } from "~/components/ui/toast";
import { DeleteDialog, type DeletableItem } from "~/features/files/components/delete-dialog";
import { setHttpEffects, type HttpEffects } from "~/lib/http";

vi.mock("~/components/ui/toast", () => ({ showToast: vi.fn() }));

const one: DeletableItem[] = [{ type: "file", id: "11111111-1111-4111-8111-111111111111", name: "report.pdf" }];
const three: DeletableItem[] = [
  { type: "file", id: "11111111-1111-4111-8111-111111111111", name: "report.pdf" },
  { type: "folder", id: "22222222-2222-4222-8222-222222222222", name: "Drafts" },
  { type: "file", id: "33333333-3333-4333-8333-333333333333", name: "notes.txt" },
];

let fetchMock: Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>;
const notify = vi.fn();

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

beforeEach(() => {
  fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => jsonResponse({ deleted: 1, permanent: false }));
  setHttpEffects({ fetch: fetchMock as typeof fetch, notify, redirect: vi.fn(), reload: vi.fn() } satisfies Partial<HttpEffects>);
});

afterEach(() => {
  setHttpEffects(null);
  vi.mocked(showToast).mockClear();
  notify.mockClear();
});

function renderDialog(items: DeletableItem[], inTrash = false) {
  const onOpenChange = vi.fn();
  const onDeleted = vi.fn();
  render(<DeleteDialog items={items} inTrash={inTrash} open onOpenChange={onOpenChange} onDeleted={onDeleted} />);
  return { onOpenChange, onDeleted, dialog: screen.getByRole("dialog") };
}

function sentBody(call = 0): { items: { type: string; id: string }[]; permanent: boolean } {
  const init = fetchMock.mock.calls[call]![1] as RequestInit;
  return JSON.parse(String(init.body));
}

describe("the delete dialog", () => {
  it('is titled "Delete 1 item(s)" for one item and does not list its name', () => {
    const { dialog } = renderDialog(one);
    expect(screen.getByRole("dialog", { name: "Delete 1 item(s)" })).toBe(dialog);
    expect(within(dialog).queryByRole("list")).toBeNull();
    expect(dialog.textContent).not.toContain("report.pdf");
  });

  it('is titled "Delete 3 item(s)" for three items and lists their display names', () => {
    const { dialog } = renderDialog(three);
    expect(screen.getByRole("dialog", { name: "Delete 3 item(s)" })).toBe(dialog);
    const list = within(dialog).getByRole("list", { name: "Items to delete" });
    expect(within(list).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["report.pdf", "Drafts (folder)", "notes.txt"]);
  });

  it("offers the permanent box outside the trash, worded for one item or several", () => {
    renderDialog(one);
    expect(screen.getByRole("checkbox", { name: "Permanently delete this item" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Delete" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancel" })).toBeTruthy();
  });

  it('says "Permanently Delete" once the box is ticked, and sends permanent: true', async () => {
    renderDialog(three);
    expect(screen.getByRole("button", { name: "Delete" })).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: "Permanently delete these items" }));
    fireEvent.click(screen.getByRole("button", { name: "Permanently Delete" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(fetchMock.mock.calls[0]![0]).toBe("/api/items/delete");
    expect(sentBody()).toEqual({ items: three.map(({ type, id }) => ({ type, id })), permanent: true });
    await waitFor(() => expect(showToast).toHaveBeenCalledWith("Permanently deleted 3 items", { type: "success" }));
  });

  it('hides the box in the trash and always says "Permanently Delete"', () => {
    const { dialog } = renderDialog(three, true);
    expect(within(dialog).queryByRole("checkbox")).toBeNull();
    expect(within(dialog).queryByText(/Permanently delete (this item|these items)/)).toBeNull();
    expect(screen.getByRole("button", { name: "Permanently Delete" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Delete" })).toBeNull();
  });

  it('shows "Deleting..." while the request runs, cannot be dismissed meanwhile, then closes and reports success', async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { onOpenChange, onDeleted } = renderDialog(one);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));

    const running = await screen.findByRole("button", { name: "Deleting..." });
    expect(running).toHaveProperty("disabled", true);
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveProperty("disabled", true);
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(sentBody()).toEqual({ items: [{ type: "file", id: one[0]!.id }], permanent: false });

    await act(async () => answer(jsonResponse({ deleted: 1, permanent: false })));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(showToast).toHaveBeenCalledWith("Moved 1 item to the trash", { type: "success" });
  });

  it("stays open with the button back to normal when the server refuses, leaving the message to the HTTP client", async () => {
    fetchMock.mockImplementationOnce(async () => jsonResponse({ message: "The Inbox, the Outbox and the top folder of a space cannot be deleted.", code: "FORBIDDEN" }, 403));
    const { onDeleted, onOpenChange } = renderDialog(one);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith("The Inbox, the Outbox and the top folder of a space cannot be deleted.", "error"));
    expect(await screen.findByRole("button", { name: "Delete" })).toHaveProperty("disabled", false);
    expect(onDeleted).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
    expect(showToast).not.toHaveBeenCalled();
  });

  it("sends a selection larger than 100 items in parts of at most 100", async () => {
    const many: DeletableItem[] = Array.from({ length: 150 }, (_, index) => ({
      type: "file",
      id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
      name: `file-${index}.txt`,
    }));
    renderDialog(many);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(showToast).toHaveBeenCalledWith("Moved 150 items to the trash", { type: "success" }));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(sentBody(0).items).toHaveLength(100);
    expect(sentBody(1).items).toHaveLength(50);
  });

  it("Cancel closes it without a request", () => {
    const { onOpenChange } = renderDialog(one);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
