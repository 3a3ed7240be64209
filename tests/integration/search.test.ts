import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { deleteItems, purgeExpiredRows, restoreItems } from "~/features/files/trash.server";
import { moveItems, renameFile } from "~/features/files/move.server";
import { indexFileContent } from "~/features/search/search-index.server";
import { requestContentIndexing } from "~/features/search/search.jobs";
import { searchWorkspace, type SearchHit } from "~/features/search/search.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countingD1, type D1Stats } from "~workers/middleware/d1-stats";
import worker from "~workers/app";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, makeFolder, personalSpaceOf, testContext } from "~tests/factories/files";
import { countWhere, createRoom, get, send, signedIn } from "./dataroom-helpers";
import { testEnv } from "./helpers";

/**
 * Search (issue 36, ADR 028): names and contents, every result something the member may open
 * now, the index right after renames, new versions, the trash and the purge, and a fixed number
 * of round trips whatever the member owns.
 */

const ctx = (env: Env = testEnv, now = new Date()) => createServiceContext(env, { requestId: "search-test", now: () => now });

async function search(userId: string, query: Record<string, string | number>, env: Env = testEnv): Promise<SearchHit[]> {
  return (await searchWorkspace(ctx(env), userId, query)).hits;
}
const titles = (hits: SearchHit[]) => hits.map((hit) => hit.title).sort();

async function pdfWith(lines: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([595, 842]);
  lines.forEach((line, index) => page.drawText(line, { x: 50, y: 780 - index * 20, size: 12, font }));
  return new Uint8Array(await document.save());
}

/** A minimal ZIP (no CRCs: the reader does not check them) whose entries are deflated unless `stored`. */
async function zipOf(entries: { name: string; text: string; stored?: boolean }[]): Promise<Uint8Array<ArrayBuffer>> {
  const encoder = new TextEncoder();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const central: Uint8Array<ArrayBuffer>[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const raw = encoder.encode(entry.text);
    const data = entry.stored ? raw : new Uint8Array(await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(8, entry.stored ? 0 : 8, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, raw.length, true);
    local.setUint16(26, name.length, true);
    const header = new DataView(new ArrayBuffer(46));
    header.setUint32(0, 0x02014b50, true);
    header.setUint16(10, entry.stored ? 0 : 8, true);
    header.setUint32(20, data.length, true);
    header.setUint32(24, raw.length, true);
    header.setUint16(28, name.length, true);
    header.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), name, data);
    central.push(new Uint8Array(header.buffer), name);
    offset += 30 + name.length + data.length;
  }
  const directorySize = central.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, directorySize, true);
  end.setUint32(16, offset, true);
  return new Uint8Array(await new Blob([...parts, ...central, new Uint8Array(end.buffer)]).arrayBuffer());
}

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** A file whose text is already in the index (what the job does after an upload). */
async function indexedFile(options: Parameters<typeof createFile>[0]) {
  const file = await createFile(options);
  await indexFileContent(ctx(), file.id);
  return file;
}

