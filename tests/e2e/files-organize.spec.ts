import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";
import { chooseOption, createMember, expect, gotoHydrated, test } from "./fixtures";

test.describe("organising files", () => {
  test("a Pro member stars, tags and describes a file, finds it by favorite and tag, sees duplicates and starts a document from a template; a Free member finds duplicates and tag editing locked, naming the plans that have them", async ({ page }) => {
    test.setTimeout(180_000);
    await createMember(page.request, { tier: "pro" });

    await gotoHydrated(page, "/files/recent");
    await expect(page).toHaveTitle("Recent uploads - Strongroom");
    const csrf = await csrfToken(page);
    const { inbox, outbox } = await defaultFolders(page);
    const numbers = Buffer.from("Quarterly numbers: 1, 2, 3\n".repeat(40));
    const reportId = await uploadViaTus(page.request, { folderId: inbox, name: "report.txt", body: numbers, csrf });
    await uploadViaTus(page.request, { folderId: outbox, name: "report copy.txt", body: numbers, csrf });
    const letter = Buffer.from("Dear reader,\nwelcome aboard.\n");
    const letterId = await uploadViaTus(page.request, { folderId: inbox, name: "letter.txt", body: letter, csrf });

    // Recent uploads: newest first, each with its folder.
    await gotoHydrated(page, "/files/recent");
    const rows = page.getByTestId("file-row");
    await expect(rows).toHaveCount(3);
    await expect(rows.first().getByRole("link", { name: "letter.txt" })).toHaveAttribute("href", `/files/${letterId}`);
    await expect(rows.first().getByRole("link", { name: "Inbox" })).toHaveAttribute("href", `/folders/${inbox}`);

    // The file page's details panel: star, tag (Enter adds, normalised), metadata.
    await gotoHydrated(page, `/files/${reportId}`);
    const panel = page.getByTestId("file-details-panel");
    await panel.getByRole("button", { name: "Add this file to favorites" }).click();
    await expect(panel.getByRole("button", { name: "Remove this file from favorites" })).toHaveAttribute("aria-pressed", "true");
    const tagInput = panel.getByRole("textbox", { name: "Add a tag" });
    await tagInput.fill("  Q3   Finance ");
    await tagInput.press("Enter");
    await expect(panel.getByRole("link", { name: "q3 finance" })).toBeVisible();
    await expect(tagInput).toHaveValue("");
    await panel.getByRole("button", { name: "Add field" }).click();
    await expect(panel.getByRole("textbox", { name: "Key 1" })).toBeFocused();
    await panel.getByRole("textbox", { name: "Key 1" }).fill("Client");
    await panel.getByRole("textbox", { name: "Value 1" }).fill("Acme Ltd");
    await panel.getByRole("button", { name: "Save metadata" }).click();
    await expect(page.locator(".Toastify__toast").filter({ hasText: "Metadata saved" })).toBeVisible();
    await page.reload();
    await expect(panel.getByRole("textbox", { name: "Key 1" })).toHaveValue("Client");
    await expect(panel.getByRole("textbox", { name: "Value 1" })).toHaveValue("Acme Ltd");
    await expect(panel.getByTestId("duplicate-note")).toContainText("1 other file in this space has the same content.");

    // Favorites.
    await gotoHydrated(page, "/favorites");
    await expect(page).toHaveTitle("Favorites - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "Favorites" })).toBeVisible();
    await expect(page.getByRole("link", { name: "report.txt" })).toHaveAttribute("href", `/files/${reportId}`);

    // Tags: the overview counts it; the tag lists it.
    await gotoHydrated(page, "/files/tags");
    await expect(page).toHaveTitle("Tags - Strongroom");
    await page.getByRole("link", { name: "q3 finance 1 file" }).click();
    await expect(page).toHaveURL(/\/files\/tags\?tag=q3%20finance$/);
    await expect(page.getByRole("heading", { name: "Files tagged “q3 finance”" })).toBeVisible();
    await expect(page.getByRole("link", { name: "q3 finance 1 file" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("file-row").getByRole("link", { name: "report.txt" })).toBeVisible();

    // Duplicates: the two identical uploads form one group (hashed while uploading).
    await gotoHydrated(page, "/files/duplicates");
    await expect(page).toHaveTitle("Duplicates - Strongroom");
    await expect(page.getByTestId("duplicates-summary")).toContainText("1 set of identical files (2 files)");
    const group = page.getByTestId("duplicate-group");
    await expect(group).toHaveCount(1);
    await expect(group.getByRole("link", { name: "report.txt" })).toBeVisible();
    await expect(group.getByRole("link", { name: "report copy.txt" })).toBeVisible();
    await expect(group.getByRole("link", { name: "Outbox" })).toHaveAttribute("href", `/folders/${outbox}`);

    // Templates: mark the letter, then start a new document from it in the Outbox.
    await gotoHydrated(page, `/files/${letterId}`);
    const templateSwitch = page.getByRole("switch", { name: "Use as document template" });
    await templateSwitch.click();
    await expect(templateSwitch).toHaveAttribute("aria-checked", "true");
    await expect(page.locator(".Toastify__toast").filter({ hasText: "This file is now a document template" })).toBeVisible();

    await gotoHydrated(page, "/templates");
    await expect(page).toHaveTitle("Document templates - Strongroom");
    await page.getByRole("button", { name: "Use template letter.txt" }).click();
    const dialog = page.getByRole("dialog", { name: "Use template letter.txt" });
    await expect(dialog.getByRole("combobox", { name: "Destination folder" })).toHaveText("My files (top level)");
    await dialog.getByRole("button", { name: "Create document" }).click();
    await expect(dialog.getByText("Name is required.")).toBeVisible();
    await dialog.getByRole("textbox", { name: "Name" }).fill("Welcome letter");
    await chooseOption(dialog, "Destination folder", "Outbox");
    await dialog.getByRole("button", { name: "Create document" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("link", { name: "Open Welcome letter.txt" }).click();
    await expect(page).toHaveTitle("Welcome letter.txt - Strongroom");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Outbox" })).toBeVisible();
    const download = await page.getByRole("link", { name: "Download" }).getAttribute("href");
    const copied = await page.request.get(download!);
    expect(copied.status()).toBe(200);
    expect(await copied.body()).toEqual(letter);

    // The same name again in the same folder is refused next to the field.
    await gotoHydrated(page, "/templates");
    await page.getByRole("button", { name: "Use template letter.txt" }).click();
    await dialog.getByRole("textbox", { name: "Name" }).fill("Welcome letter");
    await chooseOption(dialog, "Destination folder", "Outbox");
    await dialog.getByRole("button", { name: "Create document" }).click();
    await expect(dialog.getByText('A file named "Welcome letter.txt" is already in that folder.')).toBeVisible();

    // A Free member finds duplicates and tag editing locked, naming the plans that have them.
    await createMember(page.request, { tier: "free" });
    await gotoHydrated(page, "/files/duplicates", { document: true });
    await expect(page.getByTestId("duplicates-locked")).toBeVisible();
    await expect(page.getByRole("button", { name: "Find duplicates. Locked: available on the Pro plan" })).toBeVisible();

    const freeCsrf = await csrfToken(page);
    const { inbox: freeInbox } = await defaultFolders(page);
    const freeFileId = await uploadViaTus(page.request, { folderId: freeInbox, name: "notes.txt", body: Buffer.from("notes"), csrf: freeCsrf });
    await gotoHydrated(page, `/files/${freeFileId}`);
    const freePanel = page.getByTestId("file-details-panel");
    await expect(freePanel.getByRole("textbox", { name: "Add a tag" })).toHaveCount(0);
    await freePanel.getByRole("button", { name: "Edit tags. Locked: available on the Basic plan" }).click();
    await expect(page.getByRole("dialog", { name: /Upgrade/ })).toBeVisible();
  });
});
