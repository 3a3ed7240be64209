import { beforeAll, describe, expect, it } from "vitest";
import { purgeExpiredDatarooms } from "~/features/datarooms/datarooms.server";
import { purgeTrash } from "~/features/files/trash.server";
import { addDataroomMember, dataroomRow } from "~tests/factories/datarooms";
import { createFile, testContext } from "~tests/factories/files";
import { postJson, testEnv, type AuthClient, type ErrorBody } from "./helpers";
import { get, send, signedIn } from "./dataroom-helpers";

type Room = {
  id: string;
  name: string;
  description: string;
  role: string;
  isOwner: boolean;
  archived: boolean;
  owner: { id: string; name: string };
  permissions: Record<string, boolean>;
  defaultRole: string;
};
type ListBody = { datarooms: (Room & { fileCount: number; memberCount: number })[]; quota: { owned: number; limit: number }; query: Record<string, string> };

const ARCHIVED = "This data room is archived and read-only. Unarchive it to make changes.";




async function createRoom(client: AuthClient, name: string, description = ""): Promise<Room> {
  const response = await postJson(client, "/api/datarooms", { name, description });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ dataroom: Room }>()).dataroom;
}

async function list(client: AuthClient, query = ""): Promise<ListBody> {
  const response = await get(`/api/datarooms${query}`, client);
  expect(response.status).toBe(200);
  return response.json<ListBody>();
}

describe("creating a data room", () => {
  it("makes a room the creator owns, with its own file manager, listed as theirs", async () => {
    const owner = await signedIn({ name: "Olive Owner" });
    const room = await createRoom(owner.client, "  Project Falcon  ", "Due diligence for the Falcon deal");
    expect(room).toMatchObject({ name: "Project Falcon", description: "Due diligence for the Falcon deal", role: "owner", isOwner: true, archived: false });
    expect(room.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(room.owner).toEqual({ id: owner.id, name: "Olive Owner" });
    expect(Object.values(room.permissions).every(Boolean)).toBe(true);

    const opened = await (await get(`/api/datarooms/${room.id}`, owner.client)).json<{ dataroom: Room; rootFolderId: string }>();
    expect(opened.dataroom.id).toBe(room.id);
    // The room's file manager is the existing folder page: the owner can create a folder in it.
    const folder = await postJson(owner.client, "/api/folders", { parentId: opened.rootFolderId, label: "Financials" });
    expect(folder.status, await folder.clone().text()).toBe(201);
    const root = await (await get(`/api/folders/${opened.rootFolderId}`, owner.client)).json<{ folder: { spaceId: string; label: string }; folders: { label: string }[] }>();
    expect(root.folder).toMatchObject({ spaceId: room.id, label: "Project Falcon" });
    expect(root.folders.map((item) => item.label)).toEqual(["Financials"]);

    const body = await list(owner.client);
    expect(body.datarooms.map((item) => item.id)).toEqual([room.id]);
    expect(body.datarooms[0]).toMatchObject({ memberCount: 1, fileCount: 0 });
    expect(body.quota).toEqual({ owned: 1, limit: 2 });
  });

  it("refuses a missing, too long or control-character name with a message, and stores nothing", async () => {
    const owner = await signedIn();
    const cases: [unknown, string][] = [
      [{ name: "   " }, "name: Name is required."],
      [{}, "name: Name is required."],
      [{ name: "x".repeat(121) }, "name: Name is at most 120 characters."],
      [{ name: "Bad\u0007name" }, "name: Name cannot contain control characters."],
      [{ name: "Fine", description: "d".repeat(2001) }, "description: Description is at most 2000 characters."],
    ];
    for (const [body, message] of cases) {
      const response = await postJson(owner.client, "/api/datarooms", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json<ErrorBody>()).message).toBe(message);
    }
    expect((await list(owner.client)).datarooms).toEqual([]);
  });

  it("stops at the plan's data room limit, names it, and counts an extra_datarooms add-on as 2 more", async () => {
    const owner = await signedIn({ tier: "free" });
    await createRoom(owner.client, "One");
    await createRoom(owner.client, "Two");
    const refused = await postJson(owner.client, "/api/datarooms", { name: "Three" });
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("Your Free plan allows 2 data rooms. Upgrade your plan or add extra data rooms.");
    expect((await list(owner.client)).quota).toEqual({ owned: 2, limit: 2 });

    await testEnv.DB.prepare("insert into user_addons (user_id, addon, quantity, updated_at) values (?, 'extra_datarooms', 1, ?)").bind(owner.id, Date.now()).run();
    await createRoom(owner.client, "Three");
    await createRoom(owner.client, "Four");
    expect((await postJson(owner.client, "/api/datarooms", { name: "Five" })).status).toBe(403);
    expect((await list(owner.client)).datarooms.map((room) => room.name).sort()).toEqual(["Four", "One", "Three", "Two"]);
  });

  it("asks an anonymous visitor to sign in and stores nothing", async () => {
    const response = await send(null, "POST", "/api/datarooms", { name: "Nope" });
    expect([401, 419]).toContain(response.status);
  });
});