describe("searching names and contents", () => {
  it("finds a word that appears only inside a PDF and marks it in the snippet", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const pdf = await pdfWith(["Quarterly outlook for the board", "The Zanzibar acquisition closes in March."]);
    const file = await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "outlook.pdf", content: pdf, contentType: "application/pdf" });
    expect(await countWhere("select count(*) as n from search_entries where item_id = ? and content_state = 'indexed'", file.id)).toBe(1);

    const [hit, ...rest] = await search(member.id, { q: "zanzibar" });
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({ kind: "file", id: file.id, title: "outlook.pdf", href: `/files/${file.id}`, place: "My files" });
    expect(hit!.snippet).toContain("The \u0001Zanzibar\u0002 acquisition");
  });

  it("reads plain text, Markdown and CSV, and finds names as they are typed", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "notes.md", content: "# Plan\nCall the *harbourmaster* on Monday", contentType: "text/markdown" });
    await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "ledger.csv", content: "date,payee\n2026-01-02,Harbourmaster Ltd", contentType: "text/csv" });
    await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "Quarterly report.txt", content: "nothing to see", contentType: "text/plain" });
    await makeFolder(space.spaceId, space.rootId, "Quarterly archive");

    expect(titles(await search(member.id, { q: "harbourmaster" }))).toEqual(["ledger.csv", "notes.md"]);
    // The last word is a prefix while it is being typed; a finished word is whole.
    expect(titles(await search(member.id, { q: "quart" }))).toEqual(["Quarterly archive", "Quarterly report.txt"]);
    expect(await search(member.id, { q: "quart " })).toEqual([]);
    expect(titles(await search(member.id, { q: "quart", kind: "folder" }))).toEqual(["Quarterly archive"]);
    // Words in any order, all of them needed; punctuation is not a word.
    expect(titles(await search(member.id, { q: "monday harbourmaster!" }))).toEqual(["notes.md"]);
    expect(await search(member.id, { q: '"" * OR -' })).toEqual([]);
  });

  it("reads a Word document's paragraphs, entities and tabs, and says why an archive that is not one has no text", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const body = '<?xml version="1.0"?><w:document><w:body><w:p><w:r><w:t>Share purchase</w:t></w:r><w:r><w:t xml:space="preserve"> agreement</w:t></w:r></w:p><w:p><w:r><w:t>Seller:</w:t><w:tab/><w:t>Marlin &amp; Co</w:t></w:r></w:p></w:body></w:document>';
    const docx = await zipOf([{ name: "[Content_Types].xml", text: "<Types/>", stored: true }, { name: "word/document.xml", text: body }]);
    const file = await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "SPA draft.docx", content: docx, contentType: DOCX_TYPE });
    const [hit] = await search(member.id, { q: "marlin agreement" });
    expect(hit).toMatchObject({ id: file.id, title: "SPA draft.docx" });
    expect(hit!.snippet).toContain("\u0001Marlin\u0002 & Co");
    const notWord = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "renamed.docx", content: await zipOf([{ name: "readme.txt", text: "hello" }]), contentType: DOCX_TYPE });
    expect(await indexFileContent(ctx(), notWord.id)).toBe("failed");
    expect(await countWhere("select count(*) as n from search_entries where item_id = ? and content_state = 'failed'", notWord.id)).toBe(1);
  });

  it("says why a file has no text: a type it does not read, an empty file", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const image = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "photo.png", content: new Uint8Array([137, 80, 78, 71]), contentType: "image/png" });
    const empty = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "blank.txt", content: "   ", contentType: "text/plain" });
    const broken = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "broken.pdf", content: "%PDF-1.7 not really", contentType: "application/pdf" });
    expect(await indexFileContent(ctx(), image.id)).toBe("unsupported");
    expect(await indexFileContent(ctx(), empty.id)).toBe("empty");
    expect(await indexFileContent(ctx(), broken.id)).toBe("failed");
    // Done once: asking again changes nothing.
    expect(await indexFileContent(ctx(), image.id)).toBe("current");
    // Still found by name.
    expect(titles(await search(member.id, { q: "photo" }))).toEqual(["photo.png"]);
  });
});

