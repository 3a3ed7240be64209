import { seriousViolations } from "./axe-helpers";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/**
 * Batch operations (issue 22): a large selection moves, goes to the trash and comes back in the
 * background, with its progress, pause and resume; a selection is copied, archived and shared.
 */

test.describe("batch operations", () => {
  test("30 files move to another folder with the operations panel showing progress, pause and resume, go to the trash and come back; some are copied, archived and shared", async ({ page }) => {
    test.setTimeout(120_000);
    await createMember(page.request, { tier: "pro" });
    await gotoHydrated(page, "/folders/inbox");
    const csrf = await csrfToken(page);
    const { inbox } = await defaultFolders(page);
    const archive = await page.request.post("/api/folders", { data: { parentId: inbox, label: "Paid" }, headers: { "X-CSRF-TOKEN": csrf, "X-Requested-With": "XMLHttpRequest" } });
    expect(archive.status(), await archive.text()).toBe(201);
    const archiveId = ((await archive.json()) as { folder: { uid: string } }).folder.uid;
    // Ten at a time, as the upload panel's queue would (the order of arrival does not matter here).
    for (let first = 1; first <= 30; first += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, offset) => first + offset).map((index) =>
          uploadViaTus(page.request, { folderId: inbox, name: `Invoice ${String(index).padStart(2, "0")}.txt`, body: Buffer.from(`Invoice ${index}\n`), csrf }),
        ),
      );
    }

    // Select the 30 files (not the Archive folder) and move them.
    await gotoHydrated(page, `/folders/${inbox}`);
    for (let index = 1; index <= 30; index++) await page.getByRole("checkbox", { name: `Select Invoice ${String(index).padStart(2, "0")}.txt` }).check();
    await expect(page.getByText("30 selected")).toBeVisible();
    await page.getByRole("button", { name: "Move", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Move 30 items" });
    await dialog.getByRole("radio", { name: /Paid/ }).check();
    await dialog.getByRole("button", { name: "Move here" }).click();

    const panel = page.getByTestId("operations-panel");
    const operation = panel.getByTestId("operation");
    await expect(operation).toContainText("Moving 30 items to “Paid”");
    await expect(operation).toHaveAttribute("data-status", "processing");
    // Paused at once: a move of 30 is six requests, which a slow check here could outlast (the Pause button then gone).
    await operation.getByRole("button", { name: "Pause" }).click();
    await expect(operation).toHaveAttribute("data-status", "paused");
    expect(await seriousViolations(page)).toEqual([]);
    const pausedAt = Number((await operation.getByRole("progressbar").getAttribute("aria-valuenow")) ?? "0");
    expect(pausedAt).toBeLessThan(100);
    await operation.getByRole("button", { name: "Resume" }).click();
    await expect(operation).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await expect(operation.getByTestId("operation-facts")).toContainText("30 of 30");
    await expect(page.getByRole("checkbox", { name: /^Select Invoice/ })).toHaveCount(0);

    // In Paid, all 30; to the trash as one operation.
    await gotoHydrated(page, `/folders/${archiveId}`);
    await page.getByRole("checkbox", { name: "Select all" }).check();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("dialog", { name: "Delete 30 item(s)" }).getByRole("button", { name: "Delete", exact: true }).click();
    // The panel keeps the finished move while the member moves around the app: each operation by its name.
    const deletion = page.getByTestId("operations-panel").getByTestId("operation").filter({ hasText: "Moving to the trash 30 items" });
    await expect(deletion).toBeVisible();
    await expect(deletion).toHaveAttribute("data-status", "completed", { timeout: 60_000 });

    // Back from the trash, as one operation too.
    await gotoHydrated(page, "/trash");
    await expect(page.getByTestId("trash-row")).toHaveCount(30);
    await page.getByRole("checkbox", { name: "Select all" }).check();
    await page.getByRole("button", { name: "Restore" }).click();
    const restoring = page.getByTestId("operations-panel").getByTestId("operation").filter({ hasText: "Restoring 30 items" });
    await expect(restoring).toBeVisible();
    await expect(restoring).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await expect(page.getByTestId("trash-empty")).toBeVisible();
    await gotoHydrated(page, `/folders/${archiveId}`);
    await expect(page.getByRole("checkbox", { name: /^Select Invoice/ })).toHaveCount(30);

    // Two copied into the Inbox: the originals stay.
    for (const index of ["29", "30"]) await page.getByRole("checkbox", { name: `Select Invoice ${index}.txt` }).check();
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    const copy = page.getByRole("dialog", { name: "Copy 2 items" });
    await copy.getByRole("radio", { name: /Inbox/ }).check();
    await copy.getByRole("button", { name: "Copy here" }).click();
    const copying = page.getByTestId("operations-panel").getByTestId("operation").filter({ hasText: "Copying 2 items to “Inbox”" });
    await expect(copying).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await expect(page.getByRole("checkbox", { name: /^Select Invoice/ })).toHaveCount(30);

    // Three archived: out of this folder, into "Archive" at the top of the member's files.
    for (const index of ["26", "27", "28"]) await page.getByRole("checkbox", { name: `Select Invoice ${index}.txt` }).check();
    await page.getByRole("button", { name: "Archive", exact: true }).click();
    const archiving = page.getByTestId("operations-panel").getByTestId("operation").filter({ hasText: "Archiving 3 items" });
    await expect(archiving).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await expect(page.getByRole("checkbox", { name: /^Select Invoice/ })).toHaveCount(27);
    await gotoHydrated(page, `/folders/${inbox}`);
    await expect(page.getByRole("checkbox", { name: /^Select Invoice/ })).toHaveCount(2);

    // Three of them shared from the selection: one link each, listed with the member's links.
    await gotoHydrated(page, `/folders/${archiveId}`);
    for (const index of ["01", "02", "03"]) await page.getByRole("checkbox", { name: `Select Invoice ${index}.txt` }).check();
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const share = page.getByRole("dialog", { name: "Share 3 items" });
    await share.getByRole("checkbox", { name: "Ask for e-mail" }).check();
    await share.getByRole("button", { name: "Create links" }).click();
    const sharing = page.getByTestId("operations-panel").getByTestId("operation").filter({ hasText: "Sharing 3 items" });
    await expect(sharing).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
    await sharing.getByRole("link", { name: "See the links" }).click();
    await expect(page).toHaveTitle("Share links - Strongroom");
    await expect(page.getByTestId("share-link-row")).toHaveCount(3);
    await expect(page.getByTestId("share-link-row").first()).toContainText("e-mail");
  });
});