describe("the data room index", () => {
  let owner: Awaited<ReturnType<typeof signedIn>>;
  let guest: Awaited<ReturnType<typeof signedIn>>;
  let shared: Room;
  beforeAll(async () => {
    owner = await signedIn({ name: "Index Owner" });
    guest = await signedIn({ name: "Index Guest" });
    await createRoom(guest.client, "Zebra holdings", "the guest's own");
    await createRoom(guest.client, "alpha audit", "quarterly audit");
    shared = await createRoom(owner.client, "Merger room", "Acme and Beta");
    await addDataroomMember(shared.id, guest.id, "guest");
  });

  it("lists rooms shared with me next to mine, and filters them apart", async () => {
    const all = await list(guest.client, "?sort=name");
    expect(all.datarooms.map((room) => [room.name, room.role, room.isOwner])).toEqual([
      ["alpha audit", "owner", true],
      ["Merger room", "guest", false],
      ["Zebra holdings", "owner", true],
    ]);
    expect(all.datarooms[1]).toMatchObject({ owner: { name: "Index Owner" }, memberCount: 2, permissions: { view: true, download: false, upload: false } });
    expect((await list(guest.client, "?filter=mine")).datarooms.map((room) => room.name).sort()).toEqual(["Zebra holdings", "alpha audit"]);
    expect((await list(guest.client, "?filter=shared")).datarooms.map((room) => room.name)).toEqual(["Merger room"]);
    // The shared room counts against its owner's quota, not the guest's.
    expect(all.quota.owned).toBe(2);
  });

  it("searches names and descriptions, case-insensitively, and treats % and _ as text", async () => {
    expect((await list(guest.client, "?q=AUDIT")).datarooms.map((room) => room.name)).toEqual(["alpha audit"]);
    expect((await list(guest.client, "?q=beta")).datarooms.map((room) => room.name)).toEqual(["Merger room"]);
    expect((await list(guest.client, "?q=%25")).datarooms).toEqual([]);
    expect((await list(guest.client, "?q=_")).datarooms).toEqual([]);
  });

  it("sorts by name both ways and falls back to the newest change for an unknown sort", async () => {
    expect((await list(guest.client, "?sort=name&dir=desc")).datarooms.map((room) => room.name)).toEqual(["Zebra holdings", "Merger room", "alpha audit"]);
    const fallback = await list(guest.client, "?sort=size&filter=everything");
    expect(fallback.query).toMatchObject({ sort: "updated", filter: "all", dir: "desc" });
    expect(fallback.datarooms[0]?.name).toBe("Merger room");
  });
});

