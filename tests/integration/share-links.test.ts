import { beforeAll, describe, expect, it } from "vitest";
import { hashLinkToken } from "~/features/auth/secrets.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, personalSpaceOf } from "~tests/factories/files";
import { countWhere, createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv } from "./helpers";

/**
 * Managing share links (issue 21, step 1): creating a link to a file, a folder or a room with its
 * options, the plan's options, listing a room's links, changing and revoking one, and who may.
 */

type Link = {
  id: string;
  url: string;
  slug: string | null;
  target: { type: string; id: string; name: string };
  hasPassword: boolean;
  status: string;
  allowDownload: boolean;
  requireEmail: boolean;
  allowList: string[];
  expiresAt: string | null;
  maxViews: number | null;
  revokedAt: string | null;
};

async function create(person: Person, body: unknown) {
  return send(person.client, "POST", "/api/share-links", body);
}
const inADay = () => new Date(Date.now() + 24 * 3600_000).toISOString();

describe("share links", () => {
  let owner: Person;
  let member: Person;
  let guest: Person;
  let room: { id: string; rootFolderId: string };
  let fileId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Sara Sharer" });
    member = await signedIn({ name: "Mo Member" });
    guest = await signedIn({ name: "Gia Guest" });
    room = await createRoom(owner.client, "Series A");
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, guest.id, "guest");
    fileId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "deck.pdf", uploadedBy: owner.id })).id;
  });

  it("creates a link to a room file with its options; the token is 256 random bits, stored only hashed and sealed", async () => {
    const response = await create(owner, {
      target: { type: "file", id: fileId },
      name: "For Acme Ventures",
      password: "open sesame",
      expiresAt: inADay(),
      maxViews: 10,
      requireEmail: true,
      verifyEmail: true,
      allowList: ["Partner@Acme.vc", "@acme.vc", "@acme.vc"],
      denyList: ["@rival.com"],
      agreement: "You agree to keep this confidential.",
      allowDownload: false,
      watermark: true,
      printProtection: true,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { link } = await response.json<{ link: Link }>();
    expect(link).toMatchObject({ target: { type: "file", id: fileId, name: "deck.pdf" }, hasPassword: true, status: "active", allowDownload: false, allowList: ["partner@acme.vc", "@acme.vc"], maxViews: 10 });
    const token = link.url.split("/s/")[1]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await testEnv.DB.prepare("select token_hash as tokenHash, token_sealed as tokenSealed, password_hash as passwordHash from share_links where id = ?").bind(link.id).first<{ tokenHash: string; tokenSealed: string; passwordHash: string }>();
    expect(row!.tokenHash).toBe(hashLinkToken(token));
    expect(row!.tokenSealed).not.toContain(token);
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(row!.passwordHash).not.toContain("open sesame");
  });

  it("shares a folder and the whole room, with a custom address that must be free and well formed", async () => {
    const folder = await create(owner, { target: { type: "folder", id: room.rootFolderId }, slug: "Series-A-Docs" });
    expect(folder.status).toBe(201);
    expect((await folder.json<{ link: Link }>()).link).toMatchObject({ slug: "series-a-docs", target: { type: "folder" } });
    const whole = await create(owner, { target: { type: "room", id: room.id } });
    expect((await whole.json<{ link: Link }>()).link.target).toEqual({ type: "room", id: room.id, name: "Series A" });

    const taken = await create(owner, { target: { type: "file", id: fileId }, slug: "series-a-docs" });
    expect(taken.status).toBe(409);
    expect((await taken.json<{ message: string }>()).message).toBe("The custom address “series-a-docs” is already taken. Choose another.");
    const wrong = await create(owner, { target: { type: "file", id: fileId }, slug: "-no good-" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json<{ message: string }>()).message).toContain("A custom address uses lower-case letters, digits and dashes");
    const reserved = await create(owner, { target: { type: "file", id: fileId }, slug: "settings" });
    expect((await reserved.json<{ message: string }>()).message).toContain("That custom address is reserved.");
  });

  it("refuses incoherent options with a reason and writes nothing", async () => {
    const before = await countWhere("select count(*) as n from share_links");
    const cases: [unknown, string][] = [
      [{ expiresAt: new Date(Date.now() - 60_000).toISOString() }, "The expiry must be in the future."],
      [{ allowList: ["@acme.vc"] }, "Allow and deny lists and e-mail verification need visitors to give their e-mail address."],
      [{ requireEmail: true, allowList: ["not an address"] }, "“not an address” is neither an e-mail address nor a domain like @example.com."],
      [{ password: "abc" }, "A link password has at least 4 characters."],
      [{ maxViews: 0 }, "The view limit is at least 1."],
      [{ expiresAt: "next week" }, "The expiry must be a date and time"],
    ];
    for (const [options, message] of cases) {
      const response = await create(owner, { target: { type: "file", id: fileId }, ...(options as object) });
      expect(response.status, message).toBe(400);
      expect((await response.json<{ message: string }>()).message).toContain(message);
    }
    expect(await countWhere("select count(*) as n from share_links")).toBe(before);
  });

  it("checks plan options against the plan of whoever owns the files", async () => {
    const free = await signedIn({ name: "Fay Free" });
    const freeRoom = await createRoom(free.client, "Free room");
    const freeFile = await createFile({ spaceId: freeRoom.id, folderId: freeRoom.rootFolderId, name: "memo.pdf" });
    const plain = await create(free, { target: { type: "file", id: freeFile.id }, password: "letmein" });
    expect(plain.status).toBe(201);
    const watermark = await create(free, { target: { type: "file", id: freeFile.id }, watermark: true });
    expect(watermark.status).toBe(403);
    expect((await watermark.json<{ message: string }>()).message).toBe("You don't have the required feature: watermarking. It is part of the Pro plan and above.");
    const expiring = await create(free, { target: { type: "file", id: freeFile.id }, expiresAt: inADay() });
    expect((await expiring.json<{ message: string }>()).message).toBe("You don't have the required feature: time_limited_access. It is part of the Basic plan and above.");
  });

  it("lists the room's links for people with share, changes options and revokes (twice changes nothing)", async () => {
    const list = await get(`/api/datarooms/${room.id}/share-links`, owner.client);
    expect(list.status).toBe(200);
    const { links } = await list.json<{ links: Link[] }>();
    expect(links.length).toBeGreaterThanOrEqual(3);
    const target = links.find((link) => link.target.type === "room")!;

    const changed = await send(owner.client, "PATCH", `/api/share-links/${target.id}`, { name: "Whole room", maxViews: 5, password: "new secret" });
    expect(changed.status).toBe(200);
    expect((await changed.json<{ link: Link & { name: string } }>()).link).toMatchObject({ name: "Whole room", maxViews: 5, hasPassword: true });
    const cleared = await send(owner.client, "PATCH", `/api/share-links/${target.id}`, { password: null });
    expect((await cleared.json<{ link: Link }>()).link.hasPassword).toBe(false);

    const revoked = await send(owner.client, "POST", `/api/share-links/${target.id}/revoke`);
    expect((await revoked.json<{ link: Link }>()).link).toMatchObject({ status: "revoked" });
    const again = await send(owner.client, "POST", `/api/share-links/${target.id}/revoke`);
    expect(again.status).toBe(200);
    const afterRevoke = await send(owner.client, "PATCH", `/api/share-links/${target.id}`, { name: "x" });
    expect(afterRevoke.status).toBe(409);
    expect((await afterRevoke.json<{ message: string }>()).message).toBe("This link was revoked and cannot be changed. Create a new link instead.");
  });

  it("records links in the room's audit log", async () => {
    const { entries } = await (await get(`/api/datarooms/${room.id}/audit`, owner.client)).json<{ entries: { action: string }[] }>();
    expect(new Set(entries.map((entry) => entry.action).filter((action) => action.startsWith("share.")))).toEqual(new Set(["share.create", "share.update", "share.revoke"]));
  });

  it("answers anonymous 401, an outsider 404 (nothing written), a guest without share 403, and an archived room 409", async () => {
    const outsider = await signedIn();
    const linkId = (await (await get(`/api/datarooms/${room.id}/share-links`, owner.client)).json<{ links: Link[] }>()).links[0]!.id;
    const before = await countWhere("select count(*) as n from share_links");
    expect((await send(await newAuthClient(), "POST", "/api/share-links", { target: { type: "file", id: fileId } })).status).toBe(401);
    expect((await create(outsider, { target: { type: "file", id: fileId } })).status).toBe(404);
    expect((await create(outsider, { target: { type: "room", id: room.id } })).status).toBe(404);
    expect((await send(outsider.client, "PATCH", `/api/share-links/${linkId}`, { name: "mine" })).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/share-links/${linkId}/revoke`)).status).toBe(404);
    expect((await get(`/api/datarooms/${room.id}/share-links`, outsider.client)).status).toBe(404);
    expect((await send(outsider.client, "POST", "/api/share-links/not-an-id/revoke")).status).toBe(404);

    const refused = await create(guest, { target: { type: "file", id: fileId } });
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toBe("You don't have permission to share from this data room.");
    expect((await send(guest.client, "POST", `/api/share-links/${linkId}/revoke`)).status).toBe(403);
    expect((await create(member, { target: { type: "file", id: fileId } })).status).toBe(403);
    expect(await countWhere("select count(*) as n from share_links")).toBe(before);

    expect((await send(owner.client, "POST", `/api/datarooms/${room.id}/archive`)).status).toBe(200);
    expect((await create(owner, { target: { type: "file", id: fileId } })).status).toBe(409);
    expect((await send(owner.client, "POST", `/api/datarooms/${room.id}/unarchive`)).status).toBe(200);
  });

  it("lets the owner of personal files share them, and nobody else", async () => {
    const personal = await personalSpaceOf(member.id);
    const own = await createFile({ spaceId: personal.spaceId, folderId: personal.rootId, name: "cv.pdf" });
    const response = await create(member, { target: { type: "file", id: own.id } });
    expect(response.status).toBe(201);
    const { link } = await response.json<{ link: Link }>();
    expect((await create(owner, { target: { type: "file", id: own.id } })).status).toBe(404);
    expect((await send(owner.client, "POST", `/api/share-links/${link.id}/revoke`)).status).toBe(404);
    expect((await send(member.client, "POST", `/api/share-links/${link.id}/revoke`)).status).toBe(200);
  });
});
