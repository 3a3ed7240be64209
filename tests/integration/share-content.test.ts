import { exports } from "cloudflare:workers";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { countShareVisit, openShareLink, passShareGate, signVisit, type ShareOpening } from "~/features/sharing/share-access.server";
import { createFile, makeFolder, testContext } from "~tests/factories/files";
import { createRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { origin } from "./helpers";
import { hexOf, pageContents } from "./pdf-helpers";

/**
 * A share link's documents for its visitor (issue 21, step 3): only what the link covers, only
 * after the gates and the counted visit, with the room's rules winning over the link's.
 */

type Link = { id: string; url: string };
const keyOf = (link: Link) => link.url.split("/s/")[1]!;

/** A visit that passed every gate and was counted, as the link's page leaves it in its cookie. */
async function counted(key: string, gates: unknown[] = []): Promise<string> {
  let cookie: string | null = null;
  for (const gate of gates) cookie = (await passShareGate(testContext(), key, cookie, gate)).cookie;
  const opening = (await openShareLink(testContext(), key, cookie)) as Extract<ShareOpening, { state: "open" }>;
  expect(opening.state).toBe("open");
  return signVisit(testContext(), (await countShareVisit(testContext(), opening)).visit);
}

function fetchShared(key: string, fileId: string, mode: "preview" | "download", cookie: string | null, headers: Record<string, string> = {}) {
  return exports.default.fetch(`${origin}/s/${key}/files/${fileId}/${mode}`, { headers: { ...(cookie ? { cookie: `share_visit=${cookie}` } : {}), ...headers } });
}

async function makePdf(): Promise<Uint8Array<ArrayBuffer>> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([595, 842]).drawText("Shared board pack", { x: 50, y: 780, size: 18, font });
  return new Uint8Array(await document.save());
}

describe("a share link's documents", () => {
  let owner: Person;
  let room: { id: string; rootFolderId: string };
  let memo: { id: string };
  let other: { id: string };
  let nested: { id: string };
  let folderId: string;
  const link = async (options: Record<string, unknown>) => {
    const response = await send(owner.client, "POST", "/api/share-links", options);
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json<{ link: Link }>()).link;
  };
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Dora Sharer" });
    room = await createRoom(owner.client, "Shared room");
    memo = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "memo.txt", content: "the shared memo" });
    other = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "other.txt", content: "not shared" });
    folderId = await makeFolder(room.id, room.rootFolderId, "Legal");
    const inner = await makeFolder(room.id, folderId, "Contracts");
    nested = await createFile({ spaceId: room.id, folderId: inner, name: "contract.txt", content: "deep inside" });
  });

  it("gives the linked file, whole and by range, after the gates and the counted visit, and nothing else", async () => {
    const shared = await link({ target: { type: "file", id: memo.id }, password: "open up" });
    const key = keyOf(shared);
    expect((await fetchShared(key, memo.id, "preview", null)).status).toBe(403);
    const cookie = await counted(key, [{ gate: "password", password: "open up" }]);
    const whole = await fetchShared(key, memo.id, "preview", cookie);
    expect(whole.status).toBe(200);
    expect(await whole.text()).toBe("the shared memo");
    expect(whole.headers.get("content-security-policy")).toContain("sandbox");
    const part = await fetchShared(key, memo.id, "preview", cookie, { range: "bytes=4-9" });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe("shared");
    expect((await fetchShared(key, memo.id, "download", cookie)).headers.get("content-disposition")).toContain("attachment");
    // Another file of the same room is not part of this link.
    const outside = await fetchShared(key, other.id, "preview", cookie);
    expect(outside.status).toBe(404);
    expect((await outside.json<{ message: string }>()).message).toBe("This document is not part of this link.");
  });

  it("covers what is inside a shared folder, at any depth, and a whole room's files", async () => {
    const folderKey = keyOf(await link({ target: { type: "folder", id: folderId } }));
    const folderCookie = await counted(folderKey);
    expect(await (await fetchShared(folderKey, nested.id, "preview", folderCookie)).text()).toBe("deep inside");
    expect((await fetchShared(folderKey, memo.id, "preview", folderCookie)).status).toBe(404);
    const roomKey = keyOf(await link({ target: { type: "room", id: room.id } }));
    const roomCookie = await counted(roomKey);
    expect(await (await fetchShared(roomKey, other.id, "preview", roomCookie)).text()).toBe("not shared");
    // A visit of the folder link opens nothing through the room link.
    expect((await fetchShared(roomKey, nested.id, "preview", folderCookie)).status).toBe(403);
  });

  it("refuses downloads on a view-only link, and when the room's download protection is on whatever the link allows", async () => {
    const viewOnly = keyOf(await link({ target: { type: "file", id: memo.id }, allowDownload: false }));
    const cookie = await counted(viewOnly);
    expect((await fetchShared(viewOnly, memo.id, "preview", cookie)).status).toBe(200);
    const refused = await fetchShared(viewOnly, memo.id, "download", cookie);
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toBe("Downloading is turned off for this link: you can view the document here, but not download it.");

    const open = keyOf(await link({ target: { type: "file", id: memo.id } }));
    const openCookie = await counted(open);
    expect((await fetchShared(open, memo.id, "download", openCookie)).status).toBe(200);
    expect((await send(owner.client, "PUT", `/api/datarooms/${room.id}/security/protection`, { watermark: null, downloadProtection: true, printProtection: false })).status).toBe(200);
    expect((await fetchShared(open, memo.id, "download", openCookie)).status).toBe(403);
    expect((await send(owner.client, "PUT", `/api/datarooms/${room.id}/security/protection`, { watermark: null, downloadProtection: false, printProtection: false })).status).toBe(200);
  });

  it("stamps the visitor's verified e-mail into a watermarked link's PDF, and logs the opening with the link and address", async () => {
    const pdf = await makePdf();
    const deck = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "deck.pdf", content: pdf, contentType: "application/pdf" });
    const shared = await link({ target: { type: "file", id: deck.id }, requireEmail: true, watermark: true, name: "Investor link" });
    const key = keyOf(shared);
    const cookie = await counted(key, [{ gate: "email", email: "investor@fund.example" }]);
    const response = await fetchShared(key, deck.id, "preview", cookie);
    expect(response.status).toBe(200);
    const stamped = new Uint8Array(await response.arrayBuffer());
    expect(stamped).not.toEqual(pdf);
    const [page] = await pageContents(stamped);
    expect(page).toContain(hexOf("investor@fund.example"));
    const { entries } = await (await send(owner.client, "GET", `/api/datarooms/${room.id}/audit?action=file.view`)).json<{ entries: { actorEmail: string | null; detail: string | null; targetName: string }[] }>();
    expect(entries[0]).toMatchObject({ actorEmail: null, targetName: "deck.pdf", detail: "share link “Investor link”, investor@fund.example, watermarked copy" });
  });

  it("stops serving at the next request once the link is revoked", async () => {
    const shared = await link({ target: { type: "file", id: memo.id } });
    const key = keyOf(shared);
    const cookie = await counted(key);
    expect((await fetchShared(key, memo.id, "preview", cookie)).status).toBe(200);
    expect((await send(owner.client, "POST", `/api/share-links/${shared.id}/revoke`)).status).toBe(200);
    const gone = await fetchShared(key, memo.id, "preview", cookie);
    expect(gone.status).toBe(404);
    expect((await gone.json<{ message: string }>()).message).toBe("The preview link has expired. Please try refreshing the page.");
  });
});
