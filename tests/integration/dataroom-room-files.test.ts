import { beforeAll, describe, expect, it } from "vitest";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile } from "~tests/factories/files";
import { createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient } from "./helpers";

/**
 * A room's recent uploads, tags and duplicates (spec §2): its newest files and who added each, the
 * file manager's tags and duplicate groups kept to the room, for everyone in it with view.
 */

type Duplicates = { summary: { groups: number; files: number }; groups: { copies: number; files: { name: string }[] }[] };
type Tags = { tags: { tag: string; count: number }[]; tag: string | null; files: { name: string }[] };
type Metadata = {
  keys: { key: string; files: number; values: number }[];
  key: string | null;
  values: { value: string; files: number }[];
  value: string | null;
  files: { name: string; value: string }[];
};
type Recent = { files: { id: string; name: string; uploaderName: string | null }[]; nextCursor: string | null };

describe("a room's recent uploads", () => {
  let owner: Person;
  let guest: Person;
  let room: { id: string; rootFolderId: string };
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Olga Owner" });
    guest = await signedIn({ name: "Gil Guest" });
    room = await createRoom(owner.client, "Busy room");
    await addDataroomMember(room.id, guest.id, "guest");
    const now = Date.now();
    await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "older.pdf", uploadedBy: owner.id, createdAt: new Date(now - 60_000) });
    await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "newest.pdf", uploadedBy: owner.id, createdAt: new Date(now) });
  });

  it("lists the room's files newest first with who uploaded each, for a guest too", async () => {
    const response = await get(`/api/datarooms/${room.id}/recent-uploads`, guest.client);
    expect(response.status).toBe(200);
    const body = await response.json<Recent>();
    expect(body.files.map((file) => [file.name, file.uploaderName])).toEqual([
      ["newest.pdf", "Olga Owner"],
      ["older.pdf", "Olga Owner"],
    ]);
    expect(body.nextCursor).toBeNull();
  });

  it("lists only the room's tags with their counts, and a tag's files in the room", async () => {
    const recent = await (await get(`/api/datarooms/${room.id}/recent-uploads`, owner.client)).json<Recent>();
    for (const file of recent.files) expect((await send(owner.client, "PUT", `/api/organize/files/${file.id}/tags`, { tags: ["diligence"] })).status).toBe(200);
    // The same tag on the owner's own file elsewhere does not count here.
    const other = await createRoom(owner.client, "Other room");
    const elsewhere = await createFile({ spaceId: other.id, folderId: other.rootFolderId, name: "elsewhere.pdf" });
    expect((await send(owner.client, "PUT", `/api/organize/files/${elsewhere.id}/tags`, { tags: ["diligence", "other"] })).status).toBe(200);

    const index = await (await get(`/api/datarooms/${room.id}/tags`, guest.client)).json<Tags>();
    expect(index.tags).toEqual([{ tag: "diligence", count: 2 }]);
    const tagged = await (await get(`/api/datarooms/${room.id}/tags?tag=diligence`, guest.client)).json<Tags>();
    expect(tagged.files.map((file) => file.name)).toEqual(["newest.pdf", "older.pdf"]);
  });

  it("finds the room's files with the same content, only in this room, on the owner's plan", async () => {
    const sha256 = "a".repeat(64);
    await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "deck copy 1.pdf", sha256 });
    await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "deck copy 2.pdf", sha256 });
    const other = await createRoom(owner.client, "Room with its own copy");
    await createFile({ spaceId: other.id, folderId: other.rootFolderId, name: "deck elsewhere.pdf", sha256 });
    await createFile({ spaceId: other.id, folderId: other.rootFolderId, name: "deck elsewhere 2.pdf", sha256 });

    const found = await (await get(`/api/datarooms/${room.id}/duplicates`, guest.client)).json<Duplicates>();
    // The two decks here, and the two earlier files (the same default content); never the other room's copies.
    expect(found.summary).toMatchObject({ groups: 2, files: 4 });
    const names = found.groups.map((group) => group.files.map((file) => file.name).sort());
    expect(names).toContainEqual(["deck copy 1.pdf", "deck copy 2.pdf"]);
    expect(names.flat()).not.toContain("deck elsewhere.pdf");

    const freeOwner = await signedIn();
    const freeRoom = await createRoom(freeOwner.client, "Free room");
    const locked = await get(`/api/datarooms/${freeRoom.id}/duplicates`, freeOwner.client);
    expect(locked.status).toBe(403);
    expect((await locked.json<{ message: string }>()).message).toBe("You don't have the required feature: advanced_features. It is part of the Pro plan and above.");
  });

  it("indexes the room's metadata fields with their files and values, narrowed to one value, only in this room", async () => {
    const recent = await (await get(`/api/datarooms/${room.id}/recent-uploads`, owner.client)).json<Recent>();
    const byName = new Map(recent.files.map((file) => [file.name, file.id]));
    const set = async (id: string, entries: { key: string; value: string }[]) =>
      expect((await send(owner.client, "PUT", `/api/organize/files/${id}/metadata`, { entries })).status).toBe(200);
    await set(byName.get("newest.pdf")!, [
      { key: "Deal", value: "Acme" },
      { key: "Stage", value: "Signed" },
    ]);
    await set(byName.get("older.pdf")!, [{ key: "Deal", value: "Globex" }]);
    const other = await createRoom(owner.client, "Room with other fields");
    const elsewhere = await createFile({ spaceId: other.id, folderId: other.rootFolderId, name: "elsewhere.pdf" });
    await set(elsewhere.id, [{ key: "Secret field", value: "x" }]);

    const overview = await (await get(`/api/datarooms/${room.id}/metadata`, guest.client)).json<Metadata>();
    expect(overview.keys).toEqual([
      { key: "Deal", files: 2, values: 2 },
      { key: "Stage", files: 1, values: 1 },
    ]);
    expect(overview.files).toEqual([]);

    const deal = await (await get(`/api/datarooms/${room.id}/metadata?key=Deal`, guest.client)).json<Metadata>();
    expect(deal.files.map((file) => [file.name, file.value])).toEqual([
      ["newest.pdf", "Acme"],
      ["older.pdf", "Globex"],
    ]);
    expect(deal.values).toEqual([
      { value: "Acme", files: 1 },
      { value: "Globex", files: 1 },
    ]);
    const globex = await (await get(`/api/datarooms/${room.id}/metadata?key=Deal&value=Globex`, guest.client)).json<Metadata>();
    expect(globex.files.map((file) => file.name)).toEqual(["older.pdf"]);
    // Another room's field is never listed here, even when asked for by name.
    expect((await (await get(`/api/datarooms/${room.id}/metadata?key=Secret%20field`, guest.client)).json<Metadata>()).files).toEqual([]);

    const tooLong = await get(`/api/datarooms/${room.id}/metadata?key=${"k".repeat(65)}`, guest.client);
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json<{ message: string }>()).message).toContain("A metadata key is at most 64 characters.");
  });

  it("answers anonymous 401, an outsider 404, and someone without view 403", async () => {
    for (const path of [`/api/datarooms/${room.id}/recent-uploads`, `/api/datarooms/${room.id}/tags`, `/api/datarooms/${room.id}/duplicates`, `/api/datarooms/${room.id}/metadata`]) {
      expect((await get(path, await newAuthClient())).status, path).toBe(401);
      expect((await get(path, (await signedIn()).client)).status, path).toBe(404);
    }
    const changed = await send(owner.client, "PUT", `/api/datarooms/${room.id}/permissions/${guest.id}`, { permission: "view", value: false });
    expect(changed.status).toBe(200);
    expect((await get(`/api/datarooms/${room.id}/recent-uploads`, guest.client)).status).toBe(403);
    expect((await get(`/api/datarooms/${room.id}/tags`, guest.client)).status).toBe(403);
    expect((await get(`/api/datarooms/${room.id}/duplicates`, guest.client)).status).toBe(403);
    expect((await get(`/api/datarooms/${room.id}/metadata`, guest.client)).status).toBe(403);
  });
});
