// A share link's viewer (issue 21): G5, the first-load JavaScript of /s/{token} for an anonymous
// visitor (an open link, so the document's page itself), and G8, what a visitor's viewer reads of
// a shared 200-page PDF before its first page is drawn, plain and watermarked. The watermarked
// link stamps a copy per link, visitor and day on the first view; the second visit reads the
// cached copy, and its time to the first page is compared with the plain link's.
import { firstPageCost, uploadViaTus } from "./g8-pdf.mjs";
import { makePdf } from "./pdf-fixture.mjs";
import { createMember, signIn } from "./session.mjs";

const MiB = 1024 * 1024;
const PAGES = 200;
const fmtBytes = (bytes) => (bytes >= MiB ? `${(bytes / MiB).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`);
const anonymous = { cookie: "", headers: () => ({}) };

async function shareLink(baseUrl, owner, body) {
  const response = await fetch(`${baseUrl}/api/share-links`, { method: "POST", headers: { ...owner.headers(), "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`g8-share: creating the link answered ${response.status}: ${await response.text()}`);
  return new URL((await response.json()).link.url).pathname;
}

function addRead(add, label, pdfLength, cost) {
  const budget = Math.max(2_000_000, 0.05 * pdfLength);
  const read = Math.max(cost.declaredBytes, cost.receivedBytes);
  add(
    "G8",
    `${label} (${fmtBytes(pdfLength)}): read until page 1 drawn (${cost.requests} requests, ${(cost.elapsedMs / 1000).toFixed(1)} s)`,
    `${fmtBytes(read)} (${((100 * read) / pdfLength).toFixed(2)} %)`,
    `≤ max(2 MB, 5 %) = ${fmtBytes(budget)}`,
    read <= budget && cost.fullResponses === 0 && cost.status === `Page 1 of ${PAGES}`,
  );
}

export async function bench({ baseUrl, stateDir, add, addFirstLoad }) {
  const login = { email: `bench-share-${Date.now()}@example.com`, password: "bench-share-password-2026" };
  await createMember(stateDir, { ...login, tier: "business" });
  const owner = await signIn(baseUrl, login);
  const defaults = await (await fetch(`${baseUrl}/api/user/default-folders`, { headers: owner.headers({ Accept: "application/json" }) })).json();
  const inbox = defaults.folders.find((folder) => folder.label === "Inbox") ?? defaults.folders[0];

  // Plain: the 200-page, ≈ 42 MB PDF of G8.
  const large = makePdf({ pages: PAGES, padBytesPerPage: 210_000, tree: "balanced" });
  const largeId = await uploadViaTus(baseUrl, owner, { folderId: inbox.uid, name: "G8 shared.pdf", body: large });
  const plainPath = await shareLink(baseUrl, owner, { target: { type: "file", id: largeId } });
  addFirstLoad(`/s/{token}`, "public, share viewer", 120 * 1024, await (await fetch(`${baseUrl}${plainPath}`)).text());
  const previewOf = (path, fileId) => ({ pagePath: path, previewPath: `${path}/files/${fileId}/preview` });
  const plain = await firstPageCost(baseUrl, anonymous, largeId, previewOf(plainPath, largeId));
  addRead(add, `shared ${PAGES}-page PDF, share viewer`, large.length, plain);

  // Watermarked: a copy is stamped (pdf-lib, every page) on the first view; a smaller file of the
  // same page count keeps the stamping within a Worker's memory.
  const stamped = makePdf({ pages: PAGES, padBytesPerPage: 20_000, tree: "balanced" });
  const stampedId = await uploadViaTus(baseUrl, owner, { folderId: inbox.uid, name: "G8 shared watermarked.pdf", body: stamped });
  const markedPath = await shareLink(baseUrl, owner, { target: { type: "file", id: stampedId }, watermark: true });
  const plainSmallPath = await shareLink(baseUrl, owner, { target: { type: "file", id: stampedId } });
  const firstView = await firstPageCost(baseUrl, anonymous, stampedId, previewOf(markedPath, stampedId));
  const secondView = await firstPageCost(baseUrl, anonymous, stampedId, previewOf(markedPath, stampedId));
  const unmarked = await firstPageCost(baseUrl, anonymous, stampedId, previewOf(plainSmallPath, stampedId));
  addRead(add, `shared ${PAGES}-page PDF, watermarked, second visit`, stamped.length, secondView);
  const ratio = secondView.elapsedMs / unmarked.elapsedMs;
  add(
    "G8",
    `watermarked share: time to page 1, second visit vs unwatermarked (${(secondView.elapsedMs / 1000).toFixed(2)} s vs ${(unmarked.elapsedMs / 1000).toFixed(2)} s; first visit stamps: ${(firstView.elapsedMs / 1000).toFixed(2)} s)`,
    `${ratio.toFixed(2)}×`,
    "≤ 1.5× (cached per link, visitor and day)",
    ratio <= 1.5,
  );
}
