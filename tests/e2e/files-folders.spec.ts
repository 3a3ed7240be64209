import type { Page } from "@playwright/test";
import { createMember, expect, gotoHydrated, test } from "./fixtures";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";

/** A verified member on the free plan, signed in on `page` (the test-only route, made inside the server). */
async function signedInMember(page: Page) {
  return createMember(page.request, { tier: "free" });
}

// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

test.describe("folders", () => {
  test("a member finds their inbox and outbox, browses, sorts, searches and switches views; someone else opening one of their folders gets the not-found page", async ({ page }) => {
    test.setTimeout(90_000);
    await signedInMember(page);

    await gotoHydrated(page, "/folders");
    await expect(page).toHaveTitle("All folders - Strongroom");
    const tree = page.getByRole("region", { name: "My files" });
    await expect(tree.getByRole("link", { name: "Inbox" })).toBeVisible();
    await expect(tree.getByRole("link", { name: "Outbox" })).toBeVisible();

    const { inbox } = await defaultFolders(page);
    const csrf = await csrfToken(page);
    for (const [name, size] of [
      ["beta.txt", 3000],
      ["alpha.txt", 10],
      ["gamma.txt", 200],
    ] as const) {
      await uploadViaTus(page.request, { folderId: inbox, name, body: Buffer.alloc(size, 120), csrf });
    }
    await uploadViaTus(page.request, { folderId: inbox, name: "pixel.png", body: PNG, csrf });

    // The default inbox is a page of its own, with breadcrumbs from the top of the space.
    await gotoHydrated(page, "/folders/inbox");
    await expect(page).toHaveTitle("Inbox - Strongroom");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "My files" })).toBeVisible();
    const nameLinks = page.getByRole("table", { name: "Contents of Inbox" }).locator("tbody tr td:nth-child(2) a");
    // The visible names, without the (aria-hidden) icon ligatures.
    const names = () => nameLinks.evaluateAll((links) => links.map((link) => [...link.children].filter((child) => !child.hasAttribute("aria-hidden")).map((child) => child.textContent).join("")));
    await expect.poll(names).toEqual(["alpha.txt", "beta.txt", "gamma.txt", "pixel.png"]);

    // Sorting by size, then reversing the direction.
    await page.getByRole("combobox", { name: "Sort by" }).click();
    await page.getByRole("option", { name: "Size", exact: true }).click();
    await expect.poll(names).toEqual(["alpha.txt", "pixel.png", "gamma.txt", "beta.txt"]);
    await page.getByRole("link", { name: "Sort descending" }).click();
    await expect.poll(names).toEqual(["beta.txt", "gamma.txt", "pixel.png", "alpha.txt"]);

    // Search by name across the space.
    await page.getByRole("searchbox", { name: "Search by name" }).fill("gam");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("status")).toContainText("Results for “gam”");
    await expect.poll(names).toEqual(["gamma.txt"]);
    await page.getByRole("link", { name: "Clear search" }).click();

    // Multi-select counts what is chosen.
    await page.getByRole("checkbox", { name: "Select alpha.txt" }).check();
    await page.getByRole("checkbox", { name: "Select beta.txt" }).check();
    await expect(page.getByText("2 selected")).toBeVisible();

    // Grid view shows the image as a thumbnail; the gallery shows only images and videos.
    await page.getByRole("link", { name: "Grid" }).click();
    await expect(page.getByRole("list", { name: "Folder contents" }).getByRole("link", { name: /pixel\.png/ })).toBeVisible();
    await page.getByRole("link", { name: "Gallery" }).click();
    await expect(page).toHaveTitle("Inbox gallery - Strongroom");
    const tile = page.getByRole("list", { name: "Images and videos" }).getByRole("button", { name: "View pixel.png" });
    const picture = tile.locator("img");
    await expect(picture).toBeVisible();
    // Its thumbnail (made by a job after the upload; tried again after 1 s while it is being made), loaded.
    await expect(picture).toHaveAttribute("src", /\/api\/files\/[^/]+\/image\/thumb/);
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), { timeout: 10_000 }).toBe(true);
    // Ticked, it downloads as a zip of the chosen pictures.
    await page.getByRole("checkbox", { name: "Select pixel.png" }).check();
    await expect(page.getByText("1 selected")).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download it as a zip" }).click()]);
    expect(download.suggestedFilename()).toBe("Inbox (1 file).zip");
    // The photo viewer: its counter, its screen-size picture, rotate and flip, Escape closes.
    await tile.click();
    const viewer = page.getByRole("dialog", { name: "Photo viewer: pixel.png" });
    await expect(viewer.getByTestId("viewer-counter")).toHaveText("1 / 1");
    const shown = viewer.getByRole("img", { name: "pixel.png" });
    await expect(shown).toHaveAttribute("src", /\/image\/screen/);
    await viewer.getByRole("button", { name: "Rotate right" }).click();
    await viewer.getByRole("button", { name: "Flip horizontally" }).click();
    await expect(shown).toHaveAttribute("style", /rotate\(90deg\) scale\(-1, 1\)/);
    await page.keyboard.press("Escape");
    await expect(viewer).toBeHidden();

    // The global inbox gathers the inboxes of every space the member can open.
    await gotoHydrated(page, "/folders/global-inbox");
    await expect(page).toHaveTitle("Global inbox - Strongroom");
    await expect(page.getByRole("link", { name: "alpha.txt" })).toBeVisible();

    // Someone else, signed in on the same browser, gets the not-found page for this member's inbox.
    const { inbox: ownInbox } = await defaultFolders(page);
    await signedInMember(page);
    const response = await page.goto(`/folders/${ownInbox}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("This folder does not exist or you don't have access to it.")).toBeVisible();
  });
});
