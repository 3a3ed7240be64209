import { makePdf } from "../../scripts/bench/pdf-fixture.mjs";
import { newConsentedContext, readLatestMail } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/** Share links (issue 21): an owner shares a PDF with a verified e-mail and no download; a visitor reads it in another browser. */

test.describe("share links", () => {
  test("a visitor proves their address with the e-mailed code, reads the first pages of a 50-page PDF without a download, and sees Preview Link Expired once the owner revokes the link", async ({ page, browser, baseURL }) => {
    test.setTimeout(90_000);
    await createMember(page.request, { tier: "pro", name: "Sasha Sharer" });
    await gotoHydrated(page, "/datarooms");
    const headers = { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" };
    const created = await page.request.post("/api/datarooms", { data: { name: "Project Heron" }, headers });
    expect(created.status(), await created.text()).toBe(201);
    const roomId = ((await created.json()) as { dataroom: { id: string } }).dataroom.id;
    const { rootFolderId } = (await (await page.request.get(`/api/datarooms/${roomId}`)).json()) as { rootFolderId: string };
    const fileId = await uploadViaTus(page.request, { folderId: rootFolderId, name: "Heron deck.pdf", body: makePdf({ pages: 50 }), csrf: headers["X-CSRF-TOKEN"] });

    const shared = await page.request.post("/api/share-links", {
      data: { target: { type: "file", id: fileId }, name: "For Vera", requireEmail: true, verifyEmail: true, allowDownload: false },
      headers,
    });
    expect(shared.status(), await shared.text()).toBe(201);
    const link = ((await shared.json()) as { link: { id: string; url: string } }).link;
    const address = new URL(link.url).pathname;

    const theirs = await newConsentedContext(browser, baseURL!);
    try {
      const visitor = await theirs.newPage();
      await gotoHydrated(visitor, address);
      await expect(visitor).toHaveTitle("Heron deck.pdf - Strongroom");
      await expect(visitor.getByText("Enter your e-mail address to continue.")).toBeVisible();
      expect(await seriousViolations(visitor)).toEqual([]);
      await visitor.getByLabel("E-mail address").fill("vera@heron-ventures.test");
      await visitor.getByRole("button", { name: "Continue" }).click();
      await expect(visitor.getByText("We sent a 6-digit code to vera@heron-ventures.test.")).toBeVisible();

      // A wrong code is refused by name; the right one from the mailbox opens the document.
      await visitor.getByLabel("Code").fill("000000");
      await visitor.getByRole("button", { name: "Verify" }).click();
      await expect(visitor.getByText("That code is not right.")).toBeVisible();
      const mail = await readLatestMail(visitor, "vera@heron-ventures.test", /is your code to open "Heron deck.pdf"/);
      await visitor.getByLabel("Code").fill(mail.code!);
      await visitor.getByRole("button", { name: "Verify" }).click();

      await expect(visitor.getByRole("heading", { level: 1, name: "Heron deck.pdf" })).toBeVisible();
      await expect(visitor.getByTestId("share-rules")).toContainText("Viewing as vera@heron-ventures.test. Downloading is turned off for this link.");
      await expect(visitor.getByRole("img", { name: "Page 1 of Heron deck.pdf" })).toHaveAttribute("data-rendered-page", "1", { timeout: 20_000 });
      await expect(visitor.getByTestId("pdf-page-status")).toHaveText("Page 1 of 50");
      await expect(visitor.getByRole("link", { name: "Download" })).toHaveCount(0);
      for (const next of [2, 3]) {
        await visitor.getByRole("button", { name: "Next page" }).click();
        await expect(visitor.getByRole("img", { name: `Page ${next} of Heron deck.pdf` })).toHaveAttribute("data-rendered-page", String(next));
      }
      expect(await seriousViolations(visitor)).toEqual([]);
      // The download address refuses too (the rule is the server's, not just a missing button).
      const download = await visitor.request.get(`${address}/files/${fileId}/download`);
      expect(download.status()).toBe(403);
      // Leaving the page sends the time spent on the last page.
      await gotoHydrated(visitor, "/privacy-policy");

      // The owner revokes the link; the visitor's reload says it expired.
      const revoked = await page.request.post(`/api/share-links/${link.id}/revoke`, { headers });
      expect(revoked.status(), await revoked.text()).toBe(200);
      await gotoHydrated(visitor, address);
      await expect(visitor).toHaveTitle("Preview Link Expired - Strongroom");
      await expect(visitor.getByTestId("preview-error")).toContainText("The preview link has expired. Please try refreshing the page.");
    } finally {
      await theirs.close();
    }
  });
});
