import { expect, gotoHydrated, test, waitForHydration } from "./fixtures";

test.describe("the page shell", () => {
  test("every page has a title of the form '<Page> - Strongroom'", async ({ page }) => {
    for (const [path, title] of [
      ["/", "Home - Strongroom"],
      ["/privacy-policy", "Privacy Policy - Strongroom"],
      ["/ui", "Interface kit - Strongroom"],
      ["/no/such/page", "Page not found - Strongroom"],
    ] as const) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    }
  });

  test("an unknown address shows a helpful not-found page with a way home and a 404 status", async ({ page }) => {
    const response = await page.goto("/definitely-not-here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "We couldn't find that page" })).toBeVisible();
    await waitForHydration(page);
    await page.getByRole("link", { name: "Go to the home page" }).click();
    await expect(page).toHaveTitle("Home - Strongroom");
  });

  test("every page, anonymous ones included, carries a CSRF token in a meta tag", async ({ page }) => {
    for (const path of ["/", "/privacy-policy", "/no-such-page"]) {
      await page.goto(path);
      await expect(page.locator('meta[name="csrf-token"]')).toHaveAttribute("content", /^[A-Za-z0-9_-]{40,}$/);
    }
  });

  test("on a narrow screen the navigation folds behind a Menu button", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await gotoHydrated(page, "/");
    const nav = page.getByRole("navigation", { name: "Primary" });
    await expect(nav).toBeHidden();
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(nav).toBeVisible();
    await nav.getByRole("link", { name: "Privacy" }).click();
    await expect(page).toHaveTitle("Privacy Policy - Strongroom");
  });

  test("pages load with no console errors, CSP violations or hydration mismatches", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    for (const path of ["/", "/privacy-policy", "/ui"]) await gotoHydrated(page, path);
    expect(problems).toEqual([]);
  });
});
