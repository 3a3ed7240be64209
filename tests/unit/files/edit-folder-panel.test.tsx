import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { showToast } from "~/components/ui/toast";
import { filterIconNames, ICON_RESULTS_LIMIT } from "~/features/files/components/icon-picker";
import { EditFolderPanel } from "~/features/files/components/edit-folder-panel";
import { COLOR_FORMAT_MESSAGE } from "~/features/files/folder-color";
import type { FolderSummary } from "~/features/files/folders.server";
import { MATERIAL_ICON_NAMES } from "~/features/files/material-icons";
import { setHttpEffects, type HttpEffects } from "~/lib/http";

vi.mock("~/components/ui/toast", () => ({ showToast: vi.fn() }));

const folder: FolderSummary = { uid: "6f1c2a4e-0b1d-4e5f-8a9b-0c1d2e3f4a5b", label: "Contracts", color: "#1e90ff", icon: null, kind: "regular" };

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

let fetchMock: Mock;
const toastMock = showToast as unknown as Mock;

beforeEach(() => {
  fetchMock = vi.fn();
  setHttpEffects({ fetch: fetchMock as unknown as typeof fetch, notify: vi.fn(), redirect: vi.fn(), reload: vi.fn() } satisfies Partial<HttpEffects>);
  toastMock.mockClear();
});

afterEach(() => setHttpEffects(null));

function renderPanel(overrides: Partial<FolderSummary> = {}, props: { hideAlpha?: boolean } = {}) {
  const onOpenChange = vi.fn();
  const onSaved = vi.fn();
  render(<EditFolderPanel folder={{ ...folder, ...overrides }} open onOpenChange={onOpenChange} onSaved={onSaved} {...props} />);
  return { onOpenChange, onSaved, dialog: screen.getByRole("dialog", { name: "Edit folder" }) };
}

function lastRequest(): { url: string; method: string; body: unknown } {
  const [url, init] = fetchMock.mock.calls.at(-1) as [string, RequestInit];
  return { url, method: init.method ?? "GET", body: typeof init.body === "string" ? JSON.parse(init.body) : init.body };
}

