import { expect, gotoHydrated, test } from "./fixtures";
import { authCheck, INVALID_CREDENTIALS, newMember, readLatestMail, registerAndVerify, signIn, signOut, signOutButton, SIGN_UP_TIMEOUT_MS, submitSignIn, submitSignUp } from "./auth-helpers";

test.describe("signing up and signing in", () => {
  test("a new member confirms the e-mailed link and is signed in; signing up again with their address looks the same and they are told by e-mail instead; signed out, an unknown address and a wrong password get the same refusal, and signing in brings them back to the page they asked for", async ({ page }) => {
    const member = await registerAndVerify(page);
    expect(await authCheck(page)).toMatchObject({ authenticated: true, requires_verification: false, user: { email: member.email } });

    await signOut(page);
    expect(await authCheck(page)).toMatchObject({ authenticated: false, user: null });

    await gotoHydrated(page, "/register");
    await page.getByLabel("Name").fill("Someone Else");
    await page.getByLabel("E-mail address").fill(member.email);
    await page.getByLabel("Password").fill("another password 123");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible({ timeout: SIGN_UP_TIMEOUT_MS });
    const mail = await readLatestMail(page, member.email, /^You already have a Strongroom account$/);
    expect(mail.link).toBe("/login");

    await page.goto("/settings");
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).search).toBe("?redirectTo=%2Fsettings");

    await submitSignIn(page, { email: `${crypto.randomUUID()}@example.com`, password: "not the password" });
    await expect(page.getByRole("alert").filter({ hasText: INVALID_CREDENTIALS })).toBeVisible();
    await expect(signOutButton(page)).toBeHidden();
    expect(await authCheck(page)).toMatchObject({ authenticated: false });
    await page.reload();
    await expect(page.getByRole("alert").filter({ hasText: INVALID_CREDENTIALS })).toHaveCount(0);
    await submitSignIn(page, { email: member.email, password: `${member.password}-wrong` });
    await expect(page.getByRole("alert").filter({ hasText: INVALID_CREDENTIALS })).toBeVisible();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);

    // The original password still works.
    await signIn(page, member);
    await page.waitForURL((url) => url.pathname === "/settings");
    await expect(page).toHaveTitle("Settings - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    expect(await authCheck(page)).toMatchObject({ authenticated: true, user: { email: member.email } });
  });

  test("someone who has not confirmed their address cannot sign in and is sent a new confirmation link", async ({ page }) => {
    const member = newMember();
    await submitSignUp(page, member);
    await expect(page.getByText(member.email)).toBeVisible();

    await submitSignIn(page, member);
    await expect(page.getByRole("alert").filter({ hasText: "Confirm your e-mail address first" })).toBeVisible();
    expect(await authCheck(page)).toMatchObject({ authenticated: false });

    // The newest link (sent on that sign-in attempt) confirms the address and signs the member in.
    const mail = await readLatestMail(page, member.email, /^Confirm your e-mail address$/);
    await gotoHydrated(page, mail.link!);
    await expect(page).toHaveTitle("Verify Email - Strongroom");
    await page.getByRole("button", { name: "Confirm my e-mail address" }).click();
    await expect(page.getByRole("heading", { name: "E-mail address confirmed" })).toBeVisible();
    await expect(signOutButton(page)).toBeVisible();
  });
});
