// G1, G2, G4: a folder of 10 files against a folder of 10,000 (page size 100).
// D1 round trips and rows read come from the development-only X-Bench-D1 instrumentation
// (workers/middleware/d1-stats.ts); sizes are the real responses, gzipped here.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { run } from "../lib.mjs";
import { createMember, signIn } from "./session.mjs";

const KiB = 1024;

async function d1Execute(stateDir, args) {
  const result = await run("npx", ["wrangler", "d1", "execute", "DB", "--local", `--persist-to=${stateDir}`, ...args], { stdio: "pipe" });
  if (result.code !== 0) throw new Error(`wrangler d1 execute failed:\n${result.output}`);
  return result.output;
}

async function seedFiles(stateDir, spaceId, folderId, count) {
  const now = Date.now();
  const lines = [];
  for (let start = 0; start < count; start += 200) {
    const values = [];
    for (let i = start; i < Math.min(count, start + 200); i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(6, "0")}${folderId.slice(0, 6)}`;
      const name = `Report ${String(i).padStart(5, "0")} – quarterly figures.pdf`;
      values.push(`('${id}','${spaceId}','${folderId}','${name}',${1000 + i},'application/pdf','files/${spaceId}/${id}',${now - i * 1000},${now - i * 1000})`);
    }
    lines.push(`INSERT INTO files (id, space_id, folder_id, name, size, content_type, r2_key, created_at, updated_at) VALUES ${values.join(",")};`);
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-seed-"));
  const file = join(dir, "seed.sql");
  writeFileSync(file, lines.join("\n"));
  await d1Execute(stateDir, [`--file=${file}`]);
}

async function measure(baseUrl, session, path) {
  const response = await fetch(`${baseUrl}${path}`, { headers: session.headers({ "X-Bench-D1": "1" }) });
  const body = await response.text();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${body.slice(0, 300)}`);
  return {
    roundTrips: Number(response.headers.get("x-d1-round-trips")),
    rowsRead: Number(response.headers.get("x-d1-rows-read")),
    body,
    gzip: gzipSync(body).length,
  };
}

export async function bench({ baseUrl, stateDir, add }) {
  const email = `bench-folders-${Date.now()}@example.com`;
  const password = "bench-folders-password-2026";
  await createMember(stateDir, { email, password, tier: "business" });
  const session = await signIn(baseUrl, { email, password });
  const defaults = await (await fetch(`${baseUrl}/api/user/default-folders`, { headers: session.headers() })).json();
  const inbox = defaults.folders[0].uid;
  const inboxPage = await (await fetch(`${baseUrl}/api/folders/${inbox}`, { headers: session.headers() })).json();
  const rootUid = inboxPage.crumbs[0].uid;
  const spaceId = inboxPage.folder.spaceId;
  const folderIds = {};
  for (const [label, count] of [["Ten", 10], ["Ten thousand", 10_000]]) {
    const created = await fetch(`${baseUrl}/api/folders`, {
      method: "POST",
      headers: session.headers({ "Content-Type": "application/json" }),
      body: JSON.stringify({ parentId: rootUid, label }),
    });
    const { folder } = await created.json();
    folderIds[count] = folder.uid;
    await seedFiles(stateDir, spaceId, folder.uid, count);
  }

  const results = {};
  for (const count of [10, 10_000]) {
    const uid = folderIds[count];
    const api = await measure(baseUrl, session, `/api/folders/${uid}`);
    const page = await measure(baseUrl, session, `/folders/${uid}`);
    const json = JSON.parse(api.body);
    let second = null;
    if (json.nextCursor) second = await measure(baseUrl, session, `/api/folders/${uid}?cursor=${encodeURIComponent(json.nextCursor)}`);
    const bySize = await measure(baseUrl, session, `/api/folders/${uid}?sort=size&dir=desc`);
    results[count] = { api, page, rows: json.files.length, second, bySize };
  }
  const small = results[10];
  const large = results[10_000];
  add("G1", "folder API, D1 round trips (10 / 10,000 files)", `${small.api.roundTrips} / ${large.api.roundTrips}`, "≤ 3, equal", large.api.roundTrips <= 3 && small.api.roundTrips === large.api.roundTrips);
  add(
    "G1",
    "folder page SSR, D1 calls in all (10 / 10,000; 3 sequential)",
    `${small.page.roundTrips} / ${large.page.roundTrips}`,
    "equal, no per-row queries",
    small.page.roundTrips === large.page.roundTrips && large.page.roundTrips <= 5,
  );
  const budgetRows = 2 * 100 + 20;
  add("G2", "rows read, first page of 100 (10,000 files, by name)", String(large.api.rowsRead), `≤ ${budgetRows}`, large.api.rowsRead <= budgetRows);
  if (large.second) add("G2", "rows read, second page (keyset cursor)", String(large.second.rowsRead), `≤ ${budgetRows}`, large.second.rowsRead <= budgetRows);
  add("G2", "rows read, first page by size, descending", String(large.bySize.rowsRead), `≤ ${budgetRows}`, large.bySize.rowsRead <= budgetRows);

  const plan = await d1Execute(stateDir, [
    "--json",
    `--command=EXPLAIN QUERY PLAN SELECT id FROM files WHERE folder_id = '${folderIds[10_000]}' AND trashed_at IS NULL AND (name, id) > ('Report 05000', '') ORDER BY name, id LIMIT 101`,
  ]);
  const usesIndex = /USING (COVERING )?INDEX files_folder_name_idx/.test(plan) && !/USE TEMP B-TREE/.test(plan);
  add("G2", "query plan of the keyset page uses files_folder_name_idx", usesIndex ? "yes" : "no", "index, no sort step", usesIndex);

  const perRow = Math.round(JSON.stringify(JSON.parse(large.api.body).files).length / large.rows);
  add("G4", "JSON per file row (API)", `${perRow} B`, "≤ 250 B", perRow <= 250);
  add("G4", "folder page HTML + loader data, 100 rows, gzip", `${(large.page.gzip / KiB).toFixed(1)} KiB`, "≤ 60 KiB", large.page.gzip <= 60 * KiB);
  const loaderData = await fetch(`${baseUrl}/folders/${folderIds[10_000]}.data`, { headers: session.headers() });
  const dataBody = await loaderData.text();
  add("G4", "loader data alone (.data), gzip", `${(gzipSync(dataBody).length / KiB).toFixed(1)} KiB`, "≤ 60 KiB", gzipSync(dataBody).length <= 60 * KiB);
}
