import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { showToast } from "~/components/ui/toast";
import { DEFAULT_TIER_PERMISSIONS } from "~/features/access/access.constants";
import { resetUserStoreForTests, UserPagePropsContext, type UserPageProps } from "~/features/access/user-store";
import { FavoriteButton } from "~/features/files/components/favorite-button";
import { detailsMessages, FileDetailsPanel } from "~/features/files/components/file-details-panel";
import { TAG_CHARACTERS_MESSAGE } from "~/features/files/organize.schema";
import type { FileExtras } from "~/features/files/organize.server";
import { setHttpEffects, type HttpEffects } from "~/lib/http";

vi.mock("~/components/ui/toast", () => ({ showToast: vi.fn() }));

const FILE_ID = "6f1c2a4e-0b1d-4e5f-8a9b-0c1d2e3f4a5b";
const toastMock = showToast as unknown as Mock;
let fetchMock: Mock;
let notifyMock: Mock;

function member(tier: "free" | "basic"): UserPageProps {
  return { user: { id: "u1" }, tier, permissions: [...DEFAULT_TIER_PERMISSIONS[tier]], features: {} };
}

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** The requests the component sent: method, path and parsed JSON body. */
function sent() {
  return (fetchMock.mock.calls as [string, RequestInit][]).map(([url, init]) => ({
    method: init.method,
    url,
    body: typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
  }));
}

function renderWith(props: UserPageProps, ui: ReactNode) {
  return render(
    <MemoryRouter>
      <UserPagePropsContext value={props}>{ui}</UserPagePropsContext>
    </MemoryRouter>,
  );
}

const extras = (overrides: Partial<FileExtras> = {}): FileExtras => ({
  favorite: false,
  isTemplate: false,
  tags: ["draft"],
  metadata: [{ key: "Client", value: "Acme" }],
  duplicateCount: 0,
  ...overrides,
});

beforeEach(() => {
  resetUserStoreForTests();
  fetchMock = vi.fn();
  notifyMock = vi.fn();
  setHttpEffects({ fetch: fetchMock as unknown as typeof fetch, notify: notifyMock, redirect: vi.fn(), reload: vi.fn() } satisfies Partial<HttpEffects>);
  toastMock.mockClear();
});

afterEach(() => setHttpEffects(null));

describe("the favorite button", () => {
  it("is a toggle named after the item that stars it on the server and then offers to remove it", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { favorite: true }));
    render(<FavoriteButton itemType="folder" itemId="f1" name="Reports" initial={false} />);
    const button = screen.getByRole("button", { name: "Add Reports to favorites" });
    expect(button.getAttribute("aria-pressed")).toBe("false");
    expect(button.querySelector(".material-icons")?.textContent).toBe("star_border");

    fireEvent.click(button);
    const pressed = await screen.findByRole("button", { name: "Remove Reports from favorites" });
    expect(pressed.getAttribute("aria-pressed")).toBe("true");
    expect(pressed.querySelector(".material-icons")?.textContent).toBe("star");
    expect(sent()).toEqual([{ method: "PUT", url: "/api/organize/favorites/folder/f1", body: undefined }]);

    fetchMock.mockResolvedValueOnce(jsonResponse(200, { favorite: false }));
    fireEvent.click(pressed);
    await screen.findByRole("button", { name: "Add Reports to favorites" });
    expect(sent()[1]).toMatchObject({ method: "DELETE", url: "/api/organize/favorites/folder/f1" });
  });

  it("goes back to how it was when the server refuses, and the refusal is shown", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(404, { message: "This file does not exist or you don't have access to it.", code: "NOT_FOUND" }));
    render(<FavoriteButton itemType="file" itemId="x" name="old.txt" initial={false} />);
    fireEvent.click(screen.getByRole("button", { name: "Add old.txt to favorites" }));
    await waitFor(() => expect(notifyMock).toHaveBeenCalledWith("This file does not exist or you don't have access to it.", "error"));
    expect(screen.getByRole("button", { name: "Add old.txt to favorites" }).getAttribute("aria-pressed")).toBe("false");
  });
});

