import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { readShareVisitCookie, recordSharePageTime, shareVisitCookie, viewSharePage, passSharePageGate, type ShareViewerPage } from "~/features/sharing/share-viewer.server";
import { createFile, makeFolder, testContext } from "~tests/factories/files";
import { countWhere, createRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { origin } from "./helpers";

/**
 * The share viewer's page (issue 21, step 4): what a visitor sees at /s/{key} and
 * /s/{key}/files/{id} (the gates, then the document or the folder's contents, under the link's
 * and the room's rules), the visit it records, and the time per page it reports.
 */

type Link = { id: string; url: string };
const keyOf = (link: Link) => link.url.split("/s/")[1]!;
const ctx = () => testContext();
type Open = Extract<ShareViewerPage, { state: "open" }>;

async function openPage(key: string, cookie: string | null = null, where: { fileId?: string; folderId?: string | null } = {}) {
  const result = await viewSharePage(ctx(), key, cookie, where);
  return { page: result.page, cookie: result.cookie ?? cookie };
}

describe("the share viewer's page", () => {
  let owner: Person;
  let room: { id: string; rootFolderId: string };
  let deck: { id: string };
  let legal: string;
  let contracts: string;
  let contract: { id: string };
  let outside: { id: string };
  const link = async (options: Record<string, unknown>) => {
    const response = await send(owner.client, "POST", "/api/share-links", options);
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json<{ link: Link }>()).link;
  };
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Vic Viewer" });
    room = await createRoom(owner.client, "Harbour deal");
    deck = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "deck.pdf", content: "%PDF-1.4 deck", contentType: "application/pdf" });
    legal = await makeFolder(room.id, room.rootFolderId, "Legal");
    contracts = await makeFolder(room.id, legal, "Contracts");
    contract = await createFile({ spaceId: room.id, folderId: contracts, name: "contract.txt", content: "deep inside" });
    outside = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "outside.txt", content: "not in Legal" });
  });

  it("shows a file link's document once the visit is counted, records the visit once, and keeps it in a cookie scoped to the link", async () => {
    const shared = await link({ target: { type: "file", id: deck.id }, name: "For Ann" });
    const first = await openPage(keyOf(shared));
    expect(first.page).toMatchObject({ state: "open", targetName: "deck.pdf", rules: { canDownload: true, watermarked: false, printProtected: false }, content: { kind: "file", file: { id: deck.id, name: "deck.pdf", type: "application/pdf" }, crumbs: [] } });
    const again = await openPage(keyOf(shared), first.cookie);
    expect(again.page.state).toBe("open");
    expect(await countWhere("select view_count as n from share_links where id = ?", shared.id)).toBe(1);
    expect(await countWhere("select count(*) as n from share_link_visits where link_id = ?", shared.id)).toBe(1);

    const header = shareVisitCookie(keyOf(shared), first.cookie!, true);
    expect(header).toBe(`share_visit=${first.cookie}; Path=/s/${keyOf(shared)}; Max-Age=43200; HttpOnly; SameSite=Lax; Secure`);
    expect(readShareVisitCookie(`a=b; share_visit=${first.cookie}; c=d`)).toBe(first.cookie);
  });

  it("walks the gates as the page's forms post them, then opens", async () => {
    const gated = await link({ target: { type: "file", id: deck.id }, password: "blue harbour", requireEmail: true, agreement: "Keep it secret." });
    const key = keyOf(gated);
    expect((await openPage(key)).page).toMatchObject({ state: "gate", gate: "password", targetName: "deck.pdf", agreement: null });
    const password = await passSharePageGate(ctx(), key, null, { gate: "password", password: "blue harbour" }, {});
    expect(password.page).toMatchObject({ state: "gate", gate: "email" });
    const email = await passSharePageGate(ctx(), key, password.cookie, { gate: "email", email: "ann@harbour.vc" }, {});
    expect(email.page).toMatchObject({ state: "gate", gate: "agreement", agreement: "Keep it secret." });
    await expect(passSharePageGate(ctx(), key, email.cookie, { gate: "agreement", name: "Ann Harbour", accept: false }, {})).rejects.toMatchObject({ status: 400 });
    const agreed = await passSharePageGate(ctx(), key, email.cookie, { gate: "agreement", name: "Ann Harbour", accept: true }, {});
    expect(agreed.page).toMatchObject({ state: "open", visitorEmail: "ann@harbour.vc" });
    expect(await countWhere("select count(*) as n from share_link_visits where link_id = ? and email = 'ann@harbour.vc'", gated.id)).toBe(1);
  });

  it("lists a folder link's folder, opens its subfolders and files at any depth, and refuses anything outside it", async () => {
    const shared = await link({ target: { type: "folder", id: legal } });
    const key = keyOf(shared);
    const { page, cookie } = await openPage(key);
    expect(page).toMatchObject({ state: "open", content: { kind: "folder", folder: { id: legal, name: "Legal" }, folders: [{ id: contracts, name: "Contracts" }], files: [] } });
    const sub = (await openPage(key, cookie, { folderId: contracts })).page as Open;
    expect(sub.content).toMatchObject({ kind: "folder", crumbs: [{ id: legal, name: "Legal" }, { id: contracts, name: "Contracts" }], files: [{ id: contract.id, name: "contract.txt" }] });
    const file = (await openPage(key, cookie, { fileId: contract.id })).page as Open;
    expect(file.content).toMatchObject({ kind: "file", file: { id: contract.id }, crumbs: [{ name: "Legal" }, { name: "Contracts" }] });

    await expect(openPage(key, cookie, { folderId: room.rootFolderId })).rejects.toMatchObject({ status: 404, message: "This folder is not part of this link." });
    await expect(openPage(key, cookie, { fileId: outside.id })).rejects.toMatchObject({ status: 404, message: "This document is not part of this link." });
    // Another link's visit opens nothing here.
    const other = await link({ target: { type: "file", id: outside.id } });
    const theirs = await openPage(keyOf(other));
    expect((await openPage(key, theirs.cookie)).page.state).toBe("open");
    expect(await countWhere("select view_count as n from share_links where id = ?", shared.id)).toBe(2);
  });

  it("starts a room link at the room's top, named after the room", async () => {
    const shared = await link({ target: { type: "room", id: room.id } });
    const page = (await openPage(keyOf(shared))).page as Open;
    expect(page.content).toMatchObject({ kind: "folder", folder: { id: room.rootFolderId, name: "Harbour deal" }, folders: [{ name: "Legal" }] });
    expect((page.content as { files: { name: string }[] }).files.map((file) => file.name)).toEqual(["deck.pdf", "outside.txt"]);
  });

  it("lets the room's download protection, watermark and print protection win over the link's options", async () => {
    const shared = await link({ target: { type: "file", id: deck.id }, allowDownload: true });
    const protection = { watermark: { template: "{{email}}", opacity: 0.2, fontSize: 18, position: "tiled" }, downloadProtection: true, printProtection: true };
    expect((await send(owner.client, "PUT", `/api/datarooms/${room.id}/security/protection`, protection)).status).toBe(200);
    try {
      expect((await openPage(keyOf(shared))).page).toMatchObject({ state: "open", rules: { canDownload: false, watermarked: true, printProtected: true } });
    } finally {
      await send(owner.client, "PUT", `/api/datarooms/${room.id}/security/protection`, { watermark: null, downloadProtection: false, printProtection: false });
    }
  });

  it("shows the expired display for a revoked, past or used-up link, and 404 for an unknown one", async () => {
    const revoked = await link({ target: { type: "file", id: deck.id } });
    await send(owner.client, "POST", `/api/share-links/${revoked.id}/revoke`, {});
    expect((await openPage(keyOf(revoked))).page).toEqual({ state: "expired", reason: "Revoked" });
    const once = await link({ target: { type: "file", id: deck.id }, maxViews: 1 });
    const firstVisitor = await openPage(keyOf(once));
    expect(firstVisitor.page.state).toBe("open");
    expect((await openPage(keyOf(once))).page).toEqual({ state: "expired", reason: "View limit reached" });
    // The visitor already counted keeps reading.
    expect((await openPage(keyOf(once), firstVisitor.cookie)).page.state).toBe("open");
    await expect(openPage("no-such-link")).rejects.toMatchObject({ status: 404 });
  });

  it("keeps the viewer's time per page for a counted visit of a covered file, and refuses it otherwise", async () => {
    const shared = await link({ target: { type: "folder", id: legal } });
    const key = keyOf(shared);
    await expect(recordSharePageTime(ctx(), key, null, contract.id, { pages: { "1": 5_000 } })).rejects.toMatchObject({ status: 403 });
    const { cookie } = await openPage(key);
    await recordSharePageTime(ctx(), key, cookie, contract.id, { pages: { "1": 5_000, "2": 1_000, "9": 700 }, pageCount: 3 });
    await recordSharePageTime(ctx(), key, cookie, contract.id, { pages: { "1": 2_500 }, pageCount: 3 });
    await expect(recordSharePageTime(ctx(), key, cookie, outside.id, { pages: { "1": 5_000 } })).rejects.toMatchObject({ status: 404 });
    await expect(recordSharePageTime(ctx(), key, cookie, contract.id, { pages: { "0": 5_000 } })).rejects.toMatchObject({ status: 400 });
    const visit = await countWhere("select count(*) as n from share_link_visits where link_id = ?", shared.id);
    expect(visit).toBe(1);
    expect(await countWhere("select sum(ms) as n from share_visit_pages p join share_link_visits v on v.id = p.visit_id where v.link_id = ? and page = 1", shared.id)).toBe(7_500);
    // A page past the document's end is not kept.
    expect(await countWhere("select count(*) as n from share_visit_pages p join share_link_visits v on v.id = p.visit_id where v.link_id = ?", shared.id)).toBe(2);
  });

  it("counts a visit's openings and downloads on the server as the bytes leave (a later range is not a new opening)", async () => {
    const shared = await link({ target: { type: "folder", id: legal } });
    const key = keyOf(shared);
    const { cookie } = await openPage(key);
    const fetchShared = (mode: string, headers: Record<string, string> = {}) =>
      exports.default.fetch(`${origin}/s/${key}/files/${contract.id}/${mode}`, { headers: { cookie: `share_visit=${cookie}`, ...headers } });
    expect((await fetchShared("preview")).status).toBe(200);
    expect((await fetchShared("preview", { Range: "bytes=4-7" })).status).toBe(206);
    expect((await fetchShared("download")).status).toBe(200);
    const row = `select %s as n from share_visit_files f join share_link_visits v on v.id = f.visit_id where v.link_id = ? and f.file_id = ?`;
    expect(await countWhere(row.replace("%s", "opens"), shared.id, contract.id)).toBe(1);
    expect(await countWhere(row.replace("%s", "downloads"), shared.id, contract.id)).toBe(1);
  });
});
