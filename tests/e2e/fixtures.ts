import { test as base, expect, type Locator, type Page } from "@playwright/test";

/**
 * Shared e2e fixtures. `page` starts with cookie consent already given (so the banner does not
 * cover the page); `freshPage` is a first-time visitor in a context of its own.
 */
export const test = base.extend<{ freshPage: Page }>({
  page: async ({ page, baseURL }, use) => {
    await page.context().addCookies([{ name: "dataroom_cookie_consent", value: "essential", url: baseURL! }]);
    await use(page);
  },
  freshPage: async ({ browser }, use) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await use(page);
    await context.close();
  },
});

/**
 * Waits until React has hydrated the page (the root sets data-hydrated on <html>). A readiness
 * wait, not a speed assertion: page speed is measured by `npm run bench`.
 */
export async function gotoHydrated(page: Page, path: string) {
  await page.goto(path);
  await waitForHydration(page);
}

export async function waitForHydration(page: Page) {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1, { timeout: 20_000 });
}

export { expect };

/** Picks an option of a kit <Select> (a Radix listbox in a portal, not a native select). */
export async function chooseOption(scope: Page | Locator, label: string, option: string) {
  const page = "page" in scope ? scope.page() : scope;
  await scope.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect(scope.getByRole("combobox", { name: label })).toHaveText(option);
}
