// The cost of a watermarked page (issue 20): a 50-page PDF in a room with the watermark on. A
// member's first view makes their stamped copy (pdf-lib, every page); the owner's view is the
// original. Wall time through the real Worker in local workerd (no other load), so it stands in
// for CPU time; the second view reads the cached copy and should cost what an unwatermarked one does.
import { d1File } from "./g10-rooms.mjs";
import { uploadViaTus } from "./g8-pdf.mjs";
import { makePdf } from "./pdf-fixture.mjs";
import { createMember, signIn } from "./session.mjs";

const PAGES = 50;
const SAMPLES = 7;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(url, headers, method = "GET") {
  const started = performance.now();
  const response = await fetch(url, { method, headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`g8-watermark: ${method} ${url} answered ${response.status}`);
  return performance.now() - started;
}

export async function bench({ baseUrl, stateDir, add }) {
  const stamp = Date.now();
  const ownerLogin = { email: `bench-wm-owner-${stamp}@example.com`, password: "bench-watermark-password-2026" };
  const viewerLogin = { email: `bench-wm-viewer-${stamp}@example.com`, password: "bench-watermark-password-2026" };
  await createMember(stateDir, { ...ownerLogin, tier: "business" });
  await createMember(stateDir, { ...viewerLogin, tier: "free" });
  const owner = await signIn(baseUrl, ownerLogin);
  const viewer = await signIn(baseUrl, viewerLogin);
  const json = { ...owner.headers(), "Content-Type": "application/json", Accept: "application/json" };

  const created = await fetch(`${baseUrl}/api/datarooms`, { method: "POST", headers: json, body: JSON.stringify({ name: "Watermark bench" }) });
  if (created.status !== 201) throw new Error(`g8-watermark: creating the room answered ${created.status}`);
  const roomId = (await created.json()).dataroom.id;
  const { rootFolderId } = await (await fetch(`${baseUrl}/api/datarooms/${roomId}`, { headers: owner.headers() })).json();
  const pdf = makePdf({ pages: PAGES, padBytesPerPage: 2_000, tree: "balanced" });
  const fileId = await uploadViaTus(baseUrl, owner, { folderId: rootFolderId, name: "Watermark bench.pdf", body: pdf });

  // The viewer joins as a member (the D1 copy), and the room's authority reloads its roster.
  const now = Date.now();
  const userId = `(SELECT id FROM users WHERE email = '${viewerLogin.email}')`;
  await d1File(
    stateDir,
    `INSERT INTO dataroom_members (dataroom_id, user_id, role, overrides, joined_at) VALUES ('${roomId}', ${userId}, 'member', '{}', ${now});
INSERT INTO space_members (space_id, user_id, role, created_at) VALUES ('${roomId}', ${userId}, 'editor', ${now});`,
  );
  await (await fetch(`${baseUrl}/api/dev/bench/rooms/${roomId}?samples=0&reload=1`, { headers: owner.headers() })).text();
  const protection = { watermark: { template: "{{email}} - {{date}} {{time}} UTC - {{ip}}", opacity: 0.2, fontSize: 18, position: "tiled" }, downloadProtection: false, printProtection: false };
  const saved = await fetch(`${baseUrl}/api/datarooms/${roomId}/security/protection`, { method: "PUT", headers: json, body: JSON.stringify(protection) });
  if (!saved.ok) throw new Error(`g8-watermark: saving the watermark answered ${saved.status}: ${await saved.text()}`);

  const url = `${baseUrl}/api/files/${fileId}/preview`;
  await timed(url, owner.headers());
  const plainTimes = [];
  for (let i = 0; i < SAMPLES; i++) plainTimes.push(await timed(url, owner.headers()));
  const firstView = await timed(url, viewer.headers(), "HEAD");
  const cachedTimes = [];
  for (let i = 0; i < SAMPLES; i++) cachedTimes.push(await timed(url, viewer.headers()));
  const unwatermarked = median(plainTimes);
  const cached = median(cachedTimes);
  const perPage = Math.max(0, firstView - unwatermarked) / PAGES;
  add("Watermark", `first view of a ${PAGES}-page PDF: stamping per page (${firstView.toFixed(0)} ms in all, wall time, local)`, `${perPage.toFixed(2)} ms`, "≤ 20 ms per page", perPage <= 20);
  add("Watermark", `first watermarked view / unwatermarked view (median ${unwatermarked.toFixed(1)} ms)`, `${(firstView / unwatermarked).toFixed(1)}×`, "reported (made once per viewer and day)", true);
  add("Watermark", `second view (the cached stamped copy) / unwatermarked view (median ${cached.toFixed(1)} / ${unwatermarked.toFixed(1)} ms)`, `${(cached / unwatermarked).toFixed(2)}×`, "≤ 1.5×", cached / unwatermarked <= 1.5);
}
