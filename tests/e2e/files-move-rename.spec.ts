import type { Page } from "@playwright/test";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/** Moving and renaming in the file manager and on the file page (a fresh Pro member made inside the server). */

async function createFolder(page: Page, parentId: string, label: string): Promise<string> {
  const response = await page.request.post("/api/folders", {
    headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest", Accept: "application/json" },
    data: { parentId, label },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { folder: { uid: string } }).folder.uid;
}

async function personalRoot(page: Page): Promise<string> {
  const response = await page.request.get("/api/folders", { headers: { Accept: "application/json" } });
  const { spaces } = (await response.json()) as { spaces: { rootUid: string; spaceKind: string }[] };
  return spaces.find((space) => space.spaceKind === "personal")!.rootUid;
}

/** The names in a folder's table (each cell also holds an aria-hidden icon ligature before the name). */
function names(page: Page, folder: string) {
  return page.getByRole("table", { name: `Contents of ${folder}` }).locator("tbody tr td:nth-child(2)");
}

function toast(page: Page, text: string) {
  return page.locator(".Toastify__toast").filter({ hasText: text });
}

test.describe("moving and renaming", () => {
  test("a member renames a file keeping its extension, is told a name is taken, and moves files and a folder elsewhere; a file page renames and moves its file, and its title and breadcrumbs follow", async ({ page }) => {
    test.setTimeout(90_000);
    await createMember(page.request, { tier: "pro" });
    await gotoHydrated(page, "/folders/inbox");
    const csrf = await csrfToken(page);
    const { inbox } = await defaultFolders(page);
    const root = await personalRoot(page);
    const archive = await createFolder(page, root, "Archive");
    await createFolder(page, root, "Clients");
    await uploadViaTus(page.request, { folderId: inbox, name: "scan0001.txt", body: Buffer.from("lease, signed"), csrf });
    await uploadViaTus(page.request, { folderId: inbox, name: "notes.txt", body: Buffer.from("call notes"), csrf });
    await uploadViaTus(page.request, { folderId: archive, name: "notes.txt", body: Buffer.from("older notes"), csrf });

    // Rename: the name opens selected up to its extension, so typing replaces only the stem.
    await gotoHydrated(page, "/folders/inbox");
    await expect(names(page, "Inbox")).toHaveText([/notes\.txt$/, /scan0001\.txt$/]);
    const rename = page.getByRole("button", { name: "Rename", exact: true });
    await expect(rename).toBeDisabled();
    await page.getByRole("checkbox", { name: "Select scan0001.txt" }).check();
    await rename.click();
    let dialog = page.getByRole("dialog", { name: "Rename file" });
    const field = dialog.getByRole("textbox", { name: "Name" });
    await expect(field).toBeFocused();
    await expect(field).toHaveValue("scan0001.txt");
    await page.keyboard.type("Signed lease");
    await expect(field).toHaveValue("Signed lease.txt");
    await dialog.getByRole("button", { name: "Rename", exact: true }).click();
    await expect(toast(page, "Renamed to “Signed lease.txt”")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(names(page, "Inbox")).toHaveText([/Signed lease\.txt$/, /notes\.txt$/]);

    // A name another file here has is refused on the field; nothing changes.
    await page.getByRole("checkbox", { name: "Select Signed lease.txt" }).check();
    await rename.click();
    dialog = page.getByRole("dialog", { name: "Rename file" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("notes.txt");
    await dialog.getByRole("button", { name: "Rename", exact: true }).click();
    await expect(dialog.getByText("A file named “notes.txt” is already in this folder. Choose another name.")).toBeVisible();
    await expect(dialog.getByRole("textbox", { name: "Name" })).toHaveAttribute("aria-invalid", "true");
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(names(page, "Inbox")).toHaveText([/Signed lease\.txt$/, /notes\.txt$/]);

    // Move both files to Archive: the folder they are in cannot be chosen; the taken name is kept apart.
    await page.getByRole("checkbox", { name: "Select all" }).check();
    await page.getByRole("button", { name: "Move", exact: true }).click();
    dialog = page.getByRole("dialog", { name: "Move 2 items" });
    await expect(dialog.getByRole("radio", { name: /Inbox/ })).toBeDisabled();
    await expect(dialog.getByText("(current folder)")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Move here" })).toBeDisabled();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("radio", { name: /Archive/ }).check();
    await dialog.getByRole("button", { name: "Move here" }).click();
    await expect(toast(page, "Moved 2 items to “Archive”")).toBeVisible();
    await expect(page.getByText("This folder is empty.")).toBeVisible();

    await gotoHydrated(page, `/folders/${archive}`);
    await expect(names(page, "Archive")).toHaveText([/Signed lease\.txt$/, /notes \(2\)\.txt$/, /notes\.txt$/]);

    // A folder moves with what it holds, and cannot be put inside itself.
    await gotoHydrated(page, `/folders/${root}`);
    await page.getByRole("checkbox", { name: "Select Archive" }).check();
    await page.getByRole("button", { name: "Move", exact: true }).click();
    dialog = page.getByRole("dialog", { name: "Move 1 item" });
    await expect(dialog.getByRole("radio", { name: /Archive/ })).toBeDisabled();
    await expect(dialog.getByText("(being moved)")).toBeVisible();
    await dialog.getByRole("radio", { name: /Clients/ }).check();
    await dialog.getByRole("button", { name: "Move here" }).click();
    await expect(toast(page, "Moved 1 item to “Clients”")).toBeVisible();
    await expect(names(page, "My files")).not.toContainText([/Archive$/]);
    await page.getByRole("link", { name: "Clients" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Archive", exact: true }).click();
    await expect(names(page, "Archive")).toHaveText([/Signed lease\.txt$/, /notes \(2\)\.txt$/, /notes\.txt$/]);

    // A file page renames and moves its file; its title and breadcrumbs follow.
    const { outbox } = await defaultFolders(page);
    const fileId = await uploadViaTus(page.request, { folderId: inbox, name: "draft.txt", body: Buffer.from("a draft"), csrf });

    await gotoHydrated(page, `/files/${fileId}`);
    await expect(page).toHaveTitle("draft.txt - Strongroom");
    await page.getByRole("button", { name: "Rename", exact: true }).click();
    const renameDialog = page.getByRole("dialog", { name: "Rename file" });
    await renameDialog.getByRole("textbox", { name: "Name" }).fill("final.txt");
    await renameDialog.getByRole("button", { name: "Rename", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "final.txt" })).toBeVisible();
    await expect(page).toHaveTitle("final.txt - Strongroom");

    await page.getByRole("button", { name: "Move", exact: true }).click();
    const moveDialog = page.getByRole("dialog", { name: "Move 1 item" });
    await expect(moveDialog).toContainText("Choose where “final.txt” goes.");
    await moveDialog.getByRole("radio", { name: /Outbox/ }).check();
    await moveDialog.getByRole("button", { name: "Move here" }).click();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Outbox" })).toHaveAttribute("href", `/folders/${outbox}`);
  });
});
