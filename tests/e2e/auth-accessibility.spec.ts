import type { Page } from "@playwright/test";
import { createMember, expect, test, waitForHydration } from "./fixtures";

/**
 * Every form control a person can reach has a label: a <label> of its own, aria-label or
 * aria-labelledby. Controls hidden from everyone (type=hidden, inside aria-hidden such as the
 * sign-up honeypot) are left out. Returns the unlabelled ones, described.
 */
async function unlabelledControls(page: Page): Promise<string[]> {
  return page.locator("main").evaluate((main) => {
    const textOf = (element: Element | null) => element?.textContent?.trim() ?? "";
    return Array.from(main.querySelectorAll("input, select, textarea"))
      .filter((control) => control.getAttribute("type") !== "hidden" && !control.closest("[aria-hidden='true']"))
      .filter((control) => {
        const labels = Array.from((control as Element & { labels: ArrayLike<Element> | null }).labels ?? []);
        const labelledBy = (control.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean);
        return (
          !labels.some((label) => textOf(label)) &&
          !control.getAttribute("aria-label")?.trim() &&
          !labelledBy.some((id) => textOf(document.getElementById(id)))
        );
      })
      .map((control) => `<${control.tagName.toLowerCase()} name="${control.getAttribute("name") ?? ""}">`);
  });
}

/** Titles and labels are in the server-rendered page: no need to wait for hydration. */
async function expectAccessibleFields(page: Page, path: string, title: string, labels: string[]) {
  await page.goto(path);
  await expect(page, `title of ${path}`).toHaveTitle(title);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  for (const label of labels) {
    // The label's text may end with the required-field star, which is hidden from screen readers.
    const field = page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\*?$`));
    await expect(field, `"${label}" on ${path}`).toBeVisible();
    await expect(field, `accessible name of "${label}" on ${path}`).toHaveAccessibleName(label);
  }
  expect(await unlabelledControls(page), `unlabelled fields on ${path}`).toEqual([]);
}

test.describe("accessibility basics of the account pages", () => {
  test("the sign-in, sign-up and recovery pages, then a member's settings and profile pages, have '<Page> - Strongroom' titles, one heading and a label on every field", async ({ page }) => {
    await expectAccessibleFields(page, "/login", "Login - Strongroom", ["E-mail address", "Password"]);
    await expectAccessibleFields(page, "/register", "Register - Strongroom", ["Name", "E-mail address", "Password"]);
    await expectAccessibleFields(page, "/forgot-password", "Forgot Password - Strongroom", ["E-mail address"]);
    // Without a valid token the reset page explains the link has expired (its form is checked in the reset spec).
    await expectAccessibleFields(page, "/reset-password?token=not-a-token", "Reset Password - Strongroom", []);
    await expectAccessibleFields(page, "/verify-email", "Verify Email - Strongroom", []);
    await expectAccessibleFields(page, "/auth/success?reason=password-reset", "Success - Strongroom", []);
    await expectAccessibleFields(page, "/auth/error?reason=link-invalid", "Error - Strongroom", []);

    // Signed in: the settings and profile pages.
    await createMember(page.request, { tier: "free" });
    await expectAccessibleFields(page, "/settings", "Settings - Strongroom", []);
    await expectAccessibleFields(page, "/settings/account", "Account Settings - Strongroom", [
      "Name",
      "New e-mail address",
      "Current password",
      "New password",
      "Sign out of all other sessions",
    ]);
    await expectAccessibleFields(page, "/settings/2fa", "Two-Factor Authentication - Strongroom", []);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Set up authenticator app" }).click();
    await expect(page.getByLabel("Code from the app")).toHaveAccessibleName("Code from the app");
    expect(await unlabelledControls(page)).toEqual([]);
    await expectAccessibleFields(page, "/settings/security", "Security - Strongroom", []);
    await expectAccessibleFields(page, "/settings/security-level", "Security Level - Strongroom", ["Require two-factor authentication to sign in"]);
    await expect(page.getByRole("radiogroup", { name: "Sign-in lasts" })).toBeVisible();
    await expectAccessibleFields(page, "/profile", "Edit Profile - Strongroom", ["Name", "E-mail address"]);
    await expectAccessibleFields(page, "/profile/activity", "Activity - Strongroom", []);
    await expectAccessibleFields(page, "/profile/data", "Your Data - Strongroom", ["Password", "Type DELETE to confirm"]);
    await expectAccessibleFields(page, "/confirm-password?redirectTo=%2Fsettings%2F2fa", "Confirm Password - Strongroom", ["Password"]);
  });
});
