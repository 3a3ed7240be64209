import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { newConsentedContext } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/**
 * Redaction (issue 39): in a data room, a member opens a PDF, finds the e-mail addresses with the
 * preset, keeps two matches and draws one rectangle, applies, and sees the new version; the text
 * is gone from the file a share link serves (read by poppler's pdftotext); the room's audit log
 * has the redaction.
 */

async function termSheet(): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < 2; index += 1) {
    const page = document.addPage([612, 792]);
    page.drawText(`Falcon term sheet, page ${index + 1}`, { x: 72, y: 720, size: 14, font });
    page.drawText(`Contact: partner${index + 1}@falcon-capital.example`, { x: 72, y: 680, size: 12, font });
    page.drawText("Purchase price: 12,400,000 EUR", { x: 72, y: 400, size: 12, font });
  }
  return Buffer.from(await document.save());
}

function pdftotext(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "redacted-")), "doc.pdf");
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
}

test.describe("redaction", () => {
  test("a room owner marks two e-mail matches and an area, applies, and the share link serves a PDF without them; the audit log says so", async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    await createMember(page.request, { tier: "pro", name: "Rita Redactor" });
    await gotoHydrated(page, "/datarooms");
    const headers = { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" };
    const created = await page.request.post("/api/datarooms", { data: { name: "Project Falcon" }, headers });
    expect(created.status(), await created.text()).toBe(201);
    const roomId = ((await created.json()) as { dataroom: { id: string } }).dataroom.id;
    const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${roomId}`)).json()) as { rootFolderId: string };
    const fileId = await uploadViaTus(page.request, { folderId: rootFolderId, name: "Falcon term sheet.pdf", body: await termSheet(), csrf: headers["X-CSRF-TOKEN"] });

    await gotoHydrated(page, `/files/${fileId}`);
    await page.getByRole("link", { name: "Redact", exact: true }).click();
    await expect(page).toHaveTitle("Redact - Strongroom");
    await expect(page.getByTestId("redact-page-2")).toBeVisible();

    // The e-mail preset finds both addresses; each is marked from the list.
    await page.getByLabel("What to find").selectOption({ label: "E-mail addresses" });
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await expect(page.getByText("2 matches.")).toBeVisible();
    await page.getByRole("button", { name: "Mark “partner1@falcon-capital.example” on page 1" }).click();
    await page.getByRole("button", { name: "Mark “partner2@falcon-capital.example” on page 2" }).click();

    // The price on page 2 is marked by drawing over it (its line sits at about half the page).
    const pageTwo = page.getByTestId("redact-page-2");
    await pageTwo.scrollIntoViewIfNeeded();
    const box = (await pageTwo.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.48);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.51, { steps: 4 });
    await page.mouse.up();
    await expect(page.getByRole("heading", { name: "Review (3 of 3 kept)" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Apply 3 marks" }).click();

    await expect(page).toHaveURL(new RegExp(`/files/${fileId}\\?redacted=1$`));
    await expect(page.getByText("Redacted: version 2 is the redacted document")).toBeVisible();

    // A share link serves the redacted version: the marked words are gone, the rest is there.
    const link = await page.request.post("/api/share-links", { data: { target: { type: "file", id: fileId } }, headers });
    expect(link.status(), await link.text()).toBe(201);
    const address = new URL(((await link.json()) as { link: { url: string } }).link.url).pathname;
    const theirs = await newConsentedContext(browser, baseURL!);
    try {
      const visitor = await theirs.newPage();
      await gotoHydrated(visitor, address);
      const served = await visitor.request.get(`${address}/files/${fileId}/download`);
      expect(served.status()).toBe(200);
      const text = pdftotext(Buffer.from(await served.body()));
      expect(text).toContain("Falcon term sheet, page 2");
      expect(text).not.toContain("falcon-capital.example");
      expect(text.match(/12,400,000/g)?.length).toBe(1); // page 1's price was not marked
    } finally {
      await theirs.close();
    }

    await gotoHydrated(page, `/dataroom/${roomId}/activities`);
    await expect(page.getByTestId("audit-row").filter({ hasText: "Redacted a file" })).toContainText("3 marks on pages 1, 2");
  });
});
