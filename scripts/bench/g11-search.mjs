// G11: search over 100,000 indexed files of one member (names and texts in the FTS5 index, kept
// by the triggers of migration 0033). D1 round trips and rows read come from the development-only
// X-Bench-D1 instrumentation (workers/middleware/d1-stats.ts), for the API the shell's box asks.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../lib.mjs";
import { createMember, signIn } from "./session.mjs";

const FILES = 100_000;

async function d1Execute(stateDir, args) {
  const result = await run("npx", ["wrangler", "d1", "execute", "DB", "--local", `--persist-to=${stateDir}`, ...args], { stdio: "pipe" });
  if (result.code !== 0) throw new Error(`wrangler d1 execute failed:\n${result.output}`);
  return result.output;
}

/** 100,000 files in one folder (names by the insert trigger), then a text for each as the extraction job would write it. */
async function seed(stateDir, spaceId, folderId) {
  const now = Date.now();
  const lines = [
    // One statement (a recursive count): D1 refuses statements over 100 KB.
    `INSERT INTO files (id, space_id, folder_id, name, size, content_type, r2_key, created_at, updated_at)
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${FILES - 1})
      SELECT printf('00000000-0000-4000-9000-%012d', i), '${spaceId}', '${folderId}', printf('Report %06d quarterly figures.pdf', i), 1000 + i,
             'application/pdf', printf('files/${spaceId}/00000000-0000-4000-9000-%012d', i), ${now} - i * 1000, ${now} - i * 1000 FROM n;`,
  ];
  lines.push(
    `UPDATE search_text SET body = 'Minutes of the harbour board, meeting ' || rowid || '. Revenue and costs by quarter.' WHERE rowid IN (SELECT e.doc_id FROM search_entries e JOIN files f ON f.id = e.item_id WHERE f.space_id = '${spaceId}');`,
    `UPDATE search_entries SET content_state = 'indexed' WHERE item_id IN (SELECT id FROM files WHERE space_id = '${spaceId}');`,
    // One file with a word no other has.
    `UPDATE search_text SET body = body || ' The zanzibar clause.' WHERE rowid = (SELECT doc_id FROM search_entries WHERE item_id = '00000000-0000-4000-9000-000000042424');`,
  );
  const dir = mkdtempSync(join(tmpdir(), "bench-search-"));
  const file = join(dir, "seed.sql");
  writeFileSync(file, lines.join("\n"));
  await d1Execute(stateDir, [`--file=${file}`]);
}

async function measure(baseUrl, session, query) {
  const response = await fetch(`${baseUrl}/api/search?${new URLSearchParams(query)}`, { headers: session.headers({ "X-Bench-D1": "1" }) });
  const body = await response.text();
  if (!response.ok) throw new Error(`search ${JSON.stringify(query)} answered ${response.status}: ${body.slice(0, 300)}`);
  return { roundTrips: Number(response.headers.get("x-d1-round-trips")), rowsRead: Number(response.headers.get("x-d1-rows-read")), hits: JSON.parse(body).hits.length };
}

export async function bench({ baseUrl, stateDir, add }) {
  const email = `bench-search-${Date.now()}@example.com`;
  const password = "bench-search-password-2026";
  await createMember(stateDir, { email, password, tier: "business" });
  const session = await signIn(baseUrl, { email, password });
  const defaults = await (await fetch(`${baseUrl}/api/user/default-folders`, { headers: session.headers() })).json();
  const inbox = await (await fetch(`${baseUrl}/api/folders/${defaults.folders[0].uid}`, { headers: session.headers() })).json();
  await seed(stateDir, inbox.folder.spaceId, inbox.folder.uid);

  const cases = [
    ["a word in every file's name", { q: "quarterly" }, 20],
    ["a word in every file's text only", { q: "harbour" }, 20],
    ["a prefix being typed", { q: "quart" }, 20],
    ["a word in one file's text", { q: "zanzibar" }, 1],
    ["two words, one file", { q: "report 042424" }, 1],
    ["a quick search (palette, 8)", { q: "minutes", limit: "8" }, 8],
  ];
  for (const [label, query, expected] of cases) {
    const result = await measure(baseUrl, session, query);
    // In proportion to the page (20 hits), not the index: a few rows per hit for the FTS pages, the joins and the snippet.
    const rowsBudget = 500;
    add("G11", `search over ${FILES.toLocaleString("en")} files, ${label}: D1 round trips / rows read (${result.hits} hits)`, `${result.roundTrips} / ${result.rowsRead}`, `≤ 3 / ≤ ${rowsBudget.toLocaleString("en")}`, result.roundTrips <= 3 && result.rowsRead <= rowsBudget && result.hits === expected);
  }
}
