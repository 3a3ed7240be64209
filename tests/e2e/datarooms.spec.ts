import type { Page } from "@playwright/test";
import { csrfToken, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test, waitForHydration } from "./fixtures";

/**
 * Data rooms, part 1 in Chromium (issue 19): the index, creating a room, its file manager, its
 * profile, archiving; the plan's room limit; someone else's room.
 */

async function createRoomViaApi(page: Page, name: string): Promise<string> {
  const response = await page.request.post("/api/datarooms", {
    data: { name },
    headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { dataroom: { id: string } }).dataroom.id;
}

test.describe("data rooms", () => {
  test("a member creates a room, works in its file manager, finds it, renames it, and archives it read-only", async ({ page }) => {
    test.setTimeout(90_000);
    await createMember(page.request, { tier: "pro" });
    await gotoHydrated(page, "/datarooms");
    await expect(page).toHaveTitle("Data rooms - Strongroom");
    await expect(page.getByText("No data rooms yet.")).toBeVisible();
    await expect(page.getByTestId("dataroom-quota")).toHaveText("You own 0 of the 20 data rooms your plan allows.");

    // An empty name is refused by the server with the field's message; what was typed stays.
    await page.getByRole("textbox", { name: "Description" }).fill("Series B documents");
    await page.getByRole("textbox", { name: "Name" }).evaluate((input: HTMLInputElement) => (input.required = false));
    await page.getByRole("button", { name: "Create data room" }).click();
    await expect(page.getByText("Name is required.")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Description" })).toHaveValue("Series B documents");

    await page.getByRole("textbox", { name: "Name" }).fill("Series B");
    await page.getByRole("button", { name: "Create data room" }).click();
    await page.waitForURL(/\/dataroom\/[0-9a-f-]{36}$/);
    await waitForHydration(page);
    const roomId = new URL(page.url()).pathname.split("/").at(-1)!;
    await expect(page).toHaveTitle("Series B - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "Series B" })).toBeVisible();
    await expect(page.locator(".Toastify__toast").filter({ hasText: "Data room Created Successfully." })).toBeVisible();
    await expect(page.getByText("Owner", { exact: true })).toBeVisible();

    // The room's file manager is the folder browser: a file uploaded to the room is listed there.
    const root = ((await (await page.request.get(`/api/datarooms/${roomId}`)).json()) as { rootFolderId: string }).rootFolderId;
    await uploadViaTus(page.request, { folderId: root, name: "term sheet.txt", body: Buffer.from("Term sheet, draft 3\n"), csrf: await csrfToken(page) });
    await gotoHydrated(page, `/dataroom/${roomId}`);
    await expect(page.getByRole("link", { name: "term sheet.txt" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Upload files" })).toBeVisible();

    // The index lists it; search finds it by its description; another word finds nothing.
    await gotoHydrated(page, "/datarooms");
    const row = page.getByTestId("dataroom-row").filter({ hasText: "Series B" });
    await expect(row).toContainText("Yours · 1 file · 1 person");
    await page.getByRole("searchbox", { name: "Search" }).fill("series b documents");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/q=series\+b\+documents/);
    await expect(page.getByTestId("dataroom-row")).toHaveCount(1);
    await page.getByRole("searchbox", { name: "Search" }).fill("no such room");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("No data room matches.")).toBeVisible();

    // The profile renames it; the file manager's heading follows.
    await gotoHydrated(page, `/dataroom/${roomId}/profile`);
    await expect(page).toHaveTitle("Data room profile - Strongroom");
    await page.getByRole("textbox", { name: "Name" }).fill("Series B (closing)");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(new RegExp(`/dataroom/${roomId}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Series B (closing)" })).toBeVisible();

    // A logo: uploaded on the profile, shown on the room's page.
    await gotoHydrated(page, `/dataroom/${roomId}/profile`);
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
    await page.getByLabel("Image (PNG, JPEG, WebP or GIF, at most 512 KB)").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
    await page.getByRole("button", { name: "Upload logo" }).click();
    await expect(page.locator(".Toastify__toast").filter({ hasText: "Logo updated." })).toBeVisible();
    await expect(page.getByRole("img", { name: "Logo of Series B (closing)" })).toBeVisible();
    await gotoHydrated(page, `/dataroom/${roomId}`);
    await expect(page.getByTestId("room-header").getByTestId("room-logo")).toHaveAttribute("src", /\/api\/datarooms\/.+\/logo/);

    // Archived: read-only for everyone, the owner included; the upload control is gone.
    await gotoHydrated(page, `/dataroom/${roomId}/profile`);
    await page.getByRole("button", { name: "Archive data room" }).click();
    await page.waitForURL(new RegExp(`/dataroom/${roomId}$`));
    await waitForHydration(page);
    await expect(page.getByText("This data room is archived and read-only.")).toBeVisible();
    await expect(page.getByRole("link", { name: "term sheet.txt" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Upload files" })).toHaveCount(0);
    const refused = await page.request.post("/api/folders", {
      data: { parentId: root, label: "Late addition" },
      headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe("This data room is archived and read-only. Unarchive it to make changes.");

    await gotoHydrated(page, `/dataroom/${roomId}/profile`);
    await page.getByRole("button", { name: "Unarchive data room" }).click();
    await page.waitForURL(new RegExp(`/dataroom/${roomId}$`));
    await waitForHydration(page);
    await expect(page.getByRole("button", { name: "Upload files" })).toBeVisible();
  });

  test("a room's folders open under the room's address with its header, and old folder links lead there; the owner deletes a room to the trash and restores it; to someone else the room and its profile are not found; a free member at the plan's room limit is offered the plans instead of the form", async ({ page }) => {
    test.setTimeout(90_000);
    await createMember(page.request, { tier: "pro" });
    await gotoHydrated(page, "/datarooms");
    const roomId = await createRoomViaApi(page, "Kestrel");
    const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${roomId}`)).json()) as { rootFolderId: string };
    const created = await page.request.post("/api/folders", {
      data: { parentId: rootFolderId, label: "Legal" },
      headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" },
    });
    const legal = ((await created.json()) as { folder: { uid: string } }).folder.uid;

    await gotoHydrated(page, `/dataroom/${roomId}`);
    await page.getByRole("link", { name: "Legal" }).first().click();
    await page.waitForURL(new RegExp(`/dataroom/${roomId}/folders/${legal}$`));
    await waitForHydration(page);
    await expect(page).toHaveTitle("Legal - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "Legal" })).toBeVisible();
    // The room's header stays above its folders: its tabs, and the path back to the room.
    await expect(page.getByRole("navigation", { name: "Data room sections" }).getByRole("link", { name: "Files" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("navigation", { name: "Data room sections" }).getByRole("link", { name: "People" })).toBeVisible();
    await page.getByRole("navigation", { name: "Breadcrumb", exact: true }).getByRole("link", { name: "Kestrel" }).click();
    await page.waitForURL(new RegExp(`/dataroom/${roomId}$`));

    // A /folders/ link to a room's folder (favorites, search, older bookmarks) leads to the room's address.
    await page.goto(`/folders/${legal}?view=grid`);
    await expect(page).toHaveURL(new RegExp(`/dataroom/${roomId}/folders/${legal}\\?view=grid$`));
    // Another room's folder is not found under this room's address.
    const other = await createRoomViaApi(page, "Osprey");
    expect((await page.goto(`/dataroom/${other}/folders/${legal}`))?.status()).toBe(404);

    // Deleted to the trash, and restored from the trash view.
    const oldDeal = await createRoomViaApi(page, "Old deal");
    await gotoHydrated(page, `/dataroom/${oldDeal}/profile`);
    await page.getByRole("button", { name: "Delete data room" }).click();
    await page.waitForURL(/\/datarooms\?filter=trash$/);
    await waitForHydration(page);
    await expect(page.locator(".Toastify__toast").filter({ hasText: "Old deal is in the trash. You can restore it for 30 days." })).toBeVisible();
    const row = page.getByTestId("dataroom-row").filter({ hasText: "Old deal" });
    await expect(row).toContainText("Deleted for good on");
    expect((await page.request.get(`/api/datarooms/${oldDeal}`)).status()).toBe(404);

    await row.getByRole("button", { name: "Restore Old deal" }).click();
    await page.waitForURL(new RegExp(`/dataroom/${oldDeal}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Old deal" })).toBeVisible();

    // Someone else, signed in on the same browser, finds neither room nor its profile.
    await createMember(page.request, { tier: "pro", name: "Other Owner" });
    for (const path of [`/dataroom/${roomId}`, `/dataroom/${roomId}/profile`, "/dataroom/not-a-room"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByText("Kestrel")).toHaveCount(0);
    }
    await gotoHydrated(page, "/datarooms");
    await expect(page.getByText("Kestrel")).toHaveCount(0);

    // A free member at the plan's room limit.
    await createMember(page.request, { tier: "free" });
    await gotoHydrated(page, "/datarooms", { document: true });
    await createRoomViaApi(page, "First");
    await createRoomViaApi(page, "Second");
    await gotoHydrated(page, "/datarooms");
    await expect(page.getByTestId("dataroom-quota")).toHaveText("You own 2 of the 2 data rooms your plan allows.");
    await expect(page.getByRole("button", { name: "Create data room" })).toHaveCount(0);
    const alert = page.getByRole("alert").filter({ hasText: "Your plan allows 2 data rooms and you own 2." });
    await expect(alert).toBeVisible();
    await alert.getByRole("link", { name: "See the plans" }).click();
    await expect(page).toHaveURL(/\/settings\/plan$/);
  });
});
