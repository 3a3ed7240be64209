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

    // The owner shares the file from its page: verified e-mail, view only.
    await gotoHydrated(page, `/files/${fileId}`);
    await page.getByRole("link", { name: "Share", exact: true }).click();
    await expect(page).toHaveTitle("Create share link - Strongroom");
    await page.getByLabel("Name (only you see it)").fill("For Vera");
    await page.getByLabel("Verify the e-mail with a code").check();
    await page.getByLabel("View only, no download").check();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Create link" }).click();
    await expect(page).toHaveTitle("Share link For Vera - Strongroom");
    await expect(page.getByTestId("link-status")).toHaveText("Active");
    await expect(page.getByText("Shares the file Heron deck.pdf: verified e-mail, view only.")).toBeVisible();
    await expect(page.getByRole("img", { name: "QR code of the link to Heron deck.pdf" })).toBeVisible();
    const address = new URL(await page.getByTestId("link-url").inputValue()).pathname;
    const linkPage = page.url();

    const theirs = await newConsentedContext(browser, baseURL!);
    try {
      const visitor = await theirs.newPage();
      await gotoHydrated(visitor, address);
      await expect(visitor).toHaveTitle("Heron deck.pdf - Strongroom");
      await expect(visitor.getByText("Enter your e-mail address to continue.")).toBeVisible();
      expect(await seriousViolations(visitor)).toEqual([]);
      // The gate's form loads beside the page: typed before it is hydrated, the address would be lost.
      await expect(visitor.locator("[data-testid=share-gate][data-ready]")).toBeVisible();
      await visitor.getByLabel("E-mail address").fill("vera@heron-ventures.test");
      await expect(visitor.getByLabel("E-mail address")).toHaveValue("vera@heron-ventures.test");
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

      // The owner sees the visit: who, the file, and the time on each page read (reported as the visitor left).
      const linkId = new URL(linkPage).pathname.split("/").pop()!;
      type Analytics = { visits: { files: { pages: unknown[] }[] }[] };
      await expect.poll(async () => ((await (await page.request.get(`/api/share-links/${linkId}/analytics`)).json()) as Analytics).visits[0]?.files[0]?.pages.length ?? 0).toBe(3);
      await gotoHydrated(page, linkPage);
      const visit = page.getByTestId("link-visit");
      await expect(visit).toHaveCount(1);
      await expect(visit).toContainText("vera@heron-ventures.test");
      await expect(visit).toContainText("Heron deck.pdf");
      await expect(visit.getByTestId("page-times").getByRole("listitem")).toHaveCount(3);
      await expect(visit.getByTestId("page-times")).toContainText("Page 1:");
      await expect(page.getByTestId("link-totals")).toContainText("Views1");
      expect(await seriousViolations(page)).toEqual([]);
      // The room tells the owner the link was opened.
      await gotoHydrated(page, `/dataroom/${roomId}/notifications`);
      await expect(page.getByRole("link", { name: "vera@heron-ventures.test opened your share link “For Vera”" })).toBeVisible();

      // The owner renames the link, then revokes it; the visitor's reload says it expired.
      await gotoHydrated(page, linkPage);
      await page.getByLabel("Name (only you see it)").fill("For Vera (board)");
      await page.getByRole("button", { name: "Save options" }).click();
      await expect(page).toHaveTitle("Share link For Vera (board) - Strongroom");
      await expect(page.getByLabel("Verify the e-mail with a code")).toBeChecked();
      await page.getByRole("button", { name: "Revoke link" }).click();
      await expect(page.getByTestId("link-status")).toHaveText("Revoked");
      await gotoHydrated(visitor, address);
      await expect(visitor).toHaveTitle("Preview Link Expired - Strongroom");
      await expect(visitor.getByTestId("preview-error")).toContainText("The preview link has expired. Please try refreshing the page.");
    } finally {
      await theirs.close();
    }
  });
});