describe("search results follow the rights of the person searching", () => {
  async function roomWithDocument() {
    const owner = await signedIn({ tier: "pro" });
    const room = await createRoom(owner.client, "Project Falcon");
    const document = await indexedFile({ spaceId: room.id, folderId: room.rootFolderId, name: "term sheet.txt", content: "The kestrel clause applies.", contentType: "text/plain", uploadedBy: owner.id });
    return { owner, room, document };
  }

  it("an outsider finds nothing of a room; a member finds its files; a guest without view finds nothing", async () => {
    const { owner, room, document } = await roomWithDocument();
    const outsider = await signedIn();
    const member = await signedIn();
    const blindGuest = await signedIn();
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, blindGuest.id, "guest", { view: false });

    expect(await search(outsider.id, { q: "kestrel" })).toEqual([]);
    expect(await search(outsider.id, { q: "falcon" })).toEqual([]);
    expect(await search(blindGuest.id, { q: "kestrel" })).toEqual([]);
    const [hit] = await search(member.id, { q: "kestrel" });
    expect(hit).toMatchObject({ id: document.id, place: "Project Falcon" });
    expect((await search(owner.id, { q: "kestrel" })).map((found) => found.id)).toEqual([document.id]);
    // The room itself, by name, for the people in it.
    expect(await search(member.id, { q: "falcon", kind: "room" })).toMatchObject([{ kind: "room", id: room.id, href: `/dataroom/${room.id}` }]);
  });

  it("hits from a room the member may not view are replaced by the next ones they may open", async () => {
    const { room } = await roomWithDocument();
    const guest = await signedIn();
    await addDataroomMember(room.id, guest.id, "guest", { view: false });
    // Older, in a room the guest may view: the first page (newest first) is all in the blind room.
    const owner2 = await signedIn({ tier: "pro" });
    const open = await createRoom(owner2.client, "Open room");
    await addDataroomMember(open.id, guest.id, "guest");
    const visible = await indexedFile({ spaceId: open.id, folderId: open.rootFolderId, name: "kestrel notes.txt", content: "kestrel", createdAt: new Date(Date.now() - 60_000) });
    for (let index = 0; index < 3; index++) await indexedFile({ spaceId: room.id, folderId: room.rootFolderId, name: `kestrel ${index}.txt`, content: "kestrel" });
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, statements: 0 };
    const hits = await search(guest.id, { q: "kestrel", limit: 2 }, { ...testEnv, DB: countingD1(testEnv.DB, stats) });
    expect(hits.map((hit) => hit.id)).toEqual([visible.id]);
    expect(stats.roundTrips).toBe(2);
  });

  it("a member removed from a room no longer finds its files", async () => {
    const { owner, room } = await roomWithDocument();
    const member = await signedIn();
    await addDataroomMember(room.id, member.id, "member");
    expect(await search(member.id, { q: "kestrel" })).toHaveLength(1);
    expect((await send(owner.client, "DELETE", `/api/datarooms/${room.id}/members/${member.id}`)).status).toBe(200);
    expect(await search(member.id, { q: "kestrel" })).toEqual([]);
  });

  it("a room whose access ended for the member stays out of their results", async () => {
    const { room } = await roomWithDocument();
    const member = await signedIn();
    await addDataroomMember(room.id, member.id, "member");
    await testEnv.DB.prepare("update dataroom_members set access_expires_at = ? where dataroom_id = ? and user_id = ?").bind(Date.now() - 1000, room.id, member.id).run();
    await testEnv.DATA_ROOM.getByName(room.id).reload(room.id);
    expect(await search(member.id, { q: "kestrel" })).toEqual([]);
  });

  it("the API answers members only, and refuses a query it cannot run with a message", async () => {
    const { owner } = await roomWithDocument();
    expect((await get("/api/search?q=kestrel")).status).toBe(401);
    const found = await get("/api/search?q=kestrel", owner.client);
    expect(found.status).toBe(200);
    expect((await found.json<{ hits: SearchHit[] }>()).hits.map((hit) => hit.title)).toEqual(["term sheet.txt"]);
    const tooLong = await get(`/api/search?q=${"a".repeat(201)}`, owner.client);
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json<{ message: string }>()).message).toContain("at most 200 characters");
    const badKind = await get("/api/search?q=x&kind=planets", owner.client);
    expect(badKind.status).toBe(400);
    expect((await badKind.json<{ message: string }>()).message).toContain("Choose what to search");
  });
});

