import type { APIRequestContext, Page } from "@playwright/test";
import { createMember, expect, type TestMember, type Tier } from "./fixtures";

/**
 * Shared steps of the files e2e specs: put files into a member's space through the real tus API
 * (POST + PATCH, exactly what the browser's tus client sends) without driving the upload UI.
 * Use `page.request` of a signed-in page, so the request shares the browser's cookies.
 * Keep this API stable: other specs depend on it.
 */

/**
 * A verified member on `tier`, signed in on `page` (the test-only route, one request; see
 * fixtures.ts). Folder uploads need a plan with bulk_upload (basic and above).
 */
export async function newFilesMember(page: Page, tier: Tier = "pro"): Promise<TestMember> {
  return createMember(page.request, { tier });
}

/** The part size the server expects for a file of `length` bytes (mirrors partSizeFor). */
function partSizeFor(length: number): number {
  const MiB = 1024 * 1024;
  const rounded = Math.ceil(Math.ceil(length / 10_000) / MiB) * MiB;
  return Math.min(90 * MiB, Math.max(8 * MiB, rounded));
}

function base64(value: string): string {
  return Buffer.from(value, "utf8").toString("base64");
}

/** The CSRF token of the page currently open (the <meta name="csrf-token"> tag). */
export async function csrfToken(page: Page): Promise<string> {
  const token = await page.locator('meta[name="csrf-token"]').getAttribute("content");
  expect(token, "the page carries a csrf-token meta tag").toBeTruthy();
  return token!;
}

export type DefaultFolder = { uid: string; label: string; color: string; icon: string | null };

/** The signed-in member's default inbox and outbox (GET /api/user/default-folders). */
export async function defaultFolders(page: Page): Promise<{ inbox: string; outbox: string; folders: DefaultFolder[] }> {
  const response = await page.request.get("/api/user/default-folders", { headers: { Accept: "application/json" } });
  expect(response.status(), await response.text()).toBe(200);
  const { folders } = (await response.json()) as { folders: DefaultFolder[] };
  const inbox = folders.find((folder) => folder.label === "Inbox") ?? folders[0];
  const outbox = folders.find((folder) => folder.label === "Outbox") ?? folders[1];
  if (!inbox || !outbox) throw new Error("The member has no default inbox or outbox.");
  return { inbox: inbox.uid, outbox: outbox.uid, folders };
}

export type TusUploadOptions = {
  folderId: string;
  name: string;
  body: Buffer;
  csrf: string;
  /** Folders to create under `folderId` ("Reports/2026"), as a dropped folder does. */
  relativePath?: string;
};

/**
 * Uploads one file through the tus API (creation, then PATCHes of one part each; a file smaller
 * than a part is one PATCH) and returns the new file's id (the completing PATCH names it in the
 * `Strongroom-File-Id` header).
 */
export async function uploadViaTus(request: APIRequestContext, options: TusUploadOptions): Promise<string> {
  const headers = { "X-CSRF-TOKEN": options.csrf, "X-Requested-With": "XMLHttpRequest", "Tus-Resumable": "1.0.0" };
  const metadata = [`filename ${base64(options.name)}`, `folderId ${base64(options.folderId)}`];
  if (options.relativePath) metadata.push(`relativePath ${base64(options.relativePath)}`);
  const created = await request.post("/api/uploads", {
    headers: { ...headers, "Upload-Length": String(options.body.length), "Upload-Metadata": metadata.join(",") },
  });
  expect(created.status(), `creating the upload: ${await created.text()}`).toBe(201);
  const location = created.headers()["location"];
  if (!location) throw new Error("The upload creation answered without a Location.");
  const partSize = Number(created.headers()["strongroom-part-size"] ?? partSizeFor(options.body.length));

  let offset = 0;
  let fileId: string | undefined;
  do {
    const chunk = options.body.subarray(offset, Math.min(options.body.length, offset + partSize));
    const patched = await request.patch(location, {
      headers: { ...headers, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
      data: chunk,
    });
    expect(patched.status(), `sending bytes ${offset}..: ${await patched.text()}`).toBe(204);
    offset = Number(patched.headers()["upload-offset"]);
    fileId = patched.headers()["strongroom-file-id"];
  } while (offset < options.body.length);
  if (!fileId) throw new Error("The completing PATCH did not name the new file.");
  return fileId;
}

/** The bytes of a file that sniffs as a PDF (its header), `size` long. */
export const pdfBytes = (size: number) => Buffer.concat([Buffer.from("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n", "latin1"), Buffer.alloc(Math.max(0, size - 15), 0x41)]);
