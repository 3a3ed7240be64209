import { beforeAll, describe, expect, it } from "vitest";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile } from "~tests/factories/files";
import { createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient } from "./helpers";

/** A room's recent uploads (spec §2): its newest files and who added each, for everyone in it with view. */

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

  it("answers anonymous 401, an outsider 404, and someone without view 403", async () => {
    expect((await get(`/api/datarooms/${room.id}/recent-uploads`, (await newAuthClient()))).status).toBe(401);
    expect((await get(`/api/datarooms/${room.id}/recent-uploads`, (await signedIn()).client)).status).toBe(404);
    const changed = await send(owner.client, "PUT", `/api/datarooms/${room.id}/permissions/${guest.id}`, { permission: "view", value: false });
    expect(changed.status).toBe(200);
    expect((await get(`/api/datarooms/${room.id}/recent-uploads`, guest.client)).status).toBe(403);
  });
});
