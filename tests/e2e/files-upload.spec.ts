import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { csrfToken, defaultFolders, newFilesMember, uploadViaTus } from "./files-helpers";
import { expect, gotoHydrated, test } from "./fixtures";
import { CUTS_UPLOADS } from "./tags";

/**
 * The upload panel of a folder page in Chromium: drag and drop of files, a whole folder through
 * the folder picker (structure kept), per-file and overall progress, pause, resume and cancel,
 * and the server's refusal shown as it says it.
 */

const MiB = 1024 * 1024;

/** Drops files built in the page (name → size or text) on the drop zone, as a drag from the desktop does. */
async function dropFiles(zone: Locator, files: { name: string; text?: string; size?: number }[]) {
  await zone.evaluate((element, list) => {
    const transfer = new DataTransfer();
    for (const file of list) {
      const content = file.text ?? new Uint8Array(file.size ?? 0).map((_, index) => (index * 31) % 251);
      transfer.items.add(new File([content], file.name, { type: "application/octet-stream" }));
    }
    element.dispatchEvent(new DragEvent("dragenter", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    element.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    element.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, files);
}

/** Records every value a progress bar shows, so a test can tell progress was visible on the way. */
async function watchProgress(page: Page) {
  await page.evaluate(() => {
    const seen: Record<string, number[]> = {};
    (window as unknown as { __progress: Record<string, number[]> }).__progress = seen;
    const record = (bar: Element) => {
      const labelId = bar.getAttribute("aria-labelledby");
      const label = labelId ? (document.getElementById(labelId)?.textContent ?? "") : (bar.getAttribute("aria-label") ?? "");
      const key = label.startsWith("Overall") ? "Overall" : label;
      (seen[key] ??= []).push(Number(bar.getAttribute("aria-valuenow")));
    };
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        if (mutation.type === "attributes" && mutation.target instanceof Element) record(mutation.target);
        for (const node of mutation.addedNodes) if (node instanceof Element) node.querySelectorAll('[role="progressbar"]').forEach(record);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });
}

async function progressSeen(page: Page, key: string): Promise<number[]> {
  return page.evaluate((name) => (window as unknown as { __progress: Record<string, number[]> }).__progress[name] ?? [], key);
}

function uploadItem(page: Page, displayName: string) {
  return page.getByTestId("upload-item").filter({ has: page.getByRole("progressbar", { name: displayName, exact: true }) });
}

/** Slows the page's uploads down to `bytesPerSecond` (Chromium's network emulation). */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const session = await page.context().newCDPSession(page);
  await session.send("Network.enable");
  await session.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return session;
}

test.describe("uploading into a folder", () => {
  test("a member drops several files on the drop zone and sees each file's progress, the overall progress and the files listed", async ({ page }) => {
    test.setTimeout(90_000);
    await newFilesMember(page, "pro");
    const { inbox } = await defaultFolders(page);
    await gotoHydrated(page, `/folders/${inbox}`);
    const panel = page.getByRole("region", { name: "Upload" });
    await expect(panel.getByRole("button", { name: "Upload files" })).toBeVisible();
    await expect(panel.getByRole("button", { name: "Upload folder" })).toBeVisible();

    await watchProgress(page);
    await dropFiles(page.getByTestId("upload-drop-zone"), [
      { name: "notes.txt", text: "Meeting notes\n" },
      { name: "figures.csv", text: "quarter,revenue\nQ1,10\n" },
      { name: "scan.bin", size: 20 * MiB },
    ]);

    await expect(page.getByTestId("upload-item")).toHaveCount(3);
    for (const name of ["notes.txt", "figures.csv", "scan.bin"]) {
      await expect(uploadItem(page, name)).toHaveAttribute("data-status", "done", { timeout: 30_000 });
      await expect(page.getByRole("progressbar", { name, exact: true })).toHaveAttribute("aria-valuenow", "100");
    }
    const overall = page.getByRole("progressbar", { name: /^Overall: 3 of 3 files uploaded/ });
    await expect(overall).toHaveAttribute("aria-valuenow", "100");

    // The large file's bar and the overall bar moved through values in between (one per 8 MiB part).
    expect((await progressSeen(page, "scan.bin")).some((value) => value > 0 && value < 100)).toBe(true);
    expect((await progressSeen(page, "Overall")).some((value) => value > 0 && value < 100)).toBe(true);

    // The folder lists the new files (the page reloads its list after each upload).
    for (const name of ["notes.txt", "figures.csv", "scan.bin"]) await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Clear finished uploads" }).click();
    await expect(page.getByTestId("upload-item")).toHaveCount(0);
  });

  test("a member uploads a whole folder and its structure is kept", async ({ page }) => {
    test.setTimeout(90_000);
    const directory = mkdtempSync(join(tmpdir(), "strongroom-upload-"));
    try {
      mkdirSync(join(directory, "Quarterly", "2026"), { recursive: true });
      writeFileSync(join(directory, "Quarterly", "summary.md"), "# Summary\n");
      writeFileSync(join(directory, "Quarterly", "2026", "q1.txt"), "first quarter\n");
      writeFileSync(join(directory, "Quarterly", "2026", "q2.txt"), "second quarter\n");

      await newFilesMember(page, "basic");
      const { outbox } = await defaultFolders(page);
      await gotoHydrated(page, `/folders/${outbox}`);
      await page.getByTestId("upload-folder-input").setInputFiles(join(directory, "Quarterly"));

      await expect(page.getByTestId("upload-item")).toHaveCount(3);
      for (const name of ["Quarterly/summary.md", "Quarterly/2026/q1.txt", "Quarterly/2026/q2.txt"]) {
        await expect(uploadItem(page, name)).toHaveAttribute("data-status", "done", { timeout: 30_000 });
      }
      await expect(page.getByRole("progressbar", { name: /^Overall: 3 of 3 files uploaded/ })).toHaveAttribute("aria-valuenow", "100");

      await page.getByRole("link", { name: "Quarterly", exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Quarterly" })).toBeVisible();
      await expect(page.getByRole("link", { name: "summary.md", exact: true })).toBeVisible();
      await page.getByRole("link", { name: "2026", exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: "2026" })).toBeVisible();
      await expect(page.getByRole("link", { name: "q1.txt", exact: true })).toBeVisible();
      await expect(page.getByRole("link", { name: "q2.txt", exact: true })).toBeVisible();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test("a member drops a whole folder on the drop zone and its structure is kept", async ({ page }) => {
    test.setTimeout(90_000);
    await newFilesMember(page, "basic");
    const { outbox } = await defaultFolders(page);
    await gotoHydrated(page, `/folders/${outbox}`);

    // What Chromium hands the page for a folder dragged from the desktop: a DataTransfer item whose
    // entry is a directory (File and Directory Entries API). Automation cannot drag a real folder, so
    // the entries are built in the page with the same shape; their leaves are real File objects.
    await page.getByTestId("upload-drop-zone").evaluate((element) => {
      type Node = { name: string; text?: string; children?: Node[] };
      const tree: Node = { name: "Board pack", children: [{ name: "agenda.txt", text: "1. Welcome\n" }, { name: "Minutes", children: [{ name: "march.txt", text: "Approved.\n" }] }] };
      const entryOf = (node: Node): unknown =>
        node.children
          ? {
              isFile: false,
              isDirectory: true,
              name: node.name,
              createReader: () => {
                let done = false;
                return {
                  readEntries: (success: (entries: unknown[]) => void) => {
                    const batch = done ? [] : node.children!.map(entryOf);
                    done = true;
                    setTimeout(() => success(batch), 0);
                  },
                };
              },
            }
          : { isFile: true, isDirectory: false, name: node.name, file: (success: (file: File) => void) => success(new File([node.text ?? ""], node.name, { type: "text/plain" })) };
      const transfer = new DataTransfer();
      Object.defineProperty(transfer, "items", { value: [{ kind: "file", webkitGetAsEntry: () => entryOf(tree), getAsFile: () => null }] });
      Object.defineProperty(transfer, "files", { value: [] });
      element.dispatchEvent(new DragEvent("dragenter", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      element.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      element.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });

    await expect(page.getByTestId("upload-item")).toHaveCount(2);
    for (const name of ["Board pack/agenda.txt", "Board pack/Minutes/march.txt"]) {
      await expect(uploadItem(page, name)).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    }
    await expect(page.getByRole("progressbar", { name: /^Overall: 2 of 2 files uploaded/ })).toHaveAttribute("aria-valuenow", "100");
    await page.getByRole("link", { name: "Board pack", exact: true }).click();
    await expect(page.getByRole("link", { name: "agenda.txt", exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Minutes", exact: true }).click();
    await expect(page.getByRole("link", { name: "march.txt", exact: true })).toBeVisible();
  });

  test("a free member sees the folder upload locked and can still upload files", async ({ page }) => {
    await newFilesMember(page, "free");
    const { inbox } = await defaultFolders(page);
    await gotoHydrated(page, `/folders/${inbox}`);
    const panel = page.getByRole("region", { name: "Upload" });
    await expect(panel.getByRole("button", { name: "Upload files" })).toBeVisible();
    await expect(panel.getByRole("button", { name: /^Upload folder\. Locked: available on the Basic plan/ })).toBeVisible();
    await expect(page.getByTestId("upload-folder-input")).toHaveCount(0);
  });

  test("pause stops an upload where it is, resume finishes it, and cancel withdraws it from the server", { tag: CUTS_UPLOADS }, async ({ page }) => {
    test.setTimeout(120_000);
    await newFilesMember(page, "pro");
    const { inbox } = await defaultFolders(page);
    await gotoHydrated(page, `/folders/${inbox}`);
    const cdp = await throttleUploads(page, 6 * MiB);

    await dropFiles(page.getByTestId("upload-drop-zone"), [{ name: "paused.bin", size: 24 * MiB }]);
    const paused = uploadItem(page, "paused.bin");
    const bar = page.getByRole("progressbar", { name: "paused.bin", exact: true });
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Pause paused.bin" }).click();
    await expect(paused).toHaveAttribute("data-status", "paused");
    await expect(paused).toContainText("Paused");
    const stoppedAt = await bar.getAttribute("aria-valuenow");
    await page.waitForTimeout(1500);
    expect(await bar.getAttribute("aria-valuenow")).toBe(stoppedAt);

    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByRole("button", { name: "Resume paused.bin" }).click();
    await expect(paused).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    await expect(page.getByRole("link", { name: "paused.bin", exact: true })).toBeVisible();

    // Cancel: the upload is withdrawn (tus termination) and never becomes a file.
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 4 * MiB });
    const created = page.waitForResponse((response) => response.request().method() === "POST" && response.url().endsWith("/api/uploads"));
    await dropFiles(page.getByTestId("upload-drop-zone"), [{ name: "withdrawn.bin", size: 24 * MiB }]);
    const location = (await (await created).headerValue("location"))!;
    await expect.poll(async () => Number(await page.getByRole("progressbar", { name: "withdrawn.bin", exact: true }).getAttribute("aria-valuenow")), { timeout: 20_000 }).toBeGreaterThan(0);
    const terminated = page.waitForResponse((response) => response.request().method() === "DELETE" && response.url().endsWith(location));
    await page.getByRole("button", { name: "Cancel withdrawn.bin" }).click();
    expect((await terminated).status()).toBe(204);
    await expect(uploadItem(page, "withdrawn.bin")).toHaveCount(0);
    const head = await page.request.head(location, { headers: { "Tus-Resumable": "1.0.0" } });
    expect(head.status()).toBe(404);
    const listing = await page.request.get(`/api/folders/${inbox}`);
    const names = ((await listing.json()) as { files: { name: string }[] }).files.map((file) => file.name);
    expect(names).toContain("paused.bin");
    expect(names).not.toContain("withdrawn.bin");
  });

  test("a refused upload shows the server's message", async ({ page }) => {
    await newFilesMember(page, "pro");
    const { inbox } = await defaultFolders(page);
    await gotoHydrated(page, `/folders/${inbox}`);
    await dropFiles(page.getByTestId("upload-drop-zone"), [{ name: "back\\slash.txt", text: "x" }]);
    const item = uploadItem(page, "back\\slash.txt");
    await expect(item).toHaveAttribute("data-status", "error");
    await expect(item.getByRole("alert")).toContainText("filename: A file name cannot contain / or \\ or control characters.");
  });

  test("the storage page shows what the member's files use, by type, against the plan's quota", async ({ page }) => {
    await newFilesMember(page, "pro");
    const { inbox } = await defaultFolders(page);
    await gotoHydrated(page, `/folders/${inbox}`);
    const csrf = await csrfToken(page);
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
    await uploadViaTus(page.request, { folderId: inbox, name: "pixel.pdf", body: png, csrf });
    await uploadViaTus(page.request, { folderId: inbox, name: "notes.txt", body: Buffer.alloc(2048, "a"), csrf });

    await gotoHydrated(page, "/settings/storage");
    await expect(page).toHaveTitle("Storage - Strongroom");
    await expect(page.getByRole("heading", { level: 1, name: "Storage" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Storage" })).toHaveAttribute("aria-current", "page");
    const space = page.getByTestId("storage-space-personal");
    await expect(space.getByRole("progressbar", { name: /^2\.1 KB of 50 GB used$/ })).toBeVisible();
    // The PNG named .pdf counts as an image: its type was sniffed from its bytes.
    await expect(space.getByTestId("storage-images")).toContainText("70 B");
    await expect(space.getByTestId("storage-images")).toContainText("1");
    await expect(space.getByTestId("storage-documents")).toContainText("2.0 KB");
    await expect(space.getByRole("progressbar", { name: "Images" })).toBeVisible();
  });
});