describe("who may do what with a room", () => {
  let owner: Awaited<ReturnType<typeof signedIn>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let member: Awaited<ReturnType<typeof signedIn>>;
  let guest: Awaited<ReturnType<typeof signedIn>>;
  let outsider: Awaited<ReturnType<typeof signedIn>>;
  let room: Room;
  beforeAll(async () => {
    [owner, admin, member, guest, outsider] = await Promise.all([signedIn(), signedIn(), signedIn(), signedIn(), signedIn()]);
    room = await createRoom(owner.client, "Board room", "minutes");
    await addDataroomMember(room.id, admin.id, "admin");
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, guest.id, "guest");
  });

  it("an anonymous visitor is asked to sign in on every room endpoint", async () => {
    expect((await get(`/api/datarooms/${room.id}`)).status).toBe(401);
    expect((await get("/api/datarooms")).status).toBe(401);
  });

  it("an outsider gets 404 for the room, its changes and its archive, and nothing changes", async () => {
    const before = await dataroomRow(room.id);
    for (const [method, path, body] of [
      ["GET", `/api/datarooms/${room.id}`, undefined],
      ["PATCH", `/api/datarooms/${room.id}`, { name: "Taken over" }],
      ["POST", `/api/datarooms/${room.id}/archive`, undefined],
      ["POST", `/api/datarooms/${room.id}/unarchive`, undefined],
    ] as const) {
      const response = await send(outsider.client, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await response.json<ErrorBody>()).message).toBe("This data room does not exist or you don't have access to it.");
    }
    expect(await dataroomRow(room.id)).toEqual(before);
    expect((await list(outsider.client)).datarooms).toEqual([]);
  });

  it("a malformed or unknown id is the same 404", async () => {
    for (const id of ["undefined", "null", "not-a-room", crypto.randomUUID()]) {
      expect((await get(`/api/datarooms/${id}`, owner.client)).status, id).toBe(404);
    }
  });

  it("a guest and a member may open the room but not change its settings (403 naming the right)", async () => {
    for (const person of [guest, member]) {
      expect((await get(`/api/datarooms/${room.id}`, person.client)).status).toBe(200);
      for (const [method, path, body] of [
        ["PATCH", `/api/datarooms/${room.id}`, { name: "Renamed" }],
        ["POST", `/api/datarooms/${room.id}/archive`, undefined],
      ] as const) {
        const response = await send(person.client, method, path, body);
        expect(response.status, `${method} ${path}`).toBe(403);
        expect((await response.json<ErrorBody>()).message).toBe("You don't have permission to change this data room's settings.");
      }
    }
    expect(await dataroomRow(room.id)).toMatchObject({ name: "Board room", archivedAt: null });
  });

  it("a member whose override takes a right away loses it, and one granted a right has it", async () => {
    const limited = await signedIn();
    await addDataroomMember(room.id, limited.id, "member", { download: false, manage_settings: true });
    const body = await (await get(`/api/datarooms/${room.id}`, limited.client)).json<{ dataroom: Room }>();
    expect(body.dataroom.permissions).toMatchObject({ view: true, download: false, upload: true, manage_settings: true });
    const renamed = await send(limited.client, "PATCH", `/api/datarooms/${room.id}`, { description: "minutes and agendas" });
    expect(renamed.status).toBe(200);
  });

  it("an admin and the owner rename and describe the room; its file manager's top follows the name", async () => {
    const byAdmin = await send(admin.client, "PATCH", `/api/datarooms/${room.id}`, { name: "Board room 2027" });
    expect(byAdmin.status).toBe(200);
    const byOwner = await send(owner.client, "PATCH", `/api/datarooms/${room.id}`, { description: "All board minutes" });
    expect((await byOwner.json<{ dataroom: Room }>()).dataroom).toMatchObject({ name: "Board room 2027", description: "All board minutes" });
    const { rootFolderId } = await (await get(`/api/datarooms/${room.id}`, owner.client)).json<{ rootFolderId: string }>();
    const root = await (await get(`/api/folders/${rootFolderId}`, member.client)).json<{ folder: { label: string } }>();
    expect(root.folder.label).toBe("Board room 2027");
    const empty = await send(owner.client, "PATCH", `/api/datarooms/${room.id}`, {});
    expect(empty.status).toBe(400);
    expect((await empty.json<ErrorBody>()).message).toBe("Send a name or a description to change.");
  });
});

