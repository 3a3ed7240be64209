import { expect, gotoHydrated, test, waitForHydration } from "./fixtures";

test.describe("the page shell", () => {
  test("a visitor reads what Strongroom is on the landing page, follows it to the privacy policy, reads the showcase and is offered an account; on a phone the navigation folds behind a Menu button; an unknown address is a helpful 404 with a way home", async ({ page }) => {
    await gotoHydrated(page, "/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Strongroom keeps your data rooms, files, forms and signatures");
    await page.getByRole("main").getByRole("link", { name: "How we handle your data" }).click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    await expect(page.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();

    // Deciding whether to sign up: the showcase, then an account offered.
    await gotoHydrated(page, "/");
    await page.getByRole("link", { name: "See it in action" }).click();
    await expect(page).toHaveTitle("Showcase - Strongroom");
    await expect(page.getByRole("heading", { name: "What you get" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Create your account" }).click();
    await expect(page).toHaveTitle("Register - Strongroom");

    await page.setViewportSize({ width: 390, height: 800 });
    await gotoHydrated(page, "/");
    const nav = page.getByRole("navigation", { name: "Primary" });
    await expect(nav).toBeHidden();
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(nav).toBeVisible();
    await nav.getByRole("link", { name: "Privacy" }).click();
    await expect(page).toHaveTitle("Privacy Policy - Strongroom");

    const response = await page.goto("/definitely-not-here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "We couldn't find that page" })).toBeVisible();
    await waitForHydration(page);
    await page.getByRole("link", { name: "Go to the home page" }).click();
    await expect(page).toHaveTitle("Home - Strongroom");
  });
});