describe("the edit folder panel", () => {
  it("is a dialog titled Edit folder whose Label is required and marked with an asterisk", () => {
    const { dialog } = renderPanel();
    const label = within(dialog).getByRole("textbox", { name: "Label" });
    expect(label).toHaveProperty("required", true);
    expect(label).toHaveProperty("value", "Contracts");
    const labelElement = dialog.querySelector(`label[for="${label.id}"]`);
    expect(labelElement?.textContent).toBe("Label*");
    expect(labelElement?.querySelector("[aria-hidden='true']")?.textContent).toBe("*");
    expect(within(dialog).getByRole("button", { name: "Update" })).toHaveProperty("type", "submit");
  });

  it("shows the delete-icon control only while an icon is set", () => {
    renderPanel({ icon: null });
    expect(screen.queryByRole("button", { name: "Remove icon" })).toBeNull();
    expect(screen.getByRole("button", { name: "Choose an icon" })).toBeTruthy();
  });

  it("shows the delete-icon control when the folder has an icon", () => {
    renderPanel({ icon: "star" });
    expect(screen.getByRole("button", { name: "Remove icon" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Icon: star. Choose another icon" })).toBeTruthy();
  });

  it("opens the icon picker with a Type to filter box, narrows the list, and sets the chosen icon", async () => {
    renderPanel();
    fireEvent.click(screen.getByRole("button", { name: "Choose an icon" }));
    const picker = await screen.findByRole("dialog", { name: "Choose an icon" });
    const filter = within(picker).getByLabelText("Type to filter");
    expect(filter.getAttribute("placeholder")).toBe("Type to filter");
    const grid = await within(picker).findByRole("group", { name: "Icons" });
    expect(within(grid).getAllByRole("button")).toHaveLength(ICON_RESULTS_LIMIT);
    expect(within(picker).getByText(`Showing ${ICON_RESULTS_LIMIT} of ${MATERIAL_ICON_NAMES.length} icons. Keep typing to narrow them down.`)).toBeTruthy();

    fireEvent.change(filter, { target: { value: "folder spec" } });
    const match = await within(picker).findByRole("button", { name: "folder_special" });
    expect(within(grid).getAllByRole("button").map((button) => button.getAttribute("aria-label"))).toEqual(filterIconNames(MATERIAL_ICON_NAMES, "folder_spec"));
    fireEvent.click(match);

    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Choose an icon" })).toBeNull());
    expect(screen.getByRole("button", { name: "Icon: folder_special. Choose another icon" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Remove icon" })).toBeTruthy();
  });

  it("moves through the icons with the arrow keys from the filter box", async () => {
    renderPanel();
    fireEvent.click(screen.getByRole("button", { name: "Choose an icon" }));
    const picker = await screen.findByRole("dialog", { name: "Choose an icon" });
    const filter = within(picker).getByLabelText("Type to filter");
    fireEvent.change(filter, { target: { value: "home" } });
    const grid = await within(picker).findByRole("group", { name: "Icons" });
    const buttons = within(grid).getAllByRole("button");
    fireEvent.keyDown(filter, { key: "ArrowDown" });
    expect(document.activeElement).toBe(buttons[0]);
    fireEvent.keyDown(buttons[0]!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(buttons[1]);
    expect(buttons[1]!.tabIndex).toBe(0);
    expect(buttons[0]!.tabIndex).toBe(-1);
    fireEvent.keyDown(buttons[1]!, { key: "End" });
    expect(document.activeElement).toBe(buttons.at(-1));
  });

  it("filters icon names by prefix first, then by any part, and ignores spaces and case", () => {
    const names = ["home", "add_home", "home_work", "house"];
    expect(filterIconNames(names, "HOME")).toEqual(["home", "home_work", "add_home"]);
    expect(filterIconNames(names, "home work")).toEqual(["home_work"]);
    expect(filterIconNames(names, "")).toEqual(names);
  });

  it("opens a colour picker with an alpha slider when the colour box gets focus, and the swatch follows the text", () => {
    renderPanel();
    const color = screen.getByLabelText("Color");
    expect(color).toHaveProperty("value", "#1e90ff");
    fireEvent.focus(color);
    const picker = screen.getByRole("dialog", { name: "Color picker" });
    expect(within(picker).getByRole("slider", { name: "Alpha" })).toBeTruthy();
    fireEvent.change(color, { target: { value: "hsl(120 100% 50% / 0.25)" } });
    expect(screen.getByTestId("color-swatch").dataset.color).toBe("#00ff0040");
  });

  it("keeps the colour picker in place until a press outside it ends, so the fields below do not move under the pointer", async () => {
    renderPanel();
    const color = screen.getByRole("combobox", { name: "Color" });
    const iconButton = screen.getByRole("button", { name: "Choose an icon" });
    fireEvent.focus(color);
    expect(screen.getByRole("dialog", { name: "Color picker" })).toBeTruthy();
    fireEvent.pointerDown(iconButton);
    fireEvent.blur(color, { relatedTarget: iconButton });
    expect(screen.getByRole("dialog", { name: "Color picker" })).toBeTruthy();
    fireEvent.pointerUp(iconButton);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Color picker" })).toBeNull());
  });

  it("closes the colour picker when the keyboard moves focus out of the field", () => {
    renderPanel();
    const color = screen.getByRole("combobox", { name: "Color" });
    fireEvent.focus(color);
    fireEvent.change(color, { target: { value: "nope" } });
    fireEvent.blur(color, { relatedTarget: screen.getByRole("button", { name: "Choose an icon" }) });
    expect(screen.queryByRole("dialog", { name: "Color picker" })).toBeNull();
    expect(screen.getByText(COLOR_FORMAT_MESSAGE)).toBeTruthy();
  });

  it("hides the alpha slider when hideAlpha is set", () => {
    renderPanel({}, { hideAlpha: true });
    fireEvent.focus(screen.getByLabelText("Color"));
    const picker = screen.getByRole("dialog", { name: "Color picker" });
    expect(within(picker).getByRole("slider", { name: "Hue" })).toBeTruthy();
    expect(within(picker).queryByRole("slider", { name: "Alpha" })).toBeNull();
  });

  it("names the accepted colour formats for text that is not a colour, and does not send it", async () => {
    renderPanel();
    const color = screen.getByLabelText("Color");
    fireEvent.change(color, { target: { value: "blue-ish" } });
    fireEvent.click(screen.getByRole("button", { name: "Update" }));
    await screen.findByText(COLOR_FORMAT_MESSAGE);
    expect(color.getAttribute("aria-invalid")).toBe("true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("does not send an empty label", async () => {
    renderPanel();
    fireEvent.change(screen.getByRole("textbox", { name: "Label" }), { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: "Update" }));
    await screen.findByText("Label is required.");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("saves with PATCH /folder/{uid}, toasts, hands the stored folder back and closes", async () => {
    const stored = { ...folder, label: "Signed contracts", color: "#aabbccdd", icon: "star" };
    fetchMock.mockResolvedValue(jsonResponse(200, { message: "Folder updated successfully", folder: stored }));
    const { onSaved, onOpenChange } = renderPanel({ icon: "star" });
    fireEvent.change(screen.getByRole("textbox", { name: "Label" }), { target: { value: "  Signed contracts " } });
    fireEvent.change(screen.getByLabelText("Color"), { target: { value: "#abcd" } });
    fireEvent.click(screen.getByRole("button", { name: "Update" }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(lastRequest()).toEqual({
      url: `/folder/${folder.uid}`,
      method: "PATCH",
      body: { label: "Signed contracts", color: "#abcd", icon: "star" },
    });
    expect(toastMock).toHaveBeenCalledWith("Folder updated successfully", { type: "success" });
    expect(onSaved).toHaveBeenCalledWith(stored);
  });

  it("sends no colour when the box is emptied", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { folder: { ...folder, color: null } }));
    renderPanel();
    fireEvent.change(screen.getByLabelText("Color"), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Update" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(lastRequest().body).toEqual({ label: "Contracts", color: null, icon: null });
  });

  it("toasts the failure and shows the server's field message inline on a 400, staying open", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, { message: "label: Label cannot contain / or \\.", code: "VALIDATION_ERROR", fieldErrors: { label: ["Label cannot contain / or \\."] } }),
    );
    const { onOpenChange, onSaved } = renderPanel();
    fireEvent.change(screen.getByRole("textbox", { name: "Label" }), { target: { value: "a/b" } });
    fireEvent.click(screen.getByRole("button", { name: "Update" }));
    await screen.findByText("Label cannot contain / or \\.");
    expect(toastMock).toHaveBeenCalledWith("Could not update folder", { type: "error" });
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("toasts the failure and shows the server's message when the save is refused", async () => {
    fetchMock.mockResolvedValue(jsonResponse(403, { message: "You don't have permission to change these files and folders.", code: "FORBIDDEN" }));
    renderPanel();
    fireEvent.click(screen.getByRole("button", { name: "Update" }));
    await screen.findByText("You don't have permission to change these files and folders.");
    expect(toastMock).toHaveBeenCalledWith("Could not update folder", { type: "error" });
  });

  it("removes the icon at once with DELETE /folder/{uid}/delete-icon and hides the control", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { message: "Icon removed successfully", folder: { ...folder, icon: null } }));
    const { onSaved, onOpenChange } = renderPanel({ icon: "star" });
    fireEvent.click(screen.getByRole("button", { name: "Remove icon" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Remove icon" })).toBeNull());
    expect(lastRequest()).toMatchObject({ url: `/folder/${folder.uid}/delete-icon`, method: "DELETE" });
    expect(toastMock).toHaveBeenCalledWith("Icon removed successfully", { type: "success" });
    expect(onSaved).toHaveBeenCalledWith({ ...folder, icon: null });
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it("keeps the icon and toasts when it could not be removed", async () => {
    fetchMock.mockResolvedValue(jsonResponse(404, { message: "This folder does not exist or you don't have access to it.", code: "NOT_FOUND" }));
    renderPanel({ icon: "star" });
    fireEvent.click(screen.getByRole("button", { name: "Remove icon" }));
    await waitFor(() => expect(toastMock).toHaveBeenCalledWith("Icon could not be removed.", { type: "error" }));
    expect(screen.getByRole("button", { name: "Remove icon" })).toBeTruthy();
  });

  it("closes on Escape, but a first Escape only closes an open colour picker", async () => {
    const { onOpenChange, dialog } = renderPanel();
    const color = screen.getByLabelText("Color");
    fireEvent.focus(color);
    expect(screen.getByRole("dialog", { name: "Color picker" })).toBeTruthy();
    await act(async () => {
      fireEvent.keyDown(color, { key: "Escape" });
    });
    expect(screen.queryByRole("dialog", { name: "Color picker" })).toBeNull();
    expect(onOpenChange).not.toHaveBeenCalled();
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
