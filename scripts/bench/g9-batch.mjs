// G9 (issue 22): a batch move of 10,000 items. The operation is made and run to the end inside one
// development-only request (POST /api/dev/bench/batch-move: its queue messages are caught and each
// chunk is run by the consumer's own code), so X-Bench-D1 counts every D1 statement it took. The
// baseline moves the same rows back with one SQL UPDATE and no checks at all.
import { d1File } from "./g10-rooms.mjs";
import { createMember, signIn } from "./session.mjs";

const ITEMS = 10_000;

async function seedFiles(stateDir, spaceId, folderId, count) {
  const now = Date.now();
  const lines = [];
  const ids = [];
  for (let start = 0; start < count; start += 200) {
    const values = [];
    for (let i = start; i < Math.min(count, start + 200); i++) {
      const id = crypto.randomUUID();
      ids.push(id);
      values.push(`('${id}','${spaceId}','${folderId}','Batch item ${String(i).padStart(5, "0")}.pdf',${1000 + i},'application/pdf','files/${spaceId}/${id}',${now},${now})`);
    }
    lines.push(`INSERT INTO files (id, space_id, folder_id, name, size, content_type, r2_key, created_at, updated_at) VALUES ${values.join(",")};`);
  }
  await d1File(stateDir, lines.join("\n"));
  return ids;
}

async function post(baseUrl, session, path, body) {
  const response = await fetch(`${baseUrl}${path}`, { method: "POST", headers: session.headers({ "Content-Type": "application/json", "X-Bench-D1": "1" }), body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`g9: ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { body: JSON.parse(text), statements: Number(response.headers.get("x-d1-statements")), roundTrips: Number(response.headers.get("x-d1-round-trips")) };
}

export async function bench({ baseUrl, stateDir, add }) {
  const login = { email: `bench-batch-${Date.now()}@example.com`, password: "bench-batch-password-2026" };
  await createMember(stateDir, { ...login, tier: "business" });
  const session = await signIn(baseUrl, login);
  const defaults = await (await fetch(`${baseUrl}/api/user/default-folders`, { headers: session.headers() })).json();
  const inboxPage = await (await fetch(`${baseUrl}/api/folders/${defaults.folders[0].uid}`, { headers: session.headers() })).json();
  const rootUid = inboxPage.crumbs[0].uid;
  const spaceId = inboxPage.folder.spaceId;
  const folder = async (label) => (await post(baseUrl, session, "/api/folders", { parentId: rootUid, label })).body.folder.uid;
  const source = await folder("G9 source");
  const target = await folder("G9 target");
  const ids = await seedFiles(stateDir, spaceId, source, ITEMS);

  const run = await post(baseUrl, session, "/api/dev/bench/batch-move", { items: ids, targetFolderId: target });
  const baseline = await post(baseUrl, session, "/api/dev/bench/batch-move", { items: ids, targetFolderId: source, baseline: true });
  const perItem = run.statements / ITEMS;
  add("G9", `batch move of ${ITEMS.toLocaleString("en-US")} items: queue messages (ids only)`, String(run.body.messages), `≤ ${Math.ceil(ITEMS / 100)}`, run.body.messages <= Math.ceil(ITEMS / 100) && run.body.status === "completed" && run.body.moved === ITEMS);
  add("G9", `batch move: D1 statements per item (${run.statements} statements in ${run.roundTrips} round trips)`, perItem.toFixed(3), "≤ 0.05", perItem <= 0.05);
  add("G9", `batch move, in one request without queue latency, vs one SQL UPDATE of the same rows (${(run.body.ms / 1000).toFixed(1)} s vs ${baseline.body.ms.toFixed(0)} ms)`, `${(run.body.ms / Math.max(1, baseline.body.ms)).toFixed(0)}×`, "reported", true);
}
