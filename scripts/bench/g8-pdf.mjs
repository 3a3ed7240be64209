// G8: a 200-page PDF of ≥ 40 MB shows its first page after reading ≤ max(2 MB, 5 %) of the file,
// and a 1 MiB range GET of the preview answers 206 within 2× a bare R2 pass-through.
// The PDF is uploaded through the real tus API, opened on its file page in Chromium (pdf.js reads
// it by ranges), and every byte the preview endpoint sent is counted (Content-Range lengths, and
// the bytes Chromium's network stack actually received, from the DevTools protocol).
import { chromium } from "@playwright/test";
import { makePdf } from "./pdf-fixture.mjs";
import { createMember, signIn } from "./session.mjs";

const MiB = 1024 * 1024;
const PAGES = 200;
const PAD_BYTES_PER_PAGE = 210_000; // ≈ 42 MB in all
const RANGE_SAMPLES = 30;

const fmtBytes = (bytes) => (bytes >= MiB ? `${(bytes / MiB).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Uploads `body` through tus (creation, then one PATCH per part) and returns the new file id. */
export async function uploadViaTus(baseUrl, session, { folderId, name, body }) {
  const base64 = (value) => Buffer.from(value, "utf8").toString("base64");
  const headers = session.headers({ "Tus-Resumable": "1.0.0" });
  const created = await fetch(`${baseUrl}/api/uploads`, {
    method: "POST",
    headers: { ...headers, "Upload-Length": String(body.length), "Upload-Metadata": `filename ${base64(name)},folderId ${base64(folderId)}` },
  });
  if (created.status !== 201) throw new Error(`g8: creating the upload answered ${created.status}: ${await created.text()}`);
  const location = new URL(created.headers.get("location"), baseUrl).toString();
  const partSize = Number(created.headers.get("strongroom-part-size"));
  if (!partSize) throw new Error("g8: the upload creation named no part size");
  let offset = 0;
  let fileId = null;
  while (offset < body.length) {
    const chunk = body.subarray(offset, Math.min(body.length, offset + partSize));
    const patched = await fetch(location, {
      method: "PATCH",
      headers: { ...headers, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
      body: chunk,
    });
    if (patched.status !== 204) throw new Error(`g8: PATCH at ${offset} answered ${patched.status}: ${await patched.text()}`);
    offset = Number(patched.headers.get("upload-offset"));
    fileId = patched.headers.get("strongroom-file-id") ?? fileId;
  }
  if (!fileId) throw new Error("g8: the completing PATCH named no file");
  return fileId;
}

/**
 * Opens `pagePath` (by default the member's file page) in Chromium with the session's cookies and
 * counts what the preview address (`previewPath`) sent until page 1 is drawn. Also used for a share
 * link's viewer (g8-share.mjs), whose visitor has no session (`session.cookie` empty).
 */
export async function firstPageCost(baseUrl, session, fileId, { pagePath = `/files/${fileId}`, previewPath = `/api/files/${fileId}/preview` } = {}) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
    const cookies = session.cookie
      .split("; ")
      .filter(Boolean)
      .map((pair) => {
        const index = pair.indexOf("=");
        return { name: pair.slice(0, index), value: pair.slice(index + 1), url: baseUrl };
      });
    await context.addCookies([...cookies, { name: "dataroom_cookie_consent", value: "essential", url: baseUrl }]);
    const page = await context.newPage();

    // What reached the browser, per request (the DevTools protocol sees aborted bodies too).
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const previewRequests = new Set();
    let receivedBytes = 0;
    cdp.on("Network.requestWillBeSent", ({ requestId, request }) => {
      if (request.url.includes(previewPath)) previewRequests.add(requestId);
    });
    cdp.on("Network.dataReceived", ({ requestId, dataLength }) => {
      if (previewRequests.has(requestId)) receivedBytes += dataLength;
    });

    // What the server declared it sent (Content-Range of each 206, or the length of a 200).
    let declaredBytes = 0;
    let requests = 0;
    let fullResponses = 0;
    page.on("response", (response) => {
      // A HEAD (the size of a watermarked copy) carries no bytes.
      if (!response.url().includes(previewPath) || response.request().method() === "HEAD") return;
      requests++;
      const range = /bytes (\d+)-(\d+)\//.exec(response.headers()["content-range"] ?? "");
      if (range) declaredBytes += Number(range[2]) - Number(range[1]) + 1;
      else {
        fullResponses++;
        declaredBytes += Number(response.headers()["content-length"] ?? 0);
      }
    });

    const started = performance.now();
    await page.goto(pagePath);
    await page.locator('canvas[data-rendered-page="1"]').waitFor({ state: "attached", timeout: 60_000 });
    const elapsedMs = performance.now() - started;
    const status = await page.getByTestId("pdf-page-status").textContent();
    // Let the DevTools events of the finished requests arrive.
    await page.waitForTimeout(300);
    await context.close();
    return { declaredBytes, receivedBytes, requests, fullResponses, elapsedMs, status };
  } finally {
    await browser.close();
  }
}

async function timedRangeGet(url, session, offset) {
  const started = performance.now();
  const response = await fetch(url, { headers: session.headers({ Range: `bytes=${offset}-${offset + MiB - 1}` }) });
  const body = await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 206 || body.byteLength !== MiB) throw new Error(`g8: ${url} answered ${response.status} with ${body.byteLength} bytes`);
  return ms;
}

export async function bench({ baseUrl, stateDir, add }) {
  const email = `bench-pdf-${Date.now()}@example.com`;
  const password = "bench-pdf-password-2026";
  await createMember(stateDir, { email, password, tier: "business" });
  const session = await signIn(baseUrl, { email, password });
  const defaults = await (await fetch(`${baseUrl}/api/user/default-folders`, { headers: session.headers({ Accept: "application/json" }) })).json();
  const inbox = defaults.folders.find((folder) => folder.label === "Inbox") ?? defaults.folders[0];

  // Both shapes of page tree real producers write: pdf.js reads every page dictionary of a flat
  // tree while opening the document, so the flat one is the harder case.
  let rangeFileId = null;
  let rangeFileSize = 0;
  for (const tree of ["balanced", "flat"]) {
    const pdf = makePdf({ pages: PAGES, padBytesPerPage: PAD_BYTES_PER_PAGE, tree });
    const fileId = await uploadViaTus(baseUrl, session, { folderId: inbox.uid, name: `G8 ${tree} ${PAGES} pages.pdf`, body: pdf });
    rangeFileId ??= fileId;
    rangeFileSize ||= pdf.length;

    const cost = await firstPageCost(baseUrl, session, fileId);
    const budget = Math.max(2_000_000, 0.05 * pdf.length);
    const read = Math.max(cost.declaredBytes, cost.receivedBytes);
    const percent = (100 * read) / pdf.length;
    add(
      "G8",
      `${PAGES}-page PDF, ${tree} page tree (${fmtBytes(pdf.length)}): read until page 1 drawn (${cost.requests} range requests, ${(cost.elapsedMs / 1000).toFixed(1)} s)`,
      `${fmtBytes(read)} (${percent.toFixed(2)} %)`,
      `≤ max(2 MB, 5 %) = ${fmtBytes(budget)}`,
      read <= budget && cost.fullResponses === 0 && cost.status === `Page 1 of ${PAGES}`,
    );
  }

  // ---- 1 MiB range GET: preview vs bare R2 ---------------------------------------------------------
  const previewUrl = `${baseUrl}/api/files/${rangeFileId}/preview`;
  const baselineUrl = `${baseUrl}/api/dev/bench/r2/${rangeFileId}`;
  for (let warm = 0; warm < 3; warm++) {
    await timedRangeGet(previewUrl, session, 0);
    await timedRangeGet(baselineUrl, session, 0);
  }
  const preview = [];
  const baseline = [];
  const ratios = [];
  const lastStart = rangeFileSize - MiB;
  for (let sample = 0; sample < RANGE_SAMPLES; sample++) {
    const offset = Math.floor((lastStart * sample) / RANGE_SAMPLES);
    // Alternate which goes first, so neither always gets the warmer cache.
    const [first, second] = sample % 2 ? [baselineUrl, previewUrl] : [previewUrl, baselineUrl];
    const a = await timedRangeGet(first, session, offset);
    const b = await timedRangeGet(second, session, offset);
    const previewMs = first === previewUrl ? a : b;
    const baselineMs = first === previewUrl ? b : a;
    preview.push(previewMs);
    baseline.push(baselineMs);
    ratios.push(previewMs / baselineMs);
  }
  const ratio = median(ratios);
  add(
    "G8",
    `1 MiB range GET, preview vs bare R2 (median of ${RANGE_SAMPLES} interleaved pairs: ${median(preview).toFixed(1)} ms vs ${median(baseline).toFixed(1)} ms)`,
    `${ratio.toFixed(2)}×`,
    "≤ 2×",
    ratio <= 2,
  );
}
