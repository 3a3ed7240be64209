import { solidPng } from "../../scripts/bench/png-fixture.mjs";
import type { Page } from "@playwright/test";
import { makePdf } from "../../scripts/bench/pdf-fixture.mjs";
import { csrfToken, defaultFolders, uploadViaTus } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/** A verified Pro member, signed in on `page` (the test-only route, made inside the server). */
async function signedInMember(page: Page) {
  return createMember(page.request, { tier: "pro" });
}

/** Signs a fresh member in and uploads the files through tus; returns their ids by name. */
async function memberWithFiles(page: Page, uploads: { name: string; body: Buffer }[]) {
  await signedInMember(page);
  await gotoHydrated(page, "/folders");
  const { inbox } = await defaultFolders(page);
  const csrf = await csrfToken(page);
  const ids: Record<string, string> = {};
  for (const upload of uploads) ids[upload.name] = await uploadViaTus(page.request, { folderId: inbox, ...upload, csrf });
  return ids;
}

const previewRequests = "**/api/files/*/preview*";

test.describe("file previews", () => {
  test("a member previews a PDF page by page from byte ranges, an image with its name as its text alternative, Markdown in a sandboxed frame where its scripts never run, and CSV as a table", async ({ page }) => {
    test.setTimeout(90_000);
    const markdown = "# Meeting notes\n\n- first point\n- second point\n\n<img src=x onerror=\"parent.document.title='pwned'\">\n";
    const csv = "name,amount\nAda,12\nGrace,30\n";
    const ids = await memberWithFiles(page, [
      { name: "Quarterly report.pdf", body: makePdf({ pages: 3 }) },
      { name: "logo.png", body: solidPng(40, 30, [20, 90, 200]) },
      { name: "notes.md", body: Buffer.from(markdown) },
      { name: "figures.csv", body: Buffer.from(csv) },
    ]);

    const ranges: string[] = [];
    page.on("request", (request) => {
      if (/\/api\/files\/[^/]+\/preview/.test(request.url())) ranges.push(`${request.headers()["range"] ?? "(none)"} ${request.url()}`);
    });
    await gotoHydrated(page, `/files/${ids["Quarterly report.pdf"]}`);
    await expect(page).toHaveTitle("Quarterly report.pdf - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "Quarterly report.pdf" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Inbox" })).toHaveAttribute("href", /^\/folders\//);
    await expect(page.getByTestId("file-type")).toHaveText("application/pdf");
    await expect(page.getByRole("link", { name: "Download" })).toHaveAttribute("href", `/api/files/${ids["Quarterly report.pdf"]}/download`);

    const canvas = page.getByRole("img", { name: "Page 1 of Quarterly report.pdf" });
    await expect(canvas).toHaveAttribute("data-rendered-page", "1", { timeout: 20_000 });
    await expect(page.getByTestId("pdf-page-status")).toHaveText("Page 1 of 3");
    // Something was drawn: the canvas is not blank white.
    const inked = await canvas.evaluate((element: HTMLCanvasElement) => {
      const context = element.getContext("2d")!;
      const { data } = context.getImageData(0, 0, element.width, element.height);
      let dark = 0;
      for (let index = 0; index < data.length; index += 4) if (data[index]! < 128) dark++;
      return dark;
    });
    expect(inked).toBeGreaterThan(100);
    // Every read was a byte range (pdf.js never fetched the whole file in one go).
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.filter((range) => !/^bytes=\d+-\d+ /.test(range))).toEqual([]);

    await expect(page.getByRole("button", { name: "Previous page" })).toBeDisabled();
    await page.getByRole("button", { name: "Next page" }).click();
    await expect(page.getByTestId("pdf-page-status")).toHaveText("Page 2 of 3");
    await expect(page.getByRole("img", { name: "Page 2 of Quarterly report.pdf" })).toHaveAttribute("data-rendered-page", "2");
    await page.getByRole("button", { name: "Next page" }).click();
    await expect(page.getByTestId("pdf-page-status")).toHaveText("Page 3 of 3");
    await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();

    await gotoHydrated(page, `/files/${ids["logo.png"]}`);
    await expect(page).toHaveTitle("logo.png - Strongroom");
    const image = page.getByRole("img", { name: "logo.png" });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(40);

    await gotoHydrated(page, `/files/${ids["notes.md"]}`);
    const frame = page.locator('iframe[title="Preview of notes.md"]');
    await expect(frame).toHaveAttribute("sandbox", "");
    await expect(page.frameLocator('iframe[title="Preview of notes.md"]').getByRole("heading", { name: "Meeting notes" })).toBeVisible();
    await expect(page.frameLocator('iframe[title="Preview of notes.md"]').getByRole("listitem")).toHaveCount(2);
    await expect(page).toHaveTitle("notes.md - Strongroom");

    await gotoHydrated(page, `/files/${ids["figures.csv"]}`);
    const table = page.getByTestId("csv-preview");
    await expect(table.getByRole("columnheader")).toHaveText(["name", "amount"]);
    await expect(table.locator("tbody tr")).toHaveCount(2);
    await expect(table.locator("tbody tr").first()).toContainText("Ada");
  });

  test("a failed PDF preview shows the loading error and a refused image preview the security error, each with Try Again, and retrying recovers", async ({ page }) => {
    test.setTimeout(90_000);
    const ids = await memberWithFiles(page, [
      { name: "flaky.pdf", body: makePdf({ pages: 2 }) },
      { name: "photo.png", body: solidPng(20, 20, [200, 40, 40]) },
    ]);
    await page.route(previewRequests, (route) => route.abort("connectionfailed"));
    await gotoHydrated(page, `/files/${ids["flaky.pdf"]}`);

    const error = page.getByRole("alert").filter({ hasText: "Failed to Load Preview" });
    await expect(error).toBeVisible({ timeout: 20_000 });
    await expect(error).toContainText("There was a problem loading the preview. Please check your connection and try again.");

    await page.unroute(previewRequests);
    await error.getByRole("button", { name: "Try Again" }).click();
    await expect(error).toBeHidden();
    await expect(page.getByRole("img", { name: "Page 1 of flaky.pdf" })).toHaveAttribute("data-rendered-page", "1", { timeout: 20_000 });
    await expect(page.getByTestId("pdf-page-status")).toHaveText("Page 1 of 2");

    await page.route(previewRequests, (route) => route.fulfill({ status: 403, contentType: "application/json", body: '{"message":"no","code":"FORBIDDEN"}' }));
    await gotoHydrated(page, `/files/${ids["photo.png"]}`);

    const refused = page.getByRole("alert").filter({ hasText: "Security Check Failed" });
    await expect(refused).toBeVisible({ timeout: 20_000 });
    await expect(refused).toContainText("Unable to verify security requirements. Please ensure you have the necessary permissions.");

    await page.unroute(previewRequests);
    await refused.getByRole("button", { name: "Try Again" }).click();
    await expect.poll(() => page.getByRole("img", { name: "photo.png" }).evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(20);
  });
});
