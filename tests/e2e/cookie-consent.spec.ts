import { preloadAxe, seriousViolations } from "./axe-helpers";
import { expect, test, waitForHydration } from "./fixtures";

test.describe("the cookie consent banner", () => {
  test("a first-time visitor is asked (an accessible banner): 'Essential Cookies Only' from the keyboard stores essential consent; asked again, 'I Accept' stores full consent for 365 days and the banner stays away", async ({ freshPage: page }) => {
    await preloadAxe(page);
    await page.goto("/");
    const banner = page.getByRole("region", { name: "Cookie consent" });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
    await waitForHydration(page);
    expect(await seriousViolations(page)).toEqual([]);
    const consent = async () => (await page.context().cookies()).find((c) => c.name === "dataroom_cookie_consent");

    await banner.getByRole("button", { name: "Essential Cookies Only" }).focus();
    await page.keyboard.press("Enter");
    await expect(banner).toBeHidden();
    expect((await consent())?.value).toBe("essential");

    await page.context().clearCookies();
    await page.goto("/privacy-policy");
    await waitForHydration(page);
    await expect(banner).toBeVisible();
    const before = Date.now() / 1000;
    await banner.getByRole("button", { name: "I Accept" }).click();
    await expect(banner).toBeHidden();
    const cookie = await consent();
    expect(cookie).toMatchObject({ value: "full", path: "/", sameSite: "Lax", secure: false, httpOnly: false });
    const days = (cookie!.expires - before) / 86400;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThan(365.1);

    await page.reload();
    await expect(page.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();
    await expect(page.getByRole("region", { name: "Cookie consent" })).toHaveCount(0);
    // The policy the banner links to is real and lists the cookies we set.
    for (const name of ["strongroom_session", "strongroom_csrf", "strongroom_toast", "dataroom_cookie_consent"]) {
      await expect(page.getByRole("cell", { name: new RegExp(`^${name}\\b`) })).toBeVisible();
    }
  });
});
