import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { newConsentedContext } from "./auth-helpers";
import { seriousViolations } from "./axe-helpers";
import { csrfToken, defaultFolders, pdfBytes } from "./files-helpers";
import { createMember, expect, gotoHydrated, test } from "./fixtures";

/**
 * Receive pages, the visitor's side (issue 24): someone without an account fills a form page and
 * sends files and a folder into their own folder; the owner finds them with the answers as
 * metadata and a notification. Refusals (password, type, size, closed, deadline, full storage)
 * say why, and a refused submission leaves nothing.
 */

async function makePage(page: Page, options: Record<string, unknown>): Promise<{ id: string; path: string }> {
  const { inbox } = await defaultFolders(page);
  const response = await page.request.post("/api/receive-pages", {
    data: { kind: "simple", title: "Documents please", folderId: inbox, ...options },
    headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { page: { id: string; path: string } }).page;
}

async function changePage(page: Page, id: string, change: Record<string, unknown>) {
  const response = await page.request.patch(`/api/receive-pages/${id}`, { data: change, headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest" } });
  expect(response.status(), await response.text()).toBe(200);
}

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

test.describe("receive pages (visitors)", () => {
  test("a visitor fills a form page and sends two files and a folder into their own folder; the owner sees them with the answers and is notified", async ({ page, browser, baseURL }) => {
    await createMember(page.request, { tier: "pro", name: "Olga Owner" });
    await gotoHydrated(page, "/receive-pages");
    const slug = `apply-${Date.now()}`;
    const created = await makePage(page, {
      kind: "form",
      title: "Job applications",
      message: "Send your CV and your portfolio.",
      slug,
      requireName: true,
      requireEmail: true,
      perUploaderFolders: true,
      brandColor: "#7c3aed",
      fields: [
        { id: "role", type: "select", label: "Role", required: true, options: ["Engineer", "Designer"] },
        { id: "ref", type: "text", label: "Reference", required: false },
      ],
    });

    // A logo, uploaded on the page's editor.
    await gotoHydrated(page, `/receive-pages/${created.id}`);
    await page.getByLabel(/^Add a logo/).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
    await page.getByRole("button", { name: "Upload logo" }).click();
    await expect(page.getByTestId("receive-page-logo")).toBeVisible();

    const portfolio = mkdtempSync(join(tmpdir(), "receive-"));
    mkdirSync(join(portfolio, "Portfolio"));
    writeFileSync(join(portfolio, "Portfolio", "one.txt"), "first piece\n");
    writeFileSync(join(portfolio, "Portfolio", "two.txt"), "second piece\n");

    const visitorContext = await newConsentedContext(browser, baseURL!);
    const visitor = await visitorContext.newPage();
    await gotoHydrated(visitor, `/r/${slug}`);
    await expect(visitor).toHaveTitle("Job applications - Strongroom");
    await expect(visitor.getByRole("heading", { level: 1, name: "Job applications" })).toBeVisible();
    await expect(visitor.getByText("Olga Owner asks you for files.")).toBeVisible();
    await expect(visitor.getByTestId("receive-message")).toHaveText("Send your CV and your portfolio.");
    await expect(visitor.getByTestId("receive-logo")).toHaveJSProperty("naturalWidth", 1);
    await expect(visitor.locator("form[data-ready]")).toHaveCount(1);
    await visitor.getByRole("textbox", { name: "Your name", exact: true }).fill("Ada Lovelace");
    await visitor.getByRole("textbox", { name: "Your e-mail", exact: true }).fill("ada@example.com");
    await visitor.getByLabel("Role").selectOption("Engineer");
    await visitor.getByRole("textbox", { name: "Reference", exact: true }).fill("ENG-42");
    await visitor.getByTestId("receive-files-input").setInputFiles([
      { name: "cv.pdf", mimeType: "application/pdf", buffer: pdfBytes(3000) },
      { name: "letter.txt", mimeType: "text/plain", buffer: Buffer.from("Dear Olga,\nhere I am.\n") },
    ]);
    await visitor.getByTestId("receive-folder-input").setInputFiles(join(portfolio, "Portfolio"));
    await expect(visitor.getByTestId("receive-chosen")).toHaveCount(4);
    await expect(visitor.getByRole("listitem", { name: "Portfolio/one.txt" })).toBeVisible();
    expect(await seriousViolations(visitor)).toEqual([]);
    await visitor.getByRole("button", { name: "Send", exact: true }).click();
    await expect(visitor.getByRole("status").filter({ hasText: "4 files were sent to Olga Owner." })).toBeVisible();
    await expect(visitor.getByTestId("upload-item")).toHaveCount(4);
    await expect(visitor.locator('[data-testid="upload-item"][data-status="done"]')).toHaveCount(4);
    await visitorContext.close();

    // The owner: told at once in the page they have open (their own live channel), then in the list
    // with a link to the sender's folder, the files inside with the answers.
    await expect(page.locator(".Toastify__toast").filter({ hasText: "Ada Lovelace sent 4 files through “Job applications”" })).toBeVisible();
    await gotoHydrated(page, "/notifications");
    const notice = page.getByRole("link", { name: /Ada Lovelace sent 4 files through “Job applications”/ });
    await expect(notice).toBeVisible();
    await notice.click();
    await expect(page).toHaveTitle("Ada Lovelace (ada@example.com) - Strongroom");
    await expect(page.getByRole("link", { name: "cv.pdf" })).toBeVisible();
    await expect(page.getByRole("link", { name: "letter.txt" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Portfolio" })).toBeVisible();
    await page.getByRole("link", { name: "cv.pdf" }).click();
    const panel = page.getByTestId("file-details-panel");
    const metadata = panel.getByRole("textbox", { name: /^(Key|Value) \d+$/ });
    await expect(metadata.first()).toBeVisible();
    const values = await metadata.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(values).toEqual(expect.arrayContaining(["Received via", "Job applications", "Sender name", "Ada Lovelace", "Sender e-mail", "ada@example.com", "Role", "Engineer", "Reference", "ENG-42"]));

    // The page's own record of what came through it.
    await gotoHydrated(page, `/receive-pages/${created.id}`);
    const received = page.getByTestId("received-submission");
    await expect(received).toContainText("Ada Lovelace · ada@example.com sent 4 files");
    await expect(received).toContainText("into “Ada Lovelace (ada@example.com)”");
    await expect(received).toContainText("ENG-42");
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("a visitor is told why: wrong password, a type or size the page does not take, full storage (nothing kept), a closed page and a past deadline", async ({ page, browser, baseURL }) => {
    await createMember(page.request, { tier: "free" });
    await gotoHydrated(page, "/receive-pages");
    const created = await makePage(page, { title: "Signed contracts", password: "contract-2026", allowedTypes: ["pdf"], maxFileMb: 1 });

    // Hold all but 1 MB of the owner's storage with an upload in progress.
    const { inbox } = await defaultFolders(page);
    const held = await page.request.post("/api/uploads", {
      headers: { "X-CSRF-TOKEN": await csrfToken(page), "X-Requested-With": "XMLHttpRequest", "Tus-Resumable": "1.0.0", "Upload-Length": String(1023 * 1024 * 1024), "Upload-Metadata": `filename ${Buffer.from("big.bin").toString("base64")},folderId ${Buffer.from(inbox).toString("base64")}` },
    });
    expect(held.status(), await held.text()).toBe(201);

    const visitorContext = await newConsentedContext(browser, baseURL!);
    const visitor = await visitorContext.newPage();
    await gotoHydrated(visitor, created.path);
    await expect(visitor).toHaveTitle("Signed contracts - Strongroom");
    expect(await seriousViolations(visitor)).toEqual([]);
    await visitor.getByRole("textbox", { name: "Password" }).fill("not-it");
    await visitor.getByRole("button", { name: "Continue" }).click();
    await expect(visitor.getByRole("alert")).toContainText("That password is not right. Check it with the person who sent you the link.");
    await visitor.getByRole("textbox", { name: "Password" }).fill("contract-2026");
    await visitor.getByRole("button", { name: "Continue" }).click();
    await expect(visitor.locator("form[data-ready]")).toHaveCount(1);

    await visitor.getByTestId("receive-files-input").setInputFiles([
      { name: "run.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ not really") },
      { name: "scan.pdf", mimeType: "application/pdf", buffer: pdfBytes(2 * 1024 * 1024) },
    ]);
    await expect(visitor.getByRole("listitem", { name: "run.exe" })).toContainText("“run.exe” is not a type this page takes. It takes PDF files.");
    await expect(visitor.getByRole("listitem", { name: "scan.pdf" })).toContainText("“scan.pdf” is larger than this page takes (1 MB a file).");
    await visitor.getByRole("button", { name: "Send", exact: true }).click();
    await expect(visitor.getByRole("alert").filter({ hasText: "None of the chosen files can be sent: see why beside each." })).toBeVisible();
    await visitor.getByRole("button", { name: "Remove run.exe" }).click();
    await visitor.getByRole("button", { name: "Remove scan.pdf" }).click();

    // Two small PDFs: more than the 1 MB left of the owner's storage together.
    await visitor.getByTestId("receive-files-input").setInputFiles([
      { name: "a.pdf", mimeType: "application/pdf", buffer: pdfBytes(700 * 1024) },
      { name: "b.pdf", mimeType: "application/pdf", buffer: pdfBytes(700 * 1024) },
    ]);
    await visitor.getByRole("button", { name: "Send", exact: true }).click();
    await expect(visitor.getByRole("alert").filter({ hasText: "These files do not fit: the storage of the person you are sending to is full. Nothing was sent; let them know." })).toBeVisible();
    const listed = await page.request.get(`/api/folders/${inbox}`, { headers: { Accept: "application/json" } });
    expect(JSON.stringify(await listed.json())).not.toMatch(/"name":"[ab]\.pdf"/);

    // Closed, then reopened with its deadline passed.
    await changePage(page, created.id, { isOpen: false });
    await visitor.reload();
    await expect(visitor).toHaveTitle("Receive page closed - Strongroom");
    await expect(visitor.getByTestId("receive-ended")).toContainText("“Signed contracts” is closed: it takes no more files.");
    await changePage(page, created.id, { isOpen: true, deadlineAt: "2026-01-01T09:30:00.000Z" });
    await visitor.reload();
    await expect(visitor).toHaveTitle("Receive page past its deadline - Strongroom");
    await expect(visitor.getByTestId("receive-ended")).toContainText("stopped taking files on 2026-01-01 09:30 UTC");
    await visitorContext.close();
  });
});
