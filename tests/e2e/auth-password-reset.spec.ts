import { expect, gotoHydrated, test } from "./fixtures";
import { INVALID_CREDENTIALS, readLatestMail, registerAndVerify, signIn, signOut, signOutButton, submitSignIn } from "./auth-helpers";

test.describe("forgotten passwords", () => {
  test("a member resets a forgotten password from the e-mailed link (an unknown address is answered exactly alike); the old password stops working, the link works once, and no page with a token in its address sends it on as a Referer", async ({ page }) => {
    const token = "A".repeat(43);
    for (const path of [`/reset-password?token=${token}`, `/verify-email?token=${token}`, `/settings/account/confirm-email?token=${token}`]) {
      const response = await page.goto(path);
      expect(response?.headers()["referrer-policy"], path).toBe("no-referrer");
    }
    const ordinary = await page.goto("/login");
    expect(ordinary?.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");

    const member = await registerAndVerify(page);
    await signOut(page);

    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.waitForURL((url) => url.pathname === "/forgot-password");
    await expect(page).toHaveTitle("Forgot Password - Strongroom");
    const unknown = `${crypto.randomUUID()}@example.com`;
    await page.getByLabel("E-mail address").fill(unknown);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: `If an account exists for ${unknown}` })).toBeVisible();
    await gotoHydrated(page, "/forgot-password");
    await page.getByLabel("E-mail address").fill(member.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: `If an account exists for ${member.email}` })).toBeVisible();

    const mail = await readLatestMail(page, member.email, /^Reset your password$/);
    expect(mail.link).toMatch(/^\/reset-password\?token=/);
    await gotoHydrated(page, mail.link!);
    await expect(page).toHaveTitle("Reset Password - Strongroom");
    const newPassword = `a brand new passphrase ${crypto.randomUUID().slice(0, 6)}`;
    await page.getByLabel("New password").fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL((url) => url.pathname === "/auth/success");
    await expect(page.getByRole("heading", { name: "Password changed" })).toBeVisible();
    await expect(signOutButton(page)).toBeHidden();

    // The link is spent.
    await gotoHydrated(page, mail.link!);
    await expect(page.getByRole("heading", { name: "This link has expired" })).toBeVisible();
    await expect(page.getByLabel("New password")).toHaveCount(0);

    await submitSignIn(page, member);
    await expect(page.getByRole("alert").filter({ hasText: INVALID_CREDENTIALS })).toBeVisible();
    await signIn(page, { email: member.email, password: newPassword });
  });
});