describe("an archived room", () => {
  it("is read-only for everyone, owner included, until it is unarchived", async () => {
    const owner = await signedIn();
    const member = await signedIn();
    const room = await createRoom(owner.client, "Closing set");
    await addDataroomMember(room.id, member.id, "member");
    const { rootFolderId } = await (await get(`/api/datarooms/${room.id}`, owner.client)).json<{ rootFolderId: string }>();
    const folder = await postJson(owner.client, "/api/folders", { parentId: rootFolderId, label: "Signed" });
    const folderId = (await folder.json<{ folder: { uid: string } }>()).folder.uid;

    const archived = await send(owner.client, "POST", `/api/datarooms/${room.id}/archive`);
    expect((await archived.json<{ dataroom: Room }>()).dataroom.archived).toBe(true);
    // Archiving twice changes nothing.
    expect((await send(owner.client, "POST", `/api/datarooms/${room.id}/archive`)).status).toBe(200);

    for (const person of [owner, member]) {
      const page = await get(`/api/folders/${rootFolderId}`, person.client);
      expect(page.status).toBe(200);
      expect((await page.json<{ role: string }>()).role).toBe("archived");
      const create = await postJson(person.client, "/api/folders", { parentId: rootFolderId, label: "More" });
      expect(create.status).toBe(403);
      expect((await create.json<ErrorBody>()).message).toBe(ARCHIVED);
      const upload = await postJson(person.client, "/api/uploads", {}, { "upload-length": "5", "upload-metadata": `folderId ${btoa(rootFolderId)},filename ${btoa("a.txt")}`, "tus-resumable": "1.0.0" });
      expect(upload.status).toBe(403);
      const rename = await send(person.client, "PATCH", `/folder/${folderId}`, { label: "Renamed" });
      expect(rename.status).toBe(403);
      const trash = await postJson(person.client, "/api/items/delete", { items: [{ type: "folder", id: folderId }] });
      expect(trash.status, await trash.clone().text()).toBe(403);
    }
    const settings = await send(owner.client, "PATCH", `/api/datarooms/${room.id}`, { name: "Changed" });
    expect(settings.status).toBe(409);
    expect((await settings.json<ErrorBody>()).message).toBe(ARCHIVED);

    const unarchived = await send(owner.client, "POST", `/api/datarooms/${room.id}/unarchive`);
    expect((await unarchived.json<{ dataroom: Room }>()).dataroom.archived).toBe(false);
    expect((await postJson(member.client, "/api/folders", { parentId: rootFolderId, label: "More" })).status).toBe(201);
  });
});

