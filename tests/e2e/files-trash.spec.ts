import type { Page } from "@playwright/test";
import { createMember, expect, gotoHydrated, test } from "./fixtures";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";

/** A folder created through the API, as the "New folder" page does. */
async function createFolder(page: Page, parentId: string, label: string, csrf: string): Promise<string> {
  const response = await page.request.post("/api/folders", {
    headers: { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest", Accept: "application/json" },
    data: { parentId, label },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { folder: { uid: string } }).folder.uid;
}

/** Row names of a folder table; each cell also holds the (aria-hidden) icon ligature before the name. */
function rowNames(names: string[]): RegExp[] {
  return names.map((name) => new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
}

function toast(page: Page, text: string) {
  return page.locator(".Toastify__toast").filter({ hasText: text });
}

test.describe("delete, trash, restore", () => {
  test("a member deletes a file to the trash, restores it into its folder, then deletes it for good from the trash; a folder goes with its files, the special folders cannot be selected, and several items are listed in the dialog", async ({ page }) => {
    test.setTimeout(180_000);
    // Signed up through the app itself: no second writer on the local D1 while the server runs.
    await createMember(page.request, { tier: "free" });
    await gotoHydrated(page, "/folders");
    const { inbox } = await defaultFolders(page);
    const csrf = await csrfToken(page);
    await uploadViaTus(page.request, { folderId: inbox, name: "keep.txt", body: Buffer.from("stay here"), csrf });
    const droppedId = await uploadViaTus(page.request, { folderId: inbox, name: "drop.txt", body: Buffer.from("goodbye soon"), csrf });

    // The trash starts empty.
    await gotoHydrated(page, "/trash");
    await expect(page).toHaveTitle("Trash - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "Trash" })).toBeVisible();
    await expect(page.getByTestId("trash-empty")).toContainText("The trash is empty.");

    // Delete one file from its folder: to the trash.
    await gotoHydrated(page, "/folders/inbox");
    const names = page.getByRole("table", { name: "Contents of Inbox" }).locator("tbody tr td:nth-child(2)");
    await expect(names).toHaveText(rowNames(["drop.txt", "keep.txt"]));
    await page.getByRole("checkbox", { name: "Select drop.txt" }).check();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    let dialog = page.getByRole("dialog", { name: "Delete 1 item(s)" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("checkbox", { name: "Permanently delete this item" })).not.toBeChecked();
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(toast(page, "Moved 1 item to the trash")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(names).toHaveText(rowNames(["keep.txt"]));

    // It waits in the trash with where it was, when, and how long it stays.
    await gotoHydrated(page, "/trash");
    const rows = page.getByTestId("trash-row");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("drop.txt");
    await expect(rows.first().getByTestId("trash-location")).toHaveText("My files / Inbox");
    await expect(rows.first()).toContainText("30 days left");

    // Restore: back in its folder, gone from the trash.
    await page.getByRole("checkbox", { name: "Select drop.txt" }).check();
    await expect(page.getByText("1 selected")).toBeVisible();
    await page.getByRole("button", { name: "Restore" }).click();
    await expect(toast(page, "Restored 1 item")).toBeVisible();
    await expect(page.getByTestId("trash-empty")).toBeVisible();
    await gotoHydrated(page, "/folders/inbox");
    await expect(names).toHaveText(rowNames(["drop.txt", "keep.txt"]));
    expect((await page.request.get(`/api/files/${droppedId}/download`)).status()).toBe(200);

    // Delete it again, then for good from the trash: the box is gone and the button says so.
    await page.getByRole("checkbox", { name: "Select drop.txt" }).check();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("dialog", { name: "Delete 1 item(s)" }).getByRole("button", { name: "Delete", exact: true }).click();
    await expect(toast(page, "Moved 1 item to the trash")).toBeVisible();
    await expect(names).toHaveText(rowNames(["keep.txt"]));

    await gotoHydrated(page, "/trash");
    await page.getByRole("checkbox", { name: "Select drop.txt" }).check();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    dialog = page.getByRole("dialog", { name: "Delete 1 item(s)" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("checkbox")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Permanently Delete" }).click();
    await expect(toast(page, "Permanently deleted 1 item")).toBeVisible();
    await expect(page.getByTestId("trash-empty")).toBeVisible();

    // Gone everywhere: not in its folder, not in the trash, not downloadable.
    await gotoHydrated(page, "/folders/inbox");
    await expect(names).toHaveText(rowNames(["keep.txt"]));
    expect((await page.request.get(`/api/files/${droppedId}/download`)).status()).toBe(404);
    await gotoHydrated(page, "/trash");
    await expect(page.getByTestId("trash-empty")).toBeVisible();

    // A folder is deleted with its files; the special folders cannot be selected; several items are listed in the dialog.
    const project = await createFolder(page, inbox, "Project", csrf);
    await uploadViaTus(page.request, { folderId: project, name: "a.txt", body: Buffer.from("a"), csrf });
    await uploadViaTus(page.request, { folderId: inbox, name: "b.txt", body: Buffer.from("b"), csrf });

    await gotoHydrated(page, "/folders/inbox");
    await page.getByRole("checkbox", { name: "Select Project" }).check();
    await page.getByRole("checkbox", { name: "Select b.txt" }).check();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const deleteTwo = page.getByRole("dialog", { name: "Delete 2 item(s)" });
    await expect(deleteTwo.getByRole("list", { name: "Items to delete" }).getByRole("listitem")).toHaveText(["Project (folder)", "b.txt"]);
    await deleteTwo.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(toast(page, "Moved 2 items to the trash")).toBeVisible();

    await gotoHydrated(page, "/trash");
    const trashRows = page.getByTestId("trash-row");
    await expect(trashRows).toHaveCount(2);
    await expect(page.locator('[data-testid="trash-row"][data-item-type="folder"]')).toContainText("Project");
    // The file inside the folder went with it: it is not an entry of its own.
    await expect(page.getByTestId("trash-row").filter({ hasText: "a.txt" })).toHaveCount(0);

    await page.getByRole("checkbox", { name: "Select Project" }).check();
    await page.getByRole("button", { name: "Restore" }).click();
    await expect(toast(page, "Restored 1 item")).toBeVisible();
    await expect(trashRows).toHaveCount(1);
    await gotoHydrated(page, "/folders/inbox");
    await page.getByRole("link", { name: "Project" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Project" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Contents of Project" }).locator("tbody tr td:nth-child(2)")).toHaveText(rowNames(["a.txt"]));

    // The top of the space lists Inbox and Outbox without a box to select them.
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "My files" }).click();
    await expect(page.getByRole("main").getByRole("link", { name: "Inbox" })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Select Inbox" })).toHaveCount(0);
    await expect(page.getByRole("checkbox", { name: "Select Outbox" })).toHaveCount(0);
  });
});
