import { readFileSync } from "node:fs";
import type { Locator } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { newConsentedContext, readLatestMail } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/** A one-page PDF with a title at the top and nothing below the middle. */
async function kestrelDeck(): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([595, 842]).drawText("Kestrel investor deck", { x: 50, y: 780, size: 24, font });
  return Buffer.from(await document.save());
}

/** Grey pixels (the watermark's ink at its opacity) in the lower half of a rendered page. */
function markedPixelsInLowerHalf(canvas: Locator): Promise<number> {
  return canvas.evaluate((element: HTMLCanvasElement) => {
    const context = element.getContext("2d");
    if (!context || element.height === 0) return -1;
    const { data } = context.getImageData(0, Math.floor(element.height / 2), element.width, Math.floor(element.height / 2));
    let count = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 235 && Math.abs(data[i]! - data[i + 2]!) < 8) count++;
    return count;
  });
}

/** The room's audit log and analytics in Chromium (issue 20): a member's views, downloads and refusals, read, filtered, verified and exported by the owner, then counted. */

test.describe("data room audit log", () => {
  test("the owner reads what a member opened, downloaded and was refused, filters by person, verifies the chain, exports CSV, sees the counts on the analytics page, turns on the watermark and download protection the member's preview then shows, and reads the time the member spent on the deck's page", async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    const owner = await createMember(page.request, { tier: "pro", name: "Astrid Auditor" });
    await gotoHydrated(page, "/datarooms");
    const headers = { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" };
    const created = await page.request.post("/api/datarooms", { data: { name: "Project Kestrel" }, headers });
    expect(created.status(), await created.text()).toBe(201);
    const roomId = ((await created.json()) as { dataroom: { id: string } }).dataroom.id;
    const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${roomId}`)).json()) as { rootFolderId: string };
    const fileId = await uploadViaTus(page.request, { folderId: rootFolderId, name: "Kestrel terms.txt", body: Buffer.from("Kestrel terms, final\n"), csrf: headers["X-CSRF-TOKEN"] });

    const theirs = await newConsentedContext(browser, baseURL!);
    try {
      const other = await theirs.newPage();
      const member = await createMember(other.request, { tier: "free", name: "Mats Member" });
      const invited = await page.request.post(`/api/datarooms/${roomId}/invitations`, { data: { emails: [member.email], role: "member" }, headers });
      expect(invited.status(), await invited.text()).toBe(201);
      const mail = await readLatestMail(page, member.email, /Project Kestrel/);
      await gotoHydrated(other, mail.link!);
      await other.getByRole("button", { name: "Join data room" }).click();
      await other.waitForURL(new RegExp(`/dataroom/${roomId}$`));

      // The member opens the file, downloads it, and tries a page that is not theirs.
      await gotoHydrated(other, `/files/${fileId}`);
      await expect(other.getByText("Kestrel terms, final")).toBeVisible();
      const download = await other.request.get(`/api/files/${fileId}/download`);
      expect(download.status()).toBe(200);
      expect((await other.request.get(`/dataroom/${roomId}/permissions`)).status()).toBe(403);

      // The owner reads it all on the activities page, newest first.
      await gotoHydrated(page, `/dataroom/${roomId}`);
      // The Activity tab opens the audit log for those who may read it.
      await page.getByRole("navigation", { name: "Data room sections" }).getByRole("link", { name: "Activity" }).click();
      await expect(page).toHaveTitle("Activities of Project Kestrel - Strongroom");
      const rows = page.getByTestId("audit-row");
      const theirRows = rows.filter({ hasText: member.email });
      await expect(theirRows.filter({ hasText: "Was refused" })).toContainText("You don't have permission to manage this data room's members.");
      await expect(theirRows.filter({ hasText: "Was refused" }).getByText("Refused", { exact: true })).toBeVisible();
      await expect(theirRows.filter({ hasText: "Downloaded a file" })).toContainText("Kestrel terms.txt");
      await expect(theirRows.filter({ hasText: "Viewed a file" })).toContainText("Kestrel terms.txt");
      await expect(theirRows.filter({ hasText: "Joined the room" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      // Only this person's entries.
      await page.getByRole("combobox", { name: "Person" }).selectOption({ label: member.email });
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(/person=/);
      await expect(rows).toHaveCount(4);
      await expect(rows.filter({ hasText: owner.email })).toHaveCount(0);

      // Verify: every entry as recorded, each linked to the one before.
      await page.getByRole("button", { name: "Verify the log" }).click();
      await expect(page.getByText("The log is intact")).toBeVisible();

      // Export: the filtered log as CSV.
      const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
      expect(csv.suggestedFilename()).toBe("Project-Kestrel-audit-log.csv");
      const text = readFileSync(await csv.path(), "utf8");
      expect(text.split("\r\n")[0]).toContain('"seq","time (UTC)","person","action"');
      expect(text).toContain(`"${member.email}","Downloaded a file","allowed","file","Kestrel terms.txt"`);
      expect(text).not.toContain(owner.email);

      // Analytics: the same openings counted per file and person, and what is still unread.
      await uploadViaTus(page.request, { folderId: rootFolderId, name: "Kestrel model.txt", body: Buffer.from("model\n"), csrf: headers["X-CSRF-TOKEN"] });
      await gotoHydrated(page, `/dataroom/${roomId}`);
      await page.getByRole("navigation", { name: "Data room sections" }).getByRole("link", { name: "Analytics" }).click();
      await expect(page).toHaveTitle("Analytics of Project Kestrel - Strongroom");
      await expect(page.getByTestId("total-views")).toHaveText("1");
      await expect(page.getByTestId("total-downloads")).toHaveText("1");
      await expect(page.getByRole("img", { name: /1 views and 1 downloads/ })).toBeVisible();
      const terms = page.getByTestId("file-stats").filter({ hasText: "Kestrel terms.txt" });
      await expect(terms.locator("td")).toHaveText(["Kestrel terms.txt", "1", "1", "1", /UTC$/]);
      await expect(page.getByTestId("person-stats").filter({ hasText: "Mats Member" }).locator("td").nth(4)).toHaveText("1 of 2");
      await expect(page.getByTestId("not-opened").filter({ hasText: "Mats Member" })).toContainText("has not opened Kestrel model.txt");
      expect(await seriousViolations(page)).toEqual([]);

      // Protection: the owner turns on the watermark and download protection on the security page.
      const pdfId = await uploadViaTus(page.request, { folderId: rootFolderId, name: "Kestrel deck.pdf", body: await kestrelDeck(), csrf: headers["X-CSRF-TOKEN"] });
      await gotoHydrated(page, `/dataroom/${roomId}/security`);
      await page.getByRole("checkbox", { name: "Watermark every document shown" }).click();
      await expect(page.getByRole("textbox", { name: "Watermark text" })).toHaveValue("{{email}} - {{date}} {{time}} UTC - {{ip}}");
      await page.getByRole("spinbutton", { name: "Opacity (%)" }).fill("40");
      await page.getByRole("checkbox", { name: "Download protection (view only)" }).click();
      await page.getByRole("checkbox", { name: "Print protection" }).click();
      await page.getByRole("button", { name: "Save protection" }).click();
      await expect(page.getByText("Protection saved.")).toBeVisible();
      await expect(page.getByRole("checkbox", { name: "Download protection (view only)" })).toBeChecked();
      expect(await seriousViolations(page)).toEqual([]);

      // The member's preview carries the mark in its pixels (the deck's lower half is blank in the
      // original) and offers no download; printing leaves the document out.
      await gotoHydrated(other, `/files/${pdfId}`);
      await expect(other.getByTestId("protection-note")).toContainText("This preview carries your watermark");
      await expect(other.getByTestId("protection-note")).toContainText("Downloading is turned off in this data room.");
      await expect(other.getByRole("link", { name: "Download" })).toHaveCount(0);
      const canvas = other.locator("canvas");
      await expect(canvas).toBeVisible();
      await expect.poll(() => markedPixelsInLowerHalf(canvas)).toBeGreaterThan(500);
      expect((await other.request.get(`/api/files/${pdfId}/download`)).status()).toBe(403);
      await other.emulateMedia({ media: "print" });
      await expect(other.getByTestId("print-protected")).toBeVisible();
      await expect(canvas).toBeHidden();

      // Hiding the tab sends the time the deck's page was on screen (the viewer's report; the same
      // report goes with keepalive when the page is left, which a busy browser may drop in a test).
      await other.emulateMedia({ media: "screen" });
      await expect(other.getByTestId("pdf-page-status")).toHaveText("Page 1 of 1");
      await other.evaluate(() => {
        Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
        document.dispatchEvent(new Event("visibilitychange"));
      });
      await gotoHydrated(other, `/dataroom/${roomId}`);
      const reported = async () => ((await (await page.request.get(`/api/datarooms/${roomId}/analytics`)).json()) as { pageTime: unknown[] }).pageTime.length;
      await expect.poll(reported, { timeout: 15_000 }).toBe(1);

      // The owner's own view is the original.
      await gotoHydrated(page, `/files/${pdfId}`);
      await expect(page.getByTestId("protection-note")).toHaveCount(0);
      await expect(page.locator("canvas")).toBeVisible();
      await expect.poll(() => markedPixelsInLowerHalf(page.locator("canvas"))).toBe(0);

      // Time per page on the analytics page: the member's seconds on page 1 of the deck.
      await gotoHydrated(page, `/dataroom/${roomId}/analytics`);
      const deckTime = page.getByTestId("page-time").filter({ hasText: "Kestrel deck.pdf" });
      await expect(deckTime.getByTestId("page-time-row").first().locator("td")).toHaveText(["1", /\d+ s$/, /^[12]$/]);
    } finally {
      await theirs.close();
    }
  });
});