describe("a room in the trash", () => {
  it("is deleted by its owner only, vanishes for everyone, is restored within the plan's limit, and is purged with its files after 30 days", async () => {
    const owner = await signedIn({ tier: "free" });
    const admin = await signedIn();
    const room = await createRoom(owner.client, "Old deal");
    await addDataroomMember(room.id, admin.id, "admin");
    const { rootFolderId } = await (await get(`/api/datarooms/${room.id}`, owner.client)).json<{ rootFolderId: string }>();
    const file = await createFile({ spaceId: room.id, folderId: rootFolderId, name: "memo.txt", content: "memo" });

    // An admin may change the settings but not delete the room; an outsider does not see it at all.
    const byAdmin = await send(admin.client, "DELETE", `/api/datarooms/${room.id}`);
    expect(byAdmin.status).toBe(403);
    expect((await byAdmin.json<ErrorBody>()).message).toBe("Only the owner can delete this data room.");

    const trashed = await send(owner.client, "DELETE", `/api/datarooms/${room.id}`);
    expect(trashed.status).toBe(200);
    expect((await trashed.json<{ dataroom: Room & { purgeAt: string } }>()).dataroom.purgeAt).toBeTruthy();
    for (const person of [owner, admin]) {
      expect((await get(`/api/datarooms/${room.id}`, person.client)).status).toBe(404);
      expect((await list(person.client)).datarooms.map((item) => item.id)).not.toContain(room.id);
    }
    expect((await list(owner.client, "?filter=trash")).datarooms.map((item) => item.name)).toEqual(["Old deal"]);
    expect((await list(admin.client, "?filter=trash")).datarooms).toEqual([]);
    expect((await send(admin.client, "POST", `/api/datarooms/${room.id}/restore`)).status).toBe(404);

    // A room in the trash does not count: two new ones fit the free plan; then restoring does not.
    await createRoom(owner.client, "New A");
    await createRoom(owner.client, "New B");
    const refused = await send(owner.client, "POST", `/api/datarooms/${room.id}/restore`);
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("Your Free plan allows 2 data rooms. Upgrade your plan or add extra data rooms.");
    await testEnv.DB.prepare("insert into user_addons (user_id, addon, quantity, updated_at) values (?, 'extra_datarooms', 1, ?)").bind(owner.id, Date.now()).run();
    const restored = await send(owner.client, "POST", `/api/datarooms/${room.id}/restore`);
    expect(restored.status).toBe(200);
    expect((await get(`/api/datarooms/${room.id}`, admin.client)).status).toBe(200);

    // Back to the trash, and 30 days later the nightly purge deletes the room, its files and their objects.
    await send(owner.client, "DELETE", `/api/datarooms/${room.id}`);
    const trashedAt = (await testEnv.DB.prepare("select trashed_at as t from datarooms where id = ?").bind(room.id).first<{ t: number }>())!.t;
    expect(await purgeExpiredDatarooms(testContext(() => new Date(trashedAt + 29 * 24 * 3600_000)))).toBe(0);
    expect(await dataroomRow(room.id)).not.toBeNull();
    await purgeTrash(testContext(() => new Date(trashedAt + 31 * 24 * 3600_000)));
    expect(await dataroomRow(room.id)).toBeNull();
    expect(await testEnv.DB.prepare("select count(*) as n from files where id = ?").bind(file.id).first<{ n: number }>()).toEqual({ n: 0 });
    expect(await testEnv.DB.prepare("select count(*) as n from dataroom_members where dataroom_id = ?").bind(room.id).first<{ n: number }>()).toEqual({ n: 0 });
    expect(await testEnv.FILES.head(file.r2Key)).toBeNull();
  });
});

describe("the settings page's default role for new invitations", () => {
  it("starts new invitations with the room's default role, which people with manage_settings change", async () => {
    const owner = await signedIn({ tier: "pro" });
    const [member, outsider] = await Promise.all([signedIn(), signedIn()]);
    const room = await createRoom(owner.client, "Default role room");
    await addDataroomMember(room.id, member.id, "member");
    expect(room.defaultRole).toBe("member");

    // Anyone else: refused, nothing changes.
    expect((await send(outsider.client, "PUT", `/api/datarooms/${room.id}/settings`, { default_role: "guest" })).status).toBe(404);
    expect((await send(member.client, "PUT", `/api/datarooms/${room.id}/settings`, { default_role: "guest" })).status).toBe(403);
    const bad = await send(owner.client, "PUT", `/api/datarooms/${room.id}/settings`, { default_role: "owner" });
    expect(bad.status).toBe(400);
    expect((await bad.json<ErrorBody & { fieldErrors: Record<string, string[]> }>()).fieldErrors.default_role).toEqual(["Choose a role: admin, member or guest."]);

    const saved = await send(owner.client, "PUT", `/api/datarooms/${room.id}/settings`, { default_role: "guest" });
    expect(saved.status).toBe(200);
    expect((await saved.json<{ dataroom: { defaultRole: string } }>()).dataroom.defaultRole).toBe("guest");
    const invited = await send(owner.client, "POST", `/api/datarooms/${room.id}/invitations`, { emails: ["default-role@example.com"] });
    expect(invited.status, await invited.clone().text()).toBe(201);
    const { invitations } = await invited.json<{ invitations: { email: string; role: string }[] }>();
    expect(invitations.find((entry) => entry.email === "default-role@example.com")?.role).toBe("guest");
  });
});
