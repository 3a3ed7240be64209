import { readFile } from "node:fs/promises";
import { createMember, expect, gotoHydrated, test } from "./fixtures";
import { authCheck, INVALID_CREDENTIALS, signOutButton, submitSignIn } from "./auth-helpers";

test.describe("personal data", () => {
  test("a member downloads a zip of their data, then deletes the account and can no longer sign in", async ({ page }) => {
    const member = await createMember(page.request, { tier: "free" });
    await gotoHydrated(page, "/profile/data");
    await expect(page).toHaveTitle("Your Data - Strongroom");

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download my data" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^strongroom-data-\d{4}-\d{2}-\d{2}\.zip$/);
    // client-zip stores files uncompressed: the names and the JSON text are in the bytes as they are.
    const zip = await readFile(await download.path());
    expect(zip.subarray(0, 4).toString("binary")).toBe("PK\x03\x04");
    const bytes = zip.toString("utf8");
    expect(bytes).toContain("profile.json");
    expect(bytes).toContain("README.txt");
    expect(bytes).toContain(`"${member.email}"`);
    await expect(page).toHaveURL(/\/profile\/data$/);

    // A wrong password is refused and nothing is deleted.
    await page.getByLabel("Password").fill(`${member.password}-wrong`);
    await page.getByLabel("Type DELETE to confirm").fill("DELETE");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByText("That password is not correct.").first()).toBeVisible();
    expect(await authCheck(page)).toMatchObject({ authenticated: true });

    await page.getByLabel("Password").fill(member.password);
    await page.getByLabel("Type DELETE to confirm").fill("DELETE");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    await expect(page.locator(".Toastify__toast").filter({ hasText: "Your account has been deleted." })).toBeVisible();
    await expect(signOutButton(page)).toBeHidden();
    expect(await authCheck(page)).toMatchObject({ authenticated: false });

    await submitSignIn(page, member);
    await expect(page.getByRole("alert").filter({ hasText: INVALID_CREDENTIALS })).toBeVisible();
  });
});
