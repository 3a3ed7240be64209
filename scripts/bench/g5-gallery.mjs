// Public galleries (issue 40): G5, the first-load JavaScript of /public-gallery/{token} for an
// anonymous visitor before the viewer loads; and what a phone fetches for the first screen of a
// 500-photo gallery: the page, its scripts and styles, and only the thumbnails it shows (lazy, the
// first 48 at most), never the other 452 nor any screen size. 500 pictures are uploaded through
// tus; their thumbnails are made by the derivatives job (Cloudflare Images, local mode).
import { chromium, devices } from "@playwright/test";
import { uploadViaTus } from "./g8-pdf.mjs";
import { solidPng } from "./png-fixture.mjs";
import { createMember, signIn } from "./session.mjs";

const KiB = 1024;
const PHOTOS = 500;
const FIRST_PAGE = 48;
const fmt = (bytes) => `${(bytes / KiB).toFixed(1)} KiB`;

export async function bench({ baseUrl, stateDir, add, addFirstLoad }) {
  const login = { email: `bench-gallery-${Date.now()}@example.com`, password: "bench-gallery-password-2026" };
  await createMember(stateDir, { ...login, tier: "pro" });
  const owner = await signIn(baseUrl, login);
  const defaults = await (await fetch(`${baseUrl}/api/user/default-folders`, { headers: owner.headers({ Accept: "application/json" }) })).json();
  const inbox = defaults.folders.find((folder) => folder.label === "Inbox") ?? defaults.folders[0];
  const made = await fetch(`${baseUrl}/api/folders`, { method: "POST", headers: owner.headers({ "Content-Type": "application/json" }), body: JSON.stringify({ parentId: inbox.uid, label: "G5 gallery" }) });
  if (made.status !== 201) throw new Error(`g5-gallery: making the folder answered ${made.status}: ${await made.text()}`);
  const folderId = (await made.json()).folder.uid;

  // 500 pictures, 16 uploads at a time (each its own colour, so each its own bytes).
  let next = 0;
  const worker = async () => {
    while (next < PHOTOS) {
      const index = next++;
      await uploadViaTus(baseUrl, owner, { folderId, name: `photo-${String(index).padStart(3, "0")}.png`, body: solidPng(320, 240, [index % 256, (index * 7) % 256, (index * 13) % 256]) });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));

  const created = await fetch(`${baseUrl}/api/share-links`, { method: "POST", headers: owner.headers({ "Content-Type": "application/json", Accept: "application/json" }), body: JSON.stringify({ target: { type: "folder", id: folderId }, presentation: "gallery" }) });
  if (created.status !== 201) throw new Error(`g5-gallery: publishing answered ${created.status}: ${await created.text()}`);
  const path = new URL((await created.json()).link.url).pathname;

  // The first page's thumbnails are made (their addresses carry the version once they are).
  let html = "";
  for (let attempt = 0; attempt < 240; attempt++) {
    html = await (await fetch(`${baseUrl}${path}`)).text();
    if ((html.match(/\/thumb\?v=/g) ?? []).length >= FIRST_PAGE) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  addFirstLoad("/public-gallery/{token}", "public, gallery before the viewer loads", 120 * KiB, html);

  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const context = await browser.newContext({ ...devices["Pixel 7"], baseURL: baseUrl });
    const page = await context.newPage();
    const responses = [];
    page.on("response", (response) => responses.push(response));
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    let bytes = 0;
    const byKind = { document: 0, script: 0, image: 0, other: 0 };
    for (const response of responses) {
      const sizes = await response.request().sizes();
      const size = sizes.responseBodySize + sizes.responseHeadersSize;
      bytes += size;
      const kind = response.request().resourceType();
      byKind[kind in byKind ? kind : "other"] += size;
    }
    const urls = responses.map((response) => new URL(response.url()).pathname);
    const thumbs = urls.filter((url) => url.endsWith("/thumb")).length;
    const screens = urls.filter((url) => url.endsWith("/screen")).length;
    const tiles = await page.getByRole("list", { name: "Pictures and videos" }).getByRole("listitem").count();
    add(
      "G5",
      `public gallery of ${PHOTOS} photos, first screen on a phone (${responses.length} requests; ${tiles} tiles in the page, ${thumbs} thumbnails fetched, ${screens} screen sizes; page ${fmt(byKind.document)}, scripts ${fmt(byKind.script)}, pictures ${fmt(byKind.image)}, other ${fmt(byKind.other)}; as vite preview sends them, uncompressed)`,
      fmt(bytes),
      `tiles ≤ ${FIRST_PAGE}, thumbnails ≤ ${FIRST_PAGE}, no screen size`,
      tiles <= FIRST_PAGE && thumbs <= FIRST_PAGE && screens === 0,
    );
  } finally {
    await browser.close();
  }
}