describe("the file details panel", () => {
  it("adds a normalised tag with Enter and removes one with its chip's button, saving the whole set each time", async () => {
    renderWith(member("basic"), <FileDetailsPanel fileId={FILE_ID} extras={extras()} canEdit fileName="report.pdf" />);
    const input = screen.getByRole("textbox", { name: "Add a tag" });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { tags: ["draft", "q3 report"] }));
    fireEvent.change(input, { target: { value: "  Q3   Report " } });
    fireEvent.keyDown(input, { key: "Enter" });
    const tags = within(screen.getByTestId("tags-section"));
    await tags.findByRole("link", { name: "q3 report" });
    expect(sent()).toEqual([{ method: "PUT", url: `/api/organize/files/${FILE_ID}/tags`, body: { tags: ["draft", "q3 report"] } }]);
    expect((input as HTMLInputElement).value).toBe("");
    expect(toastMock).toHaveBeenCalledWith(detailsMessages.tagsSaved, expect.objectContaining({ type: "success" }));

    fetchMock.mockResolvedValueOnce(jsonResponse(200, { tags: ["q3 report"] }));
    fireEvent.click(tags.getByRole("button", { name: "Remove tag draft" }));
    await waitFor(() => expect(tags.queryByRole("link", { name: "draft" })).toBeNull());
    expect(sent()[1]!.body).toEqual({ tags: ["q3 report"] });
  });

  it("explains a tag it cannot accept without asking the server", () => {
    renderWith(member("basic"), <FileDetailsPanel fileId={FILE_ID} extras={extras()} canEdit />);
    const input = screen.getByRole("textbox", { name: "Add a tag" });
    fireEvent.change(input, { target: { value: "a/b" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(screen.getByText(TAG_CHARACTERS_MESSAGE)).toBeTruthy();
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("edits metadata rows and saves the whole set, refusing a repeated key first", async () => {
    renderWith(member("basic"), <FileDetailsPanel fileId={FILE_ID} extras={extras()} canEdit />);
    const save = screen.getByRole("button", { name: "Save metadata" }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Add field" }));
    const key = screen.getByRole("textbox", { name: "Key 2" });
    await waitFor(() => expect(document.activeElement).toBe(key));
    fireEvent.change(key, { target: { value: "client" } });
    fireEvent.change(screen.getByRole("textbox", { name: "Value 2" }), { target: { value: "Other" } });
    fireEvent.click(save);
    expect((await screen.findByRole("alert")).textContent).toContain('Field 2: The key "client" is used twice.');
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(key, { target: { value: "Year" } });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { metadata: [{ key: "Client", value: "Acme" }, { key: "Year", value: "Other" }] }));
    fireEvent.click(save);
    await waitFor(() => expect(toastMock).toHaveBeenCalledWith(detailsMessages.metadataSaved, expect.anything()));
    expect(sent()).toEqual([
      {
        method: "PUT",
        url: `/api/organize/files/${FILE_ID}/metadata`,
        body: { entries: [{ key: "Client", value: "Acme" }, { key: "Year", value: "Other" }] },
      },
    ]);

    fetchMock.mockResolvedValueOnce(jsonResponse(200, { metadata: [{ key: "Year", value: "Other" }] }));
    fireEvent.click(screen.getByRole("button", { name: "Remove field Client" }));
    fireEvent.click(save);
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]!.body).toEqual({ entries: [{ key: "Year", value: "Other" }] });
  });

  it("switches the template flag on the server and undoes it when refused", async () => {
    renderWith(member("free"), <FileDetailsPanel fileId={FILE_ID} extras={extras()} canEdit />);
    const toggle = screen.getByRole("switch", { name: "Use as document template" });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { isTemplate: true }));
    fireEvent.click(toggle);
    await waitFor(() => expect(toastMock).toHaveBeenCalledWith(detailsMessages.templateOn, expect.anything()));
    expect(toggle.getAttribute("aria-checked")).toBe("true");
    expect(sent()).toEqual([{ method: "PUT", url: `/api/organize/files/${FILE_ID}/template`, body: { isTemplate: true } }]);

    fetchMock.mockResolvedValueOnce(jsonResponse(403, { message: "You don't have permission to change these files and folders.", code: "FORBIDDEN" }));
    await act(async () => fireEvent.click(toggle));
    await waitFor(() => expect(toggle.getAttribute("aria-checked")).toBe("true"));
    expect(notifyMock).toHaveBeenCalledWith("You don't have permission to change these files and folders.", "error");
  });

  it("locks tags and metadata behind the Basic plan on the Free plan, keeping what is there readable", () => {
    renderWith(member("free"), <FileDetailsPanel fileId={FILE_ID} extras={extras()} canEdit />);
    expect(screen.queryByRole("textbox", { name: "Add a tag" })).toBeNull();
    expect(screen.getByRole("link", { name: "draft" })).toBeTruthy();
    expect(screen.getByText("Acme")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Edit tags. Locked: available on the Basic plan" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Edit metadata. Locked: available on the Basic plan" })).toBeTruthy();
    // Favorites and templates are on every plan.
    expect(screen.getByRole("switch", { name: "Use as document template" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add this file to favorites" })).toBeTruthy();
  });

  it("shows a viewer everything read-only, with the favorite star still theirs to use", () => {
    renderWith(member("basic"), <FileDetailsPanel fileId={FILE_ID} extras={extras({ isTemplate: true, favorite: true, duplicateCount: 2 })} canEdit={false} fileName="a.pdf" />);
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByRole("switch")).toBeNull();
    expect(screen.queryByRole("button", { name: /Remove tag/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Locked/ })).toBeNull();
    expect(screen.getByText(/This file is a document template/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Remove a.pdf from favorites" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("duplicate-note").textContent).toContain("2 other files in this space have the same content.");
  });
});
