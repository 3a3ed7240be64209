import type { Page } from "@playwright/test";
import { readdirSync, readFileSync } from "node:fs";
import { makePdf } from "../../scripts/bench/pdf-fixture.mjs";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";
import { expect, gotoHydrated, test, waitForHydration } from "./fixtures";

/** The title of the newest release note (app/content/whats-new: named by date, newest last), which the page shows first. */
function newestReleaseTitle(): string {
  const newest = readdirSync("app/content/whats-new").filter((name) => name.endsWith(".md")).sort().at(-1)!;
  return /^title: (.+)$/m.exec(readFileSync(`app/content/whats-new/${newest}`, "utf8"))![1]!.trim();
}

/**
 * The workspace (issue 36): a member moves between the product's pages by the sidebar (folded and
 * remembered), by the drawer on a phone, and through a room by its tabs.
 */

const sidebar = (page: Page) => page.getByTestId("sidebar").getByRole("navigation", { name: "Workspace" });
const roomTabs = (page: Page) => page.getByRole("navigation", { name: "Data room sections" });

test.describe("the workspace", () => {
  test("a member opens the home page and lands on the dashboard with its welcome checklist, reorders its widgets and finds the order after a reload, reads what's new from its dot, finds a help article by a word in it, and hides the checklist", async ({ page, member }) => {
    await gotoHydrated(page, "/");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page).toHaveTitle("Dashboard - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page.getByText(`Welcome back, ${member.name}.`)).toBeVisible();
    await expect(page.getByTestId("welcome-card")).toContainText("Get started: 1 of 5 done");
    await expect(page.getByTestId("welcome-step").filter({ hasText: "Confirm your e-mail address" })).toHaveAttribute("data-done", "true");
    const widgets = page.getByTestId("widget");
    await expect(widgets).toHaveCount(7);
    // Each widget arrives on its own; an empty one says what to do next.
    await expect(page.getByText("Nothing needs you right now.")).toBeVisible();
    await expect(page.getByText("No files yet.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Storage" }).getByRole("progressbar")).toBeVisible();

    await page.getByRole("link", { name: "Choose and order widgets" }).click();
    await expect(page).toHaveTitle("Dashboard settings - Strongroom");
    // Drag and drop by keyboard: Space picks Storage up, the up arrow moves it, Space drops it.
    const saved = page.waitForResponse((response) => response.url().includes("/settings/dashboard") && response.request().method() === "POST");
    await page.getByRole("button", { name: "Drag Storage" }).focus();
    const announced = (text: string) => expect(page.getByRole("status").filter({ hasText: text })).toHaveCount(1);
    await page.keyboard.press("Space");
    await announced("Storage moved to position 6 of 7.");
    // dnd-kit's keyboard sensor starts listening for the arrow keys in a timer it sets when the drag
    // starts (before this announcement); a timer set now runs after it, so the key is not lost.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await page.keyboard.press("ArrowUp");
    await announced("Storage moved to position 5 of 7.");
    await page.keyboard.press("Space");
    await announced("Storage dropped at position 5 of 7.");
    expect((await saved).status()).toBe(200);
    await expect(page.getByTestId("layout-widget").nth(4)).toHaveAttribute("data-widget", "storage");
    await page.getByRole("button", { name: "Remove Quick actions" }).click();
    await expect(page.getByRole("button", { name: "Add Quick actions" })).toBeVisible();

    await sidebar(page).getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveTitle("Dashboard - Strongroom");
    await page.reload();
    await waitForHydration(page);
    await expect(widgets).toHaveCount(6);
    expect(await widgets.evaluateAll((items) => items.map((item) => item.getAttribute("data-widget")))).toEqual(["attention", "recent-files", "rooms", "storage", "share-views", "form-submissions"]);

    await expect(page.getByTestId("sidebar").getByTestId("nav-dot-whats-new")).toBeVisible();
    await sidebar(page).getByRole("link", { name: /^What's new.*new release notes$/ }).click();
    await expect(page).toHaveTitle("What's new - Strongroom");
    await expect(page.getByTestId("release").first()).toContainText(newestReleaseTitle());
    await expect(page.getByTestId("sidebar").getByTestId("nav-dot-whats-new")).toHaveCount(0);

    await sidebar(page).getByRole("link", { name: "Help" }).click();
    await expect(page).toHaveTitle("Help - Strongroom");
    await page.getByRole("searchbox", { name: "Search the help" }).fill("watermark");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("help-article")).toHaveCount(3);
    await page.getByTestId("help-article").getByRole("link", { name: "Data rooms" }).click();
    await expect(page).toHaveTitle("Data rooms - Help - Strongroom");
    await expect(page.getByRole("heading", { name: "The audit log" })).toBeVisible();

    await gotoHydrated(page, "/dashboard");
    await page.getByTestId("welcome-card").getByRole("button", { name: "Hide" }).click();
    await expect(page.getByTestId("welcome-card")).toHaveCount(0);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByTestId("widget").first()).toBeVisible();
    await expect(page.getByTestId("welcome-card")).toHaveCount(0);
  });

  test("a member moves between pages by the sidebar, folds it, and finds it folded after a reload", async ({ page, member }) => {
    await gotoHydrated(page, "/folders");
    await expect(sidebar(page).getByRole("link", { name: "All folders" })).toHaveAttribute("aria-current", "page");
    // Developer tools are not part of a member's navigation.
    await expect(sidebar(page).getByRole("link", { name: "Interface kit" })).toHaveCount(0);

    await sidebar(page).getByRole("link", { name: "Share links" }).click();
    await expect(page).toHaveTitle("Share links - Strongroom");
    await expect(sidebar(page).getByRole("link", { name: "Share links" })).toHaveAttribute("aria-current", "page");
    await sidebar(page).getByRole("link", { name: "Archived rooms" }).click();
    await expect(page).toHaveTitle("Archived data rooms - Strongroom");
    await expect(page.getByText("No archived data room.")).toBeVisible();

    const saved = page.waitForResponse((response) => response.url().endsWith("/api/workspace/preferences") && response.request().method() === "PATCH");
    await page.getByRole("button", { name: "Collapse navigation" }).click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByTestId("sidebar")).toHaveAttribute("data-collapsed", "true");
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByTestId("sidebar")).toHaveAttribute("data-collapsed", "true");
    // Folded, the items keep their names.
    await sidebar(page).getByRole("link", { name: "Trash" }).click();
    await expect(page).toHaveTitle("Trash - Strongroom");
    // The account stays in the top bar, beside the page.
    await expect(page.getByRole("banner")).toContainText(member.name);
  });

  test("on a phone the navigation is a drawer: Escape closes it, a link takes the member there, nothing scrolls sideways", async ({ sharedPage: page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await gotoHydrated(page, "/folders");
    await expect(page.getByTestId("sidebar")).toBeHidden();
    const menu = page.getByRole("button", { name: "Menu" });
    await menu.click();
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    await expect(drawer).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();

    await menu.click();
    await drawer.getByRole("link", { name: "Receive pages" }).click();
    await expect(page).toHaveTitle("Receive pages - Strongroom");
    await expect(drawer).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Search on a phone: the magnifying glass (or Ctrl-K) opens the same box in a dialog.
    await page.keyboard.press("Control+k");
    const search = page.getByRole("dialog", { name: "Search" });
    await expect(search.getByRole("combobox", { name: "Search Strongroom" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(search).toBeHidden();
    await page.getByRole("button", { name: "Search" }).click();
    await search.getByRole("combobox", { name: "Search Strongroom" }).fill("receive");
    await search.getByRole("combobox", { name: "Search Strongroom" }).press("Enter");
    await expect(page).toHaveTitle("Search - Strongroom");
    await expect(search).toBeHidden();
  });

  test("a room's owner moves through it by its tabs and their pages", async ({ page, member }) => {
    await gotoHydrated(page, "/datarooms");
    const created = await page.request.post("/api/datarooms", { data: { name: "Project Heron" }, headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" } });
    expect(created.status(), await created.text()).toBe(201);
    const roomId = ((await created.json()) as { dataroom: { id: string } }).dataroom.id;

    await gotoHydrated(page, `/dataroom/${roomId}`);
    await expect(page.getByTestId("room-header")).toContainText("Project Heron");
    await expect(page.getByTestId("room-header")).toContainText("Owner");
    await expect(roomTabs(page).getByRole("link")).toHaveText(["Files", "People", "Sharing", "Activity", "Analytics", "Settings"]);
    await expect(roomTabs(page).getByRole("link", { name: "Files" })).toHaveAttribute("aria-current", "page");
    // The room is where the sidebar's "Data rooms" leads.
    await expect(sidebar(page).getByRole("link", { name: "Data rooms", exact: true })).toHaveAttribute("aria-current", "page");

    await roomTabs(page).getByRole("link", { name: "People" }).click();
    await expect(page).toHaveTitle("People of Project Heron - Strongroom");
    await expect(roomTabs(page).getByRole("link", { name: "People" })).toHaveAttribute("aria-current", "page");
    await page.getByRole("navigation", { name: "People pages" }).getByRole("link", { name: "Sessions" }).click();
    await expect(page).toHaveTitle("Sessions of Project Heron - Strongroom");
    await expect(page.getByRole("navigation", { name: "Data room breadcrumb" })).toContainText("Data rooms/Project Heron/Sessions");

    await roomTabs(page).getByRole("link", { name: "Activity" }).click();
    await expect(page).toHaveTitle("Activities of Project Heron - Strongroom");
    await page.getByRole("navigation", { name: "Activity pages" }).getByRole("link", { name: "Comments" }).click();
    await expect(page).toHaveTitle("Comments of Project Heron - Strongroom");
    await expect(roomTabs(page).getByRole("link", { name: "Activity" })).toHaveAttribute("aria-current", "page");

    await roomTabs(page).getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveTitle("Data room profile - Strongroom");
    await page.getByRole("navigation", { name: "Settings pages" }).getByRole("link", { name: "General" }).click();
    await expect(page).toHaveTitle("Settings of Project Heron - Strongroom");
    // Back to the files from the path above the tabs.
    await page.getByRole("navigation", { name: "Data room breadcrumb" }).getByRole("link", { name: "Project Heron" }).click();
    await expect(page).toHaveTitle("Project Heron - Strongroom");
    await expect(page.getByRole("banner")).toContainText(member.name);
    // The header's search looks in this room only.
    await page.getByRole("searchbox", { name: "Search this data room" }).fill("heron");
    await page.getByRole("searchbox", { name: "Search this data room" }).press("Enter");
    await expect(page).toHaveTitle("Search - Strongroom");
    await expect(page.getByLabel("Place")).toHaveValue(roomId);
  });

  test("a member searches a word that appears only inside a PDF, from the shell's box and the search page, and opens it", async ({ page, member }) => {
    void member;
    await gotoHydrated(page, "/folders");
    const { inbox } = await defaultFolders(page);
    const body = makePdf({ pages: 2, text: "The Zanzibar clause survives termination." });
    const fileId = await uploadViaTus(page.request, { folderId: inbox, name: "Board minutes.pdf", body, csrf: await csrfToken(page) });
    // The text is read by a background job after the upload.
    await expect.poll(async () => ((await (await page.request.get("/api/search?q=zanzibar")).json()) as { hits: unknown[] }).hits.length, { timeout: 20_000 }).toBe(1);

    // Ctrl-K from any page puts the member in the shell's box; suggestions come as they type.
    await gotoHydrated(page, "/dashboard");
    await page.keyboard.press("Control+k");
    const box = page.getByRole("combobox", { name: "Search Strongroom" });
    await expect(box).toBeFocused();
    await box.fill("zanzib");
    const suggestion = page.getByRole("option", { name: /Board minutes\.pdf/ });
    await expect(suggestion).toContainText("The Zanzibar clause");
    await expect(suggestion.locator("mark")).toHaveText("Zanzibar");
    await box.press("ArrowDown");
    await expect(suggestion).toHaveAttribute("aria-selected", "true");
    await box.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/files/${fileId}$`));
    await expect(page).toHaveTitle("Board minutes.pdf - Strongroom");

    // Enter without choosing opens the search page, with its filters in the address.
    await box.fill("zanzibar");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=zanzibar$/);
    await expect(page).toHaveTitle("Search - Strongroom");
    await expect(page.getByRole("heading", { name: "1 result for “zanzibar”" })).toBeVisible();
    await page.getByLabel("Kind").selectOption("folder");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText("Nothing you can open matches “zanzibar”.")).toBeVisible();
    await page.getByRole("link", { name: "search everywhere" }).click();
    await page.getByTestId("search-result").getByRole("link", { name: "Board minutes.pdf" }).click();
    await expect(page).toHaveTitle("Board minutes.pdf - Strongroom");
  });
});
