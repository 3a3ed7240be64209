import { createMember, expect, gotoHydrated, test } from "./fixtures";
import { newConsentedContext, signIn, signOutButton } from "./auth-helpers";

test.describe("sessions", () => {
  test("a member signs out a session on another device, and that device is sent to the sign-in page", async ({ page, browser, baseURL }) => {
    const member = await createMember(page.request, { tier: "free" });

    const otherDevice = await newConsentedContext(browser, baseURL!);
    try {
      const other = await otherDevice.newPage();
      await signIn(other, member);
      await gotoHydrated(other, "/settings");
      await expect(other).toHaveTitle("Settings - Strongroom");

      await gotoHydrated(page, "/settings/security");
      await expect(page).toHaveTitle("Security - Strongroom");
      const rows = page.getByTestId("session-row");
      await expect(rows).toHaveCount(2);
      await expect(rows.and(page.locator("[data-current='true']"))).toContainText("This device");
      const otherRow = rows.and(page.locator("[data-current='false']"));
      await otherRow.getByRole("button", { name: /^Sign out session/ }).click();
      await expect(page.locator(".Toastify__toast").filter({ hasText: "Session signed out." })).toBeVisible();
      await expect(rows).toHaveCount(1);
      await expect(page.getByText("You are signed in on this device only.")).toBeVisible();
      await expect(signOutButton(page)).toBeVisible();

      await other.goto("/settings");
      await other.waitForURL((url) => url.pathname === "/login");
      expect(new URL(other.url()).searchParams.get("redirectTo")).toBe("/settings");
      await expect(signOutButton(other)).toBeHidden();
    } finally {
      await otherDevice.close();
    }
  });
});
