import { PDFDocument, StandardFonts } from "pdf-lib";
import { newConsentedContext, readLatestMail } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";
import { signaturePng } from "../shared/signature-fixtures";

/**
 * E-signatures (issue 38): a member designs a template for two signers who sign in order,
 * saves a draft, edits and sends it; the first signs on a phone from the link in the dev mailbox with a picture of their
 * signature, the second gets the mail and draws; the member downloads the sealed PDF from the
 * envelope's page and checks it on the verify page.
 */

async function contract(): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < 2; index++) {
    const page = document.addPage([612, 792]);
    page.drawText(`Share purchase agreement, page ${index + 1}`, { x: 72, y: 720, size: 14, font });
  }
  return Buffer.from(await document.save());
}

test.describe("e-signatures", () => {
  test("a member designs a template for two signers in order and sends it; both sign from their e-mails (the first on a phone); the sealed PDF verifies", async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    const member = await createMember(page.request, { tier: "pro" });
    await gotoHydrated(page, "/signatures");
    await expect(page).toHaveTitle("Signatures - Strongroom");
    const { inbox } = await defaultFolders(page);
    await uploadViaTus(page.request, { csrf: await csrfToken(page), name: "Share purchase agreement.pdf", folderId: inbox, body: await contract() });
    await page.reload();
    const stamp = Date.now().toString(36);
    const [buyer, seller] = [`buyer.${stamp}@example.com`, `seller.${stamp}@example.com`];

    // The template: two roles and their fields on page 2; the second moved with the keyboard.
    await page.getByRole("link", { name: "Signature templates" }).click();
    await expect(page).toHaveTitle("Signature templates - Strongroom");
    await page.getByRole("button", { name: "Make a template from Share purchase agreement.pdf" }).click();
    await expect(page).toHaveTitle("Template: Share purchase agreement - Strongroom");
    await page.getByRole("textbox", { name: "Role 1" }).fill("Buyer");
    await page.getByRole("button", { name: "Add a role" }).click();
    await page.getByRole("textbox", { name: "Role 2" }).fill("Seller");
    await page.getByRole("button", { name: "Signature", exact: true }).click();
    await page.getByLabel("Add a field for").selectOption({ label: "Seller" });
    await page.getByRole("button", { name: "Signature", exact: true }).click();
    const sellerField = page.getByRole("button", { name: /^Signature for Seller, page 2/ });
    await expect(sellerField).toBeVisible();
    const before = await sellerField.boundingBox();
    await sellerField.focus();
    for (let step = 0; step < 3; step++) await page.keyboard.press("Shift+ArrowRight");
    await expect.poll(async () => (await sellerField.boundingBox())!.x).toBeGreaterThan(before!.x + 20);
    await page.getByRole("button", { name: "Date signed" }).click();
    await expect(page.getByText("All fields (3)")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Save the template" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();

    // Sending it: one person per role, one after another.
    await page.getByRole("link", { name: "Send from this template" }).click();
    await expect(page).toHaveTitle("Send for signature - Strongroom");
    await page.getByLabel("Buyer: name").fill("Bea Buyer");
    await page.getByLabel("Buyer: e-mail").fill(buyer);
    await page.getByLabel("One after another, in the order above").check();
    // A role left without a person is refused by the server, with the reason.
    await page.getByRole("button", { name: "Send for signature" }).click();
    await expect(page.getByText(/Enter each recipient's/)).toBeVisible();
    await page.getByLabel("Seller: name").fill("Sol Seller");
    await page.getByLabel("Seller: e-mail").fill(seller);
    // Kept as a draft first, opened again with everything as it was, given a message, then sent.
    await page.getByRole("button", { name: "Save as draft" }).click();
    await expect(page).toHaveURL(/\/signatures\/[0-9a-f-]{36}$/);
    await page.getByRole("link", { name: "Edit the draft" }).click();
    await expect(page).toHaveTitle("Edit draft - Strongroom");
    await expect(page.getByLabel("One after another, in the order above")).toBeChecked();
    await expect(page.getByLabel("E-mail 2")).toHaveValue(seller);
    await expect(page.getByText("All fields (3)")).toBeVisible();
    await page.getByLabel("Message (optional)").fill("Signed in order: buyer first.");
    await page.getByRole("button", { name: "Send for signature" }).click();
    await expect(page).toHaveURL(/\/signatures\/[0-9a-f-]{36}$/);
    await expect(page.getByText("Waiting for signatures")).toBeVisible();
    const envelopePath = new URL(page.url()).pathname;

    // The first signer, on a phone, from the link in the dev mailbox.
    const phone = await newConsentedContext(browser, baseURL!);
    const buyerPage = await phone.newPage();
    await buyerPage.setViewportSize({ width: 390, height: 844 });
    const firstMail = await readLatestMail(buyerPage, buyer, /asks you to sign/);
    expect(firstMail.link).toMatch(/^\/sign\/[A-Za-z0-9_-]{43}$/);
    expect(firstMail.text).toContain("Signed in order: buyer first.");
    await gotoHydrated(buyerPage, firstMail.link!);
    await expect(buyerPage).toHaveTitle("Sign “Share purchase agreement” - Strongroom");
    await expect(buyerPage.getByRole("heading", { name: "Your fields" })).toBeVisible();
    expect(await seriousViolations(buyerPage)).toEqual([]);
    const noSideways = await buyerPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
    expect(noSideways).toBe(true);
    // A photo of a handwritten signature, uploaded instead of drawing: it replaces the pad.
    await buyerPage.getByLabel("Or upload a picture of your signature (PNG or JPEG)").setInputFiles({ name: "my-signature.png", mimeType: "image/png", buffer: Buffer.from(await signaturePng(300, 100)) });
    await expect(buyerPage.getByRole("img", { name: "Your uploaded signature for Signature" })).toBeVisible();
    await expect(buyerPage.getByRole("img", { name: "Signature pad: draw your signature here" })).toHaveCount(0);
    await buyerPage.getByRole("button", { name: "Sign and finish" }).click();
    await expect(buyerPage.getByText("Agree to sign electronically first.")).toBeVisible();
    await buyerPage.getByLabel(/I agree to sign this document electronically/).check();
    await buyerPage.getByRole("button", { name: "Sign and finish" }).click();
    await expect(buyerPage.getByText("You have already signed this document.")).toBeVisible();
    await phone.close();

    // The second signer gets the mail now, and draws.
    const laptop = await newConsentedContext(browser, baseURL!);
    const sellerPage = await laptop.newPage();
    const secondMail = await readLatestMail(sellerPage, seller, /asks you to sign/);
    await gotoHydrated(sellerPage, secondMail.link!);
    const pad = sellerPage.getByRole("img", { name: "Signature pad: draw your signature here" });
    await expect(pad).toBeVisible();
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await sellerPage.mouse.move(box.x + 20, box.y + box.height * 0.7);
    await sellerPage.mouse.down();
    await sellerPage.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.2, { steps: 5 });
    await sellerPage.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.8, { steps: 5 });
    await sellerPage.mouse.up();
    await sellerPage.getByLabel(/I agree to sign this document electronically/).check();
    await sellerPage.getByRole("button", { name: "Sign and finish" }).click();
    await expect(sellerPage.getByText(/You have already signed this document|This document is complete/)).toBeVisible();
    await laptop.close();

    // The member's page shows it complete (sealed by the queue job) and downloads the sealed PDF.
    await expect(async () => {
      await page.goto(envelopePath);
      await expect(page.getByRole("link", { name: "Download the signed PDF" })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the signed PDF" }).click()]);
    expect(download.suggestedFilename()).toBe("Share purchase agreement (signed).pdf");
    const sealedPath = await download.path();
    expect((await readLatestMail(page, member.email, /is signed by everyone/)).text).toContain("SHA-256");

    // The verify page, which anyone may use, recognises the seal and the envelope.
    await page.getByRole("link", { name: "Check it on the verify page" }).click();
    await expect(page).toHaveTitle("Verify a signed PDF - Strongroom");
    await page.getByLabel("Choose a PDF to check").setInputFiles(sealedPath);
    await expect(page.getByText("Signed and unchanged")).toBeVisible();
    await expect(page.getByText("This is the sealed copy of “Share purchase agreement”")).toBeVisible();
    await expect(page.getByText("Signature 1: this Strongroom instance's seal")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