describe("the index keeps up with changes", () => {
  it("after a rename the new name is found and the old one is not", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const file = await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "draft-pelican.txt", content: "text" });
    await renameFile(testContext(), member.id, file.id, { name: "final-osprey.txt" });
    expect(await search(member.id, { q: "pelican" })).toEqual([]);
    expect(titles(await search(member.id, { q: "osprey" }))).toEqual(["final-osprey.txt"]);
  });

  it("after a move the file is still found, in its new folder, and a moved folder's files with it", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const archive = await makeFolder(space.spaceId, space.rootId, "Archive 2025");
    const file = await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "lease.txt", content: "the ptarmigan lease" });
    await moveItems(testContext(), member.id, { items: [{ type: "file", id: file.id }], targetFolderId: archive });
    const [hit] = await search(member.id, { q: "ptarmigan" });
    expect(hit).toMatchObject({ id: file.id, href: `/files/${file.id}` });
    expect(await countWhere("select count(*) as n from files where id = ? and folder_id = ?", file.id, archive)).toBe(1);
    const shelf = await makeFolder(space.spaceId, space.rootId, "Shelf");
    await moveItems(testContext(), member.id, { items: [{ type: "folder", id: archive }], targetFolderId: shelf });
    expect(titles(await search(member.id, { q: "ptarmigan" }))).toEqual(["lease.txt"]);
    expect(await search(member.id, { q: "archive", kind: "folder" })).toMatchObject([{ id: archive, href: `/folders/${archive}` }]);
  });

  it("a trashed file is not found, a restored one is, and a purged one leaves nothing in the index", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const file = await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "budget.txt", content: "flamingo figures" });
    await deleteItems(testContext(), member.id, { items: [{ type: "file", id: file.id }] });
    expect(await search(member.id, { q: "flamingo" })).toEqual([]);
    await restoreItems(testContext(), member.id, { items: [{ type: "file", id: file.id }] });
    expect(titles(await search(member.id, { q: "flamingo" }))).toEqual(["budget.txt"]);
    await deleteItems(testContext(), member.id, { items: [{ type: "file", id: file.id }] });
    await testEnv.DB.prepare("update files set trashed_at = ? where id = ?").bind(Date.now() - 31 * 24 * 60 * 60 * 1000, file.id).run();
    await purgeExpiredRows(testContext());
    expect(await countWhere("select count(*) as n from files where id = ?", file.id)).toBe(0);
    expect(await countWhere("select count(*) as n from search_entries where item_id = ?", file.id)).toBe(0);
    expect(await countWhere("select count(*) as n from search_text where search_text match 'flamingo'")).toBe(0);
  });

  it("a new version replaces the text: the old words are gone until the new ones are read", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const file = await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "memo.txt", content: "albatross" });
    const r2Key = `files/${space.spaceId}/${crypto.randomUUID()}`;
    await testEnv.FILES.put(r2Key, "cormorant");
    await testEnv.DB.prepare("update files set r2_key = ?, size = 9, sha256 = null, version = 2 where id = ?").bind(r2Key, file.id).run();
    expect(await search(member.id, { q: "albatross" })).toEqual([]);
    expect(await indexFileContent(ctx(), file.id)).toBe("indexed");
    expect(titles(await search(member.id, { q: "cormorant" }))).toEqual(["memo.txt"]);
  });

  it("the extraction job can be delivered twice and reads the file once", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const file = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "twice.txt", content: "puffin" });
    const { jobId } = { jobId: `search.extract:${file.r2Key}` };
    await requestContentIndexing(ctx(), file.id, file.r2Key);
    for (let delivery = 0; delivery < 2; delivery++) {
      const body = { jobId, type: "search.extract", version: 1, payload: { fileId: file.id } };
      const batch = createMessageBatch("batch-jobs", [{ id: `extract-${delivery}`, timestamp: new Date(), attempts: 1, body }]);
      const execution = createExecutionContext();
      await worker.queue(batch, testEnv, execution);
      await waitOnExecutionContext(execution);
      expect((await getQueueResult(batch, execution)).retryMessages).toHaveLength(0);
    }
    expect(titles(await search(member.id, { q: "puffin" }))).toEqual(["twice.txt"]);
    expect(await countWhere("select count(*) as n from jobs where id = ? and status = 'completed'", jobId)).toBe(1);
  });
});

