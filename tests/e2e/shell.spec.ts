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

  test("pages load with no console errors, CSP violations, hydration mismatches or failed asset requests", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      // The not-found page answers 404 on purpose; Chromium logs that for the document itself.
      if (message.type() === "error" && /Failed to load resource: .* 404/.test(message.text()) && message.location().url.endsWith("/no-such-page")) return;
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("requestfailed", (request) => {
      // The next page.goto cancels what the previous page was still loading (lazy chunks, the route manifest).
      if (request.failure()?.errorText === "net::ERR_ABORTED") return;
      problems.push(`${request.url()} failed: ${request.failure()?.errorText}`);
    });
    page.on("response", (response) => {
      if (response.request().resourceType() !== "document" && response.status() >= 400) problems.push(`${response.url()} answered ${response.status()}`);
    });
    for (const path of ["/", "/privacy-policy", "/ui", "/no-such-page"]) await gotoHydrated(page, path);
    expect(problems).toEqual([]);
  });

  test("the landing page says what Strongroom is and links to the privacy policy", async ({ page }) => {
    await gotoHydrated(page, "/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Strongroom keeps your data rooms, files, forms and signatures");
    await page.getByRole("main").getByRole("link", { name: "How we handle your data" }).click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    await expect(page.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();
  });
});
