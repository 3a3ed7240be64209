import { solidPng } from "../../scripts/bench/png-fixture.mjs";
import { newConsentedContext } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/**
 * One-time secrets (issue 23): a member seals a text secret in the browser, a visitor in another
 * browser reveals it once (the reload says it was viewed), a passphrase secret refuses the wrong
 * passphrase, and the owner's receipt shows the views.
 */

test.describe("secrets", () => {
  test("a text secret is revealed once in another browser, a passphrase secret refuses the wrong passphrase, the receipts show it, and a file secret is sealed in the browser, downloaded in the other once, then gone", async ({ page, browser, baseURL }) => {
    test.setTimeout(90_000);
    await createMember(page.request, { tier: "pro" });

    // A one-view secret.
    await gotoHydrated(page, "/secrets/new");
    await expect(page).toHaveTitle("New secret - Strongroom");
    await page.getByRole("textbox", { name: "Secret", exact: true }).fill("wifi: Strongroom-Guest / pass: tangerine-42");
    await page.getByLabel("Label (optional)").fill("Office wifi");
    await page.getByRole("button", { name: "Create secret" }).click();
    const link = await page.getByTestId("secret-link").inputValue();
    expect(link).toMatch(/\/secret\/[A-Za-z0-9_-]{43}#[A-Za-z0-9_-]{43}$/);
    expect(await seriousViolations(page)).toEqual([]);

    // A visitor: the interstitial, then Reveal; a reload says it was viewed.
    const visitor = await newConsentedContext(browser, baseURL!);
    const other = await visitor.newPage();
    await gotoHydrated(other, link);
    await expect(other).toHaveTitle("Secret - Strongroom");
    await expect(other.getByRole("heading", { name: "Someone shared a secret with you" })).toBeVisible();
    await expect(other.locator("[data-testid=secret-reveal][data-ready]")).toBeVisible();
    expect(await seriousViolations(other)).toEqual([]);
    await other.getByRole("button", { name: "Reveal secret" }).click();
    await expect(other.getByTestId("secret-text")).toHaveText("wifi: Strongroom-Guest / pass: tangerine-42");
    await expect(other.getByTestId("secret-shown")).toContainText("This was its last view");
    expect(other.url()).not.toContain("#");
    await other.reload();
    await expect(other).toHaveTitle("Secret already viewed - Strongroom");
    await expect(other.getByTestId("secret-ended")).toContainText("already been viewed");

    // The owner's list and receipt.
    await gotoHydrated(page, "/secrets");
    const row = page.getByTestId("secret-row").filter({ hasText: "Office wifi" });
    await expect(row).toContainText("Viewed");
    await expect(row).toContainText("1 of 1");
    await row.getByRole("link", { name: "Office wifi" }).click();
    await expect(page).toHaveTitle("Secret Office wifi - Strongroom");
    await expect(page.getByTestId("secret-events")).toContainText("Viewed (1 of 1)");

    // A passphrase secret: the wrong passphrase is refused (with the attempts left), the right one opens it.
    await gotoHydrated(page, "/secrets/new");
    await page.getByRole("textbox", { name: "Secret", exact: true }).fill("API key sk_live_51Hc");
    await page.getByLabel("Passphrase (optional)").fill("blue whale");
    await page.getByLabel("Views").fill("2");
    await page.getByRole("button", { name: "Create secret" }).click();
    const guarded = await page.getByTestId("secret-link").inputValue();
    await gotoHydrated(other, guarded);
    await expect(other.locator("[data-testid=secret-reveal][data-ready]")).toBeVisible();
    await other.getByRole("textbox", { name: "Passphrase" }).fill("red whale");
    await other.getByRole("button", { name: "Reveal secret" }).click();
    await expect(other.getByRole("alert")).toContainText("The passphrase is wrong. 4 attempts left before the secret is burned.");
    await other.getByRole("textbox", { name: "Passphrase" }).fill("blue whale");
    await other.getByRole("button", { name: "Reveal secret" }).click();
    await expect(other.getByTestId("secret-text")).toHaveText("API key sk_live_51Hc");
    await expect(other.getByTestId("secret-shown")).toContainText("It can be viewed 1 more time.");

    // The owner burns what is left.
    await gotoHydrated(page, "/secrets");
    await page.getByTestId("secret-row").first().getByRole("link").click();
    await expect(page.getByTestId("secret-facts")).toContainText("Wrong attempts1");
    await page.getByRole("button", { name: "Burn now" }).click();
    await expect(page.getByTestId("secret-events")).toContainText("Burned (by you)");

    // A file secret: sealed and uploaded in the browser, revealed and downloaded in the visitor's, then gone.
    await gotoHydrated(page, "/secrets/new");
    const contract = Buffer.from(Array.from({ length: 300_000 }, (_, index) => String.fromCharCode(65 + (index % 26))).join(""));
    await page.getByRole("textbox", { name: "Secret", exact: true }).fill("The signed contract, as promised.");
    await page.getByLabel("Files (optional)").setInputFiles([
      { name: "contract.txt", mimeType: "text/plain", buffer: contract },
      { name: "site.png", mimeType: "image/png", buffer: solidPng(60, 40, [30, 120, 200]) },
    ]);
    await expect(page.getByTestId("secret-files")).toContainText("contract.txt");
    await expect(page.getByTestId("secret-files")).toContainText("site.png");
    await page.getByRole("button", { name: "Create secret" }).click();
    const fileLink = await page.getByTestId("secret-link").inputValue();
    await gotoHydrated(other, fileLink, { document: true });
    await expect(other.locator("[data-testid=secret-reveal][data-ready]")).toBeVisible();
    await expect(other.getByTestId("secret-reveal")).toContainText("It has 2 files.");
    await other.getByRole("button", { name: "Reveal secret" }).click();
    await expect(other.getByTestId("secret-text")).toHaveText("The signed contract, as promised.");
    const [download] = await Promise.all([other.waitForEvent("download"), other.getByRole("link", { name: "Download contract.txt" }).click()]);
    expect(download.suggestedFilename()).toBe("contract.txt");
    const saved = await download.path();
    const { readFile } = await import("node:fs/promises");
    expect((await readFile(saved)).equals(contract)).toBe(true);
    // A picture is shown from its opened bytes (the server never sees them); a text file is not.
    const preview = other.getByRole("img", { name: "Preview of site.png" });
    await expect(preview).toBeVisible();
    expect(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(60);
    await expect(other.getByRole("img", { name: "Preview of contract.txt" })).toHaveCount(0);
    await other.reload();
    await expect(other).toHaveTitle("Secret already viewed - Strongroom");
    await visitor.close();
  });

  test("a request for a secret: a visitor answers with text and a file in another browser, and only the member's passphrase opens them", async ({ page, browser, baseURL }) => {
    test.setTimeout(90_000);
    await createMember(page.request, { tier: "pro", name: "Rhea Requester" });
    await gotoHydrated(page, "/secrets/requests/new");
    await expect(page).toHaveTitle("Request a secret - Strongroom");
    await page.getByRole("textbox", { name: "What are you asking for?" }).fill("The production SFTP password, please.");
    await page.getByLabel("Label (optional)").fill("SFTP");
    await page.getByRole("textbox", { name: "Passphrase", exact: true }).fill("copper kettle 88");
    await page.getByRole("textbox", { name: "Passphrase again" }).fill("copper kettle 88");
    await page.getByRole("button", { name: "Create request" }).click();
    await expect(page).toHaveTitle("Request SFTP - Strongroom");
    expect(await seriousViolations(page)).toEqual([]);
    const link = await page.getByTestId("request-link").inputValue();
    expect(link).toMatch(/\/secret-request\/[A-Za-z0-9_-]{43}$/);

    const visitor = await newConsentedContext(browser, baseURL!);
    const other = await visitor.newPage();
    await gotoHydrated(other, link);
    await expect(other.getByRole("heading", { name: "Rhea Requester asks you for a secret" })).toBeVisible();
    await expect(other.getByTestId("request-message")).toHaveText("The production SFTP password, please.");
    await expect(other.locator("[data-testid=answer-form][data-ready]")).toBeVisible();
    expect(await seriousViolations(other)).toEqual([]);
    await other.getByRole("textbox", { name: "Your answer" }).fill("sftp-prod: Q7!harbour-lights");
    const key = Buffer.from("-----BEGIN OPENSSH PRIVATE KEY-----\n" + "b3BlbnNzaC1rZXktdjEAAAAA".repeat(4000) + "\n-----END OPENSSH PRIVATE KEY-----\n");
    await other.getByLabel("Files (optional)").setInputFiles([
      { name: "id_ed25519", mimeType: "application/octet-stream", buffer: key },
      { name: "badge.png", mimeType: "image/png", buffer: solidPng(48, 32, [200, 60, 40]) },
    ]);
    await other.getByRole("button", { name: "Send securely" }).click();
    await expect(other.getByText("Only Rhea Requester can open it.")).toBeVisible();
    await other.reload();
    await expect(other).toHaveTitle("Request answered - Strongroom");
    await visitor.close();

    // The member is notified, and opens the answer with the passphrase (a wrong one is refused).
    await gotoHydrated(page, "/notifications");
    // In the list (the live notice may still show too: the page was reached by the client router).
    await expect(page.getByRole("main").getByText("Someone answered your request “SFTP”")).toBeVisible();
    await gotoHydrated(page, "/secrets");
    await gotoHydrated(page, (await page.getByTestId("request-row").getByRole("link", { name: "SFTP" }).getAttribute("href"))!);
    await page.getByRole("textbox", { name: "Passphrase" }).fill("copper kettle 89");
    await page.getByRole("button", { name: "Open 1 answer" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("That passphrase does not open this request's answers.");
    await page.getByRole("textbox", { name: "Passphrase" }).fill("copper kettle 88");
    await page.getByRole("button", { name: "Open 1 answer" }).click();
    await expect(page.getByTestId("answer-text")).toHaveText("sftp-prod: Q7!harbour-lights");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download id_ed25519" }).click()]);
    expect(download.suggestedFilename()).toBe("id_ed25519");
    const { readFile } = await import("node:fs/promises");
    expect((await readFile(await download.path())).equals(key)).toBe(true);
    // A picture is shown here on asking, opened in this browser; the key file is not a picture.
    await expect(page.getByRole("button", { name: "Show id_ed25519" })).toHaveCount(0);
    await page.getByRole("button", { name: "Show badge.png" }).click();
    const preview = page.getByRole("img", { name: "Preview of badge.png" });
    await expect(preview).toBeVisible();
    expect(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(48);
  });
});