describe("filters and the other kinds", () => {
  it("finds the member's own share links, receive pages, secrets and forms by title, never someone else's or a deleted one", async () => {
    const member = await signedIn();
    const other = await signedIn();
    const space = await personalSpaceOf(member.id);
    const now = Date.now();
    await testEnv.DB.batch([
      testEnv.DB.prepare("insert into share_links (id, token_hash, token_sealed, name, target_type, target_id, space_id, created_by, created_at, updated_at) values (?, ?, 'x', 'Heron teaser', 'folder', ?, ?, ?, ?, ?)").bind(crypto.randomUUID(), crypto.randomUUID(), space.rootId, space.spaceId, member.id, now, now),
      testEnv.DB.prepare("insert into receive_pages (id, user_id, token_hash, token_sealed, kind, title, space_id, folder_id, created_at, updated_at) values (?, ?, ?, 'x', 'simple', 'Heron intake', ?, ?, ?, ?)").bind(crypto.randomUUID(), member.id, crypto.randomUUID(), space.spaceId, space.inboxId, now, now),
      testEnv.DB.prepare("insert into secrets (id, user_id, token_hash, label, ciphertext, proof_hash, max_views, expires_at, created_at, updated_at) values (?, ?, ?, 'Heron password', 'c', 'p', 1, ?, ?, ?)").bind(crypto.randomUUID(), member.id, crypto.randomUUID(), now + 86_400_000, now, now),
      testEnv.DB.prepare("insert into secrets (id, user_id, token_hash, label, ciphertext, proof_hash, max_views, expires_at, created_at, updated_at) values (?, ?, ?, 'Heron other', 'c', 'p', 1, ?, ?, ?)").bind(crypto.randomUUID(), other.id, crypto.randomUUID(), now + 86_400_000, now, now),
      testEnv.DB.prepare("insert into forms (id, user_id, title, draft, created_at, updated_at) values (?, ?, 'Heron onboarding', '{\"fields\":[],\"rules\":[]}', ?, ?)").bind(crypto.randomUUID(), member.id, now, now),
      testEnv.DB.prepare("insert into forms (id, user_id, title, draft, created_at, updated_at, deleted_at) values (?, ?, 'Heron deleted', '{\"fields\":[],\"rules\":[]}', ?, ?, ?)").bind(crypto.randomUUID(), member.id, now, now, now),
      testEnv.DB.prepare("insert into forms (id, user_id, title, draft, created_at, updated_at) values (?, ?, 'Heron theirs', '{\"fields\":[],\"rules\":[]}', ?, ?)").bind(crypto.randomUUID(), other.id, now, now),
    ]);
    const hits = await search(member.id, { q: "heron" });
    expect(hits.map((hit) => `${hit.kind}: ${hit.title}`).sort()).toEqual(["form: Heron onboarding", "receive-page: Heron intake", "secret: Heron password", "share-link: Heron teaser"]);
    expect(await search(member.id, { q: "heron", owner: "others" })).toEqual([]);
    expect(titles(await search(member.id, { q: "heron", kind: "secret" }))).toEqual(["Heron password"]);
  });

  it("narrows by place, owner and date", async () => {
    const owner = await signedIn({ tier: "pro" });
    const member = await signedIn();
    const room = await createRoom(owner.client, "Egret room");
    await addDataroomMember(room.id, member.id, "member");
    const space = await personalSpaceOf(member.id);
    const old = new Date(Date.now() - 60 * 24 * 60 * 60 * 1000);
    await indexedFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "mine.txt", content: "egret", uploadedBy: member.id, createdAt: old });
    await indexedFile({ spaceId: room.id, folderId: room.rootFolderId, name: "theirs.txt", content: "egret", uploadedBy: owner.id });

    expect(titles(await search(member.id, { q: "egret", kind: "file" }))).toEqual(["mine.txt", "theirs.txt"]);
    expect(titles(await search(member.id, { q: "egret", kind: "file", place: "personal" }))).toEqual(["mine.txt"]);
    expect(titles(await search(member.id, { q: "egret", kind: "file", place: room.id }))).toEqual(["theirs.txt"]);
    expect(titles(await search(member.id, { q: "egret", kind: "file", owner: "me" }))).toEqual(["mine.txt"]);
    expect(titles(await search(member.id, { q: "egret", kind: "file", owner: "others" }))).toEqual(["theirs.txt"]);
    expect(titles(await search(member.id, { q: "egret", kind: "file", date: "30d" }))).toEqual(["theirs.txt"]);
    // A place that is not one of the member's spaces finds nothing.
    expect(await search(member.id, { q: "egret", place: crypto.randomUUID() })).toEqual([]);
  });

  it("costs the same round trips for 10 matching files as for 300", async () => {
    async function tripsFor(count: number) {
      const member = await signedIn();
      const space = await personalSpaceOf(member.id);
      const folder = await makeFolder(space.spaceId, space.rootId, "Bulk");
      const values = Array.from({ length: count }, (_, index) => index);
      for (let start = 0; start < count; start += 50) {
        await Promise.all(values.slice(start, start + 50).map((index) => createFile({ spaceId: space.spaceId, folderId: folder, name: `ibis ${index}.txt`, content: `ibis ${index}` })));
      }
      const stats: D1Stats = { roundTrips: 0, rowsRead: 0, statements: 0 };
      const hits = await search(member.id, { q: "ibis" }, { ...testEnv, DB: countingD1(testEnv.DB, stats) });
      expect(hits.length).toBe(Math.min(count, 20));
      return stats.roundTrips;
    }
    // One D1 batch: the member's spaces and every source's statements together (G11).
    expect(await tripsFor(300)).toBe(1);
    expect(await tripsFor(10)).toBe(1);
  });
});
