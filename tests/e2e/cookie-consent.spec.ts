import { expect, test, waitForHydration } from "./fixtures";

test.describe("the cookie consent banner", () => {
  test("asks a first-time visitor, and 'I Accept' stores full consent for 365 days", async ({ freshPage: page }) => {
    await page.goto("/");
    const banner = page.getByRole("region", { name: "Cookie consent" });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
    await waitForHydration(page);
    const before = Date.now() / 1000;
    await banner.getByRole("button", { name: "I Accept" }).click();
    await expect(banner).toBeHidden();

    const cookie = (await page.context().cookies()).find((c) => c.name === "dataroom_cookie_consent");
    expect(cookie).toMatchObject({ value: "full", path: "/", sameSite: "Lax", secure: false, httpOnly: false });
    const days = (cookie!.expires - before) / 86400;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThan(365.1);

    await page.reload();
    await expect(page.getByRole("region", { name: "Cookie consent" })).toHaveCount(0);
  });

  test("'Essential Cookies Only' stores essential consent", async ({ freshPage: page }) => {
    await page.goto("/privacy-policy");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Essential Cookies Only" }).click();
    const cookie = (await page.context().cookies()).find((c) => c.name === "dataroom_cookie_consent");
    expect(cookie?.value).toBe("essential");
  });

  test("the banner's buttons work from the keyboard", async ({ freshPage: page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("button", { name: "I Accept" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("region", { name: "Cookie consent" })).toBeHidden();
  });

  test("the Privacy Policy page is real and lists the cookies we set", async ({ page }) => {
    await page.goto("/privacy-policy");
    await expect(page.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();
    for (const cookie of ["strongroom_session", "strongroom_csrf", "strongroom_toast", "dataroom_cookie_consent"]) {
      await expect(page.getByRole("cell", { name: new RegExp(`^${cookie}\\b`) })).toBeVisible();
    }
  });
});
