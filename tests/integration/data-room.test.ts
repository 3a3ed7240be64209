import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { DataRoom } from "~durable-objects/data-room";
import { grantPermission } from "~/features/datarooms/permissions.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, testContext } from "~tests/factories/files";
import { origin, postJson, testEnv, type AuthClient, type ErrorBody } from "./helpers";
import { createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";

/**
 * The data room's Durable Object as the authority for membership and permissions (issue 19,
 * ADR 018): decisions, the 300 ms debounced D1 copy and broadcast, the circuit breaker (5 in
 * 10 s, clock controlled), hibernation and eviction, revocation, and authenticated sockets.
 */

type Room = { id: string };




function stub(roomId: string) {
  return testEnv.DATA_ROOM.getByName(roomId);
}

async function overridesInD1(roomId: string, userId: string): Promise<Record<string, boolean>> {
  const row = await testEnv.DB.prepare("select overrides from dataroom_members where dataroom_id = ? and user_id = ?").bind(roomId, userId).first<{ overrides: string }>();
  return JSON.parse(row!.overrides) as Record<string, boolean>;
}

/** Flushes the debounced copy now (the alarm may also have run by itself: both are fine). */
async function flush(roomId: string) {
  await runDurableObjectAlarm(stub(roomId));
}

async function channelToken(client: AuthClient, roomId: string) {
  return postJson(client, "/broadcasting/auth", { channel_name: `private-dataroom.${roomId}`, socket_id: "1.1" });
}

/** Opens an authenticated socket the way the browser does: session cookie + token from /broadcasting/auth. */
async function openSocket(client: AuthClient, roomId: string) {
  const auth = await channelToken(client, roomId);
  expect(auth.status, await auth.clone().text()).toBe(200);
  const { url } = await auth.json<{ url: string }>();
  const response = await exports.default.fetch(`${origin}${url}`, { headers: { Upgrade: "websocket", cookie: client.jar.header() } });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  const received: { type: string; name?: string; data?: Record<string, unknown>; message?: string }[] = [];
  let closed: number | null = null;
  socket.addEventListener("message", (event) => received.push(JSON.parse(event.data as string)));
  socket.addEventListener("close", (event) => (closed = event.code));
  socket.accept();
  return { socket, received, closedCode: () => closed };
}

describe("the room's authority decides", () => {
  let owner: Person;
  let member: Person;
  let room: Room & { rootFolderId: string };
  let fileId: string;
  beforeAll(async () => {
    owner = await signedIn({ name: "Owner Authority", tier: "pro" });
    member = await signedIn({ name: "Member Authority" });
    room = await createRoom(owner.client, "Authority room");
    await addDataroomMember(room.id, member.id, "member");
    fileId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "deck.txt", content: "deck" })).id;
  });

  it("is a SQLite-backed object that answers who is in the room with their permissions", async () => {
    await runInDurableObject(stub(room.id), async (instance: DataRoom, state) => {
      expect(instance).toBeInstanceOf(DataRoom);
      expect(state.storage.sql.exec("select count(*) as n from members").one().n).toBe(2);
    });
    const decision = await stub(room.id).decide(room.id, member.id);
    expect(decision).toMatchObject({ role: "member", permissions: { view: true, download: true, manage_members: false } });
    expect(await stub(room.id).decide(room.id, crypto.randomUUID())).toBeNull();
  });

  it("a revoked download refuses the very next request, before the D1 copy is written", async () => {
    expect((await get(`/api/files/${fileId}/download`, member.client)).status).toBe(200);
    const revoked = await send(owner.client, "DELETE", `/api/datarooms/${room.id}/permissions`, { user_id: member.id, permission: "download" });
    expect(revoked.status, await revoked.clone().text()).toBe(200);
    expect(await revoked.json()).toMatchObject({ success: true, permissions: { download: false, view: true } });
    const refused = await get(`/api/files/${fileId}/download`, member.client);
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("You don't have permission to download these files.");
    // Viewing stays: view-only is the point of taking download away.
    expect((await get(`/api/files/${fileId}/preview`, member.client)).status).toBe(200);

    const granted = await postJson(owner.client, `/api/datarooms/${room.id}/permissions`, { user_id: member.id, permission: "download", action: "grant" });
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({ success: true });
    expect((await get(`/api/files/${fileId}/download`, member.client)).status).toBe(200);
    await flush(room.id);
    expect(await overridesInD1(room.id, member.id)).toEqual({ download: true });
    const reset = await send(owner.client, "PUT", `/api/datarooms/${room.id}/permissions/${member.id}`, { permission: "download", value: null });
    expect(reset.status).toBe(200);
    await flush(room.id);
    expect(await overridesInD1(room.id, member.id)).toEqual({});
  });

  it("keeps its decisions through hibernation and eviction (they live in the object's SQLite)", async () => {
    const ctx = testContext(() => new Date());
    await grantPermission(ctx, owner.id, room.id, { user_id: member.id, permission: "share", action: "grant" });
    // Eviction: the object is thrown away; a new instance reads the same SQLite.
    await runInDurableObject(stub(room.id), (_instance, state) => {
      try {
        state.abort("evicted by the test");
      } catch {
        /* abort throws inside the object by design */
      }
    }).catch(() => undefined);
    const fresh = testEnv.DATA_ROOM.getByName(room.id);
    expect((await fresh.decide(room.id, member.id))?.permissions.share).toBe(true);
    await flush(room.id);
    expect((await overridesInD1(room.id, member.id)).share).toBe(true);
  });
});

describe("the user store's data room context", () => {
  it("GET /api/user/context/dataroom:{id} answers the room with the member's permissions from its authority; /dataroom lists their rooms", async () => {
    const owner = await signedIn({ tier: "pro", name: "Context Owner" });
    const member = await signedIn();
    const room = await createRoom(owner.client, "Context room");
    await addDataroomMember(room.id, member.id, "member");
    await send(owner.client, "DELETE", `/api/datarooms/${room.id}/permissions`, { user_id: member.id, permission: "download" });
    const body = await (await get(`/api/user/context/dataroom:${room.id}`, member.client)).json<{
      context: { scope: string; entities: { id: string; name: string; role: string }[]; permissions: Record<string, boolean> };
    }>();
    expect(body.context.scope).toBe(`dataroom:${room.id}`);
    expect(body.context.entities).toMatchObject([{ type: "dataroom", id: room.id, name: "Context room", role: "member" }]);
    expect(body.context.permissions).toMatchObject({ view: true, download: false, "dataroom.view": true, "dataroom.download": false, upload: true });
    const scoped = await (await get(`/api/permissions?scope=dataroom:${room.id}`, member.client)).json<{ scoped_permissions: Record<string, boolean> }>();
    expect(scoped.scoped_permissions).toMatchObject({ download: false, "dataroom.download": false });
    const all = await (await get("/api/user/context/dataroom", member.client)).json<{ context: { entities: { id: string }[] } }>();
    expect(all.context.entities.map((entity) => entity.id)).toEqual([room.id]);
    // Someone not in the room learns nothing about it.
    const outsider = await signedIn();
    expect((await (await get(`/api/user/context/dataroom:${room.id}`, outsider.client)).json<{ context: { entities: unknown[] } }>()).context.entities).toEqual([]);
  });
});

describe("permission updates: debounced 300 ms, and a circuit breaker at more than 5 in 10 s", () => {
  it("a burst of 10 updates applies 5 at once, refuses the rest with when to retry, and makes one D1 batch and one broadcast", async () => {
    const owner = await signedIn({ tier: "pro" });
    const room = await createRoom(owner.client, "Burst room");
    const people: Person[] = [];
    for (let i = 0; i < 2; i++) people.push(await signedIn({ name: `Burst ${i}` }));
    for (const person of people) await addDataroomMember(room.id, person.id, "member");
    await flush(room.id);
    const before = await stub(room.id).stats();

    let clock = Date.UTC(2026, 10, 24, 12, 0, 0);
    const ctx = () => testContext(() => new Date(clock));
    const permissions = ["download", "upload", "edit", "comment", "share", "invite", "view_analytics", "download", "upload", "edit"];
    const outcomes: (number | string)[] = [];
    for (const [index, permission] of permissions.entries()) {
      clock += 20; // all ten within 200 ms
      try {
        await grantPermission(ctx(), owner.id, room.id, { user_id: people[index % 2]!.id, permission, action: index % 3 === 0 ? "revoke" : "grant" });
        outcomes.push("applied");
      } catch (error) {
        outcomes.push((error as { status: number }).status);
        if (index === 5) {
          expect((error as Error).message).toBe("Too many permission changes in this data room: at most 5 in 10 seconds. Try again in 10 seconds.");
          expect((error as { retryAfterSeconds: number }).retryAfterSeconds).toBe(10);
        }
      }
    }
    expect(outcomes).toEqual(["applied", "applied", "applied", "applied", "applied", 429, 429, 429, 429, 429]);
    // Applied at once: the decision already reflects the first person's revoked download.
    expect((await stub(room.id).decide(room.id, people[0]!.id))?.permissions.download).toBe(false);
    // The flush waits on an alarm, the only thing that keeps an idle room awake; once it ran, none is left.
    expect((await stub(room.id).stats()).alarmPending).toBe(true);

    await flush(room.id);
    const after = await stub(room.id).stats();
    expect(after.alarmPending).toBe(false);
    expect(after.d1Batches - before.d1Batches).toBe(1);
    expect(after.broadcasts - before.broadcasts).toBe(1);
    expect(after.pending).toBe(0);
    expect(await overridesInD1(room.id, people[0]!.id)).toEqual({ download: false, edit: true, share: true });
    expect(await overridesInD1(room.id, people[1]!.id)).toEqual({ upload: true, comment: false });

    // When the window has passed, updates are accepted again.
    clock += 10_000;
    await expect(grantPermission(ctx(), owner.id, room.id, { user_id: people[1]!.id, permission: "share", action: "grant" })).resolves.toMatchObject({ success: true });
  });
});

describe("who may change permissions", () => {
  let owner: Person;
  let admin: Person;
  let member: Person;
  let guest: Person;
  let outsider: Person;
  let roomId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "business" });
    admin = await signedIn();
    member = await signedIn();
    guest = await signedIn();
    outsider = await signedIn();
    roomId = (await createRoom(owner.client, "Permission matrix")).id;
    await addDataroomMember(roomId, admin.id, "admin");
    await addDataroomMember(roomId, member.id, "member");
    await addDataroomMember(roomId, guest.id, "guest");
  });

  it("anonymous 401, outsider 404 with nothing changed, guest and member 403 naming the right", async () => {
    const body = { user_id: member.id, permission: "download", action: "grant" };
    expect([401, 419]).toContain((await send(null, "POST", `/api/datarooms/${roomId}/permissions`, body)).status);
    for (const method of ["POST", "DELETE"]) expect((await send(outsider.client, method, `/api/datarooms/${roomId}/permissions`, body)).status).toBe(404);
    expect((await send(outsider.client, "PUT", `/api/datarooms/${roomId}/permissions/${member.id}`, { permission: "download", value: false })).status).toBe(404);
    expect((await get(`/api/datarooms/${roomId}/permissions`, outsider.client)).status).toBe(404);
    for (const person of [guest, member]) {
      const refused = await send(person.client, "DELETE", `/api/datarooms/${roomId}/permissions`, { user_id: guest.id, permission: "view" });
      expect(refused.status).toBe(403);
      expect((await refused.json<ErrorBody>()).message).toBe("You don't have permission to manage this data room's members.");
    }
    expect((await stub(roomId).decide(roomId, member.id))?.overrides).toEqual({});
  });

  it("an admin changes a member's and a guest's permissions but not another admin's, the owner's or their own; the owner changes an admin's", async () => {
    expect((await send(admin.client, "DELETE", `/api/datarooms/${roomId}/permissions`, { user_id: member.id, permission: "upload" })).status).toBe(200);
    expect((await postJson(admin.client, `/api/datarooms/${roomId}/permissions`, { user_id: guest.id, permission: "download", action: "grant" })).status).toBe(200);
    const ownerRights = await send(admin.client, "DELETE", `/api/datarooms/${roomId}/permissions`, { user_id: owner.id, permission: "view" });
    expect(ownerRights.status).toBe(403);
    expect((await ownerRights.json<ErrorBody>()).message).toBe("The owner's permissions cannot be changed: the owner always has every permission.");
    const own = await send(admin.client, "DELETE", `/api/datarooms/${roomId}/permissions`, { user_id: admin.id, permission: "view" });
    expect(own.status).toBe(403);
    const second = await signedIn();
    await addDataroomMember(roomId, second.id, "admin");
    const otherAdmin = await send(admin.client, "DELETE", `/api/datarooms/${roomId}/permissions`, { user_id: second.id, permission: "invite" });
    expect(otherAdmin.status).toBe(403);
    expect((await otherAdmin.json<ErrorBody>()).message).toBe("Only the owner can change an admin's permissions.");
    expect((await send(owner.client, "DELETE", `/api/datarooms/${roomId}/permissions`, { user_id: second.id, permission: "invite" })).status).toBe(200);

    const matrix = await (await get(`/api/datarooms/${roomId}/permissions`, owner.client)).json<{ rows: { userId: string; permissions: Record<string, boolean>; overridden: string[]; editable: boolean }[] }>();
    const row = (id: string) => matrix.rows.find((item) => item.userId === id)!;
    expect(row(member.id)).toMatchObject({ overridden: ["upload"], editable: true, permissions: { upload: false } });
    expect(row(guest.id)).toMatchObject({ overridden: ["download"], permissions: { download: true } });
    expect(row(owner.id).editable).toBe(false);
  });

  it("refuses an unknown permission, an unknown person and a malformed body with a message", async () => {
    const unknown = await postJson(owner.client, `/api/datarooms/${roomId}/permissions`, { user_id: member.id, permission: "teleport", action: "grant" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json<ErrorBody>()).message).toBe(
      'Unknown permission "teleport". Use one of: view, download, upload, edit, delete, share, invite, manage_members, manage_settings, comment, view_analytics, view_audit_log, request_signatures, redact.',
    );
    const nobody = await postJson(owner.client, `/api/datarooms/${roomId}/permissions`, { user_id: outsider.id, permission: "view", action: "grant" });
    expect(nobody.status).toBe(404);
    expect((await nobody.json<ErrorBody>()).message).toBe("This person is not in this data room.");
    const badValue = await send(owner.client, "PUT", `/api/datarooms/${roomId}/permissions/${member.id}`, { permission: "view", value: "yes" });
    expect(badValue.status).toBe(400);
    expect((await postJson(owner.client, `/api/datarooms/${roomId}/permissions`, "not json")).status).toBe(400);
  });
});

describe("realtime: authorised channels and sockets", () => {
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let roomId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro" });
    member = await signedIn();
    outsider = await signedIn();
    roomId = (await createRoom(owner.client, "Socket room")).id;
    await addDataroomMember(roomId, member.id, "member");
  });

  it("POST /broadcasting/auth gives a member a short-lived token for the room's private channel; others are refused", async () => {
    const granted = await channelToken(member.client, roomId);
    expect(granted.status).toBe(200);
    const body = await granted.json<{ auth: string; channel: string; url: string; expires_at: string }>();
    expect(body.channel).toBe(`private-dataroom.${roomId}`);
    expect(new Date(body.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(60_000);
    expect((await channelToken(outsider.client, roomId)).status).toBe(404);
    const anonymous = await exports.default.fetch(`${origin}/broadcasting/auth`, { method: "POST", headers: { accept: "application/json", "content-type": "application/json", origin }, body: "{}" });
    expect([401, 419]).toContain(anonymous.status);
    const bad = await postJson(member.client, "/broadcasting/auth", { channel_name: "presence-everything" });
    expect(bad.status).toBe(400);
  });

  it("refuses a socket without a session (401), without a valid token or with another room's token (403), and a malformed room (404)", async () => {
    expect((await exports.default.fetch(`${origin}/parties/data-room/${roomId}`, { headers: { Upgrade: "websocket" } })).status).toBe(401);
    expect((await exports.default.fetch(`${origin}/parties/data-room/${roomId}`, { headers: { Upgrade: "websocket", cookie: member.client.jar.header() } })).status).toBe(403);
    expect((await exports.default.fetch(`${origin}/parties/data-room/${roomId}?token=123.abc`, { headers: { Upgrade: "websocket", cookie: member.client.jar.header() } })).status).toBe(403);
    const otherRoom = (await createRoom(owner.client, "Other socket room")).id;
    const { auth } = await (await channelToken(owner.client, otherRoom)).json<{ auth: string }>();
    const crossed = await exports.default.fetch(`${origin}/parties/data-room/${roomId}?token=${encodeURIComponent(auth)}`, { headers: { Upgrade: "websocket", cookie: owner.client.jar.header() } });
    expect(crossed.status).toBe(403);
    // The outsider's own token for the room cannot be had, and someone else's token is not theirs.
    const { auth: memberToken } = await (await channelToken(member.client, roomId)).json<{ auth: string }>();
    const stolen = await exports.default.fetch(`${origin}/parties/data-room/${roomId}?token=${encodeURIComponent(memberToken)}`, { headers: { Upgrade: "websocket", cookie: outsider.client.jar.header() } });
    expect(stolen.status).toBe(403);
    for (const bad of ["undefined", "null", "abc", "%3Cscript%3E"]) {
      expect((await exports.default.fetch(`${origin}/parties/data-room/${bad}`, { headers: { Upgrade: "websocket", cookie: member.client.jar.header() } })).status).toBe(404);
    }
    expect((await exports.default.fetch(`${origin}/parties/data-room/${roomId}`)).status).toBe(404);
  });

  it("tells a member's socket their new permissions after the debounce, and closes a removed member's sockets with a message", async () => {
    const socket = await openSocket(member.client, roomId);
    await expect.poll(() => socket.received.some((message) => message.type === "presence")).toBe(true);
    const revoked = await send(owner.client, "DELETE", `/api/datarooms/${roomId}/permissions`, { user_id: member.id, permission: "download" });
    expect(revoked.status).toBe(200);
    await flush(roomId);
    await expect.poll(() => socket.received.find((message) => message.name === "permissions.changed")?.data).toMatchObject({ permissions: { download: false } });

    const removed = await send(owner.client, "DELETE", `/api/datarooms/${roomId}/members/${member.id}`);
    expect(removed.status).toBe(200);
    await expect.poll(() => socket.received.find((message) => message.type === "removed")?.message).toBe(
      "You were removed from this data room. Ask its owner if you need access again.",
    );
    await expect.poll(() => socket.closedCode()).toBe(4001);
    expect((await get(`/api/datarooms/${roomId}`, member.client)).status).toBe(404);
    expect((await channelToken(member.client, roomId)).status).toBe(404);
  });

  it("tells everyone in the room when files or folders are added, deleted, restored, renamed or moved", async () => {
    const socket = await openSocket(owner.client, roomId);
    await expect.poll(() => socket.received.some((message) => message.type === "presence")).toBe(true);
    // Sockets are accepted through the hibernation API, so an open socket does not keep the room in memory.
    const held = await stub(roomId).stats();
    expect(held.sockets).toBeGreaterThan(0);
    expect(held.hibernatableSockets).toBe(held.sockets);
    const { rootFolderId } = await (await get(`/api/datarooms/${roomId}`, owner.client)).json<{ rootFolderId: string }>();
    const folder = await postJson(owner.client, "/api/folders", { parentId: rootFolderId, label: "Live folder" });
    expect(folder.status).toBe(201);
    const uid = (await folder.json<{ folder: { uid: string } }>()).folder.uid;
    await expect.poll(() => socket.received.filter((message) => message.name === "files.changed").map((message) => message.data?.action)).toEqual(["added"]);
    expect((await postJson(owner.client, "/api/items/delete", { items: [{ type: "folder", id: uid }] })).status).toBe(200);
    expect((await postJson(owner.client, "/api/items/restore", { items: [{ type: "folder", id: uid }] })).status).toBe(200);
    await expect.poll(() => socket.received.filter((message) => message.name === "files.changed").map((message) => message.data?.action)).toEqual(["added", "removed", "restored"]);
    const file = await createFile({ spaceId: roomId, folderId: rootFolderId, name: "minutes.txt" });
    expect((await send(owner.client, "PATCH", `/api/files/${file.id}`, { name: "board minutes.txt" })).status).toBe(200);
    expect((await postJson(owner.client, "/api/items/move", { items: [{ type: "file", id: file.id }], targetFolderId: uid })).status).toBe(200);
    await expect.poll(() => socket.received.filter((message) => message.name === "files.changed").map((message) => message.data?.action)).toEqual([
      "added",
      "removed",
      "restored",
      "renamed",
      "moved",
    ]);
    socket.socket.close();
  });

  it("lists who has the room open now for people who manage members, and ending a guest's access closes their pages", async () => {
    const host = await signedIn({ tier: "pro", name: "Sol Host" });
    const visitor = await signedIn({ name: "Vera Visitor" });
    const room = (await createRoom(host.client, "Sessions room")).id;
    await addDataroomMember(room, visitor.id, "guest");
    const first = await openSocket(visitor.client, room);
    const second = await openSocket(visitor.client, room);
    type Sessions = { sessions: { userId: string; name: string; connections: number; canEnd: boolean }[] };
    await expect
      .poll(async () => (await (await get(`/api/datarooms/${room}/sessions`, host.client)).json<Sessions>()).sessions.map((entry) => [entry.name, entry.connections, entry.canEnd]))
      .toEqual([["Vera Visitor", 2, true]]);
    // A guest does not see the sessions; an outsider learns nothing.
    expect((await get(`/api/datarooms/${room}/sessions`, visitor.client)).status).toBe(403);
    expect((await get(`/api/datarooms/${room}/sessions`, outsider.client)).status).toBe(404);

    expect((await send(host.client, "DELETE", `/api/datarooms/${room}/members/${visitor.id}`)).status).toBe(200);
    await expect.poll(() => [first.closedCode(), second.closedCode()]).toEqual([4001, 4001]);
    await expect.poll(async () => (await (await get(`/api/datarooms/${room}/sessions`, host.client)).json<Sessions>()).sessions).toEqual([]);
  });

  it("tells everyone who is in the room now, each person once, and who left", async () => {
    const host = await signedIn({ tier: "pro", name: "Hana Host" });
    const visitor = await signedIn({ name: "Vik Visitor" });
    const room = (await createRoom(host.client, "Presence room")).id;
    await addDataroomMember(room, visitor.id, "guest");
    type Presence = { type: string; people?: { name: string }[] };
    const names = (messages: Presence[]) => messages.filter((message) => message.type === "presence").at(-1)?.people?.map((person) => person.name).sort();
    const hostSocket = await openSocket(host.client, room);
    const secondTab = await openSocket(host.client, room);
    const visitorSocket = await openSocket(visitor.client, room);
    await expect.poll(() => names(hostSocket.received as Presence[])).toEqual(["Hana Host", "Vik Visitor"]);
    visitorSocket.socket.close();
    await expect.poll(() => names(hostSocket.received as Presence[])).toEqual(["Hana Host"]);
    hostSocket.socket.close();
    secondTab.socket.close();
  });

  it("answers a message it does not understand with an error, not a crash", async () => {
    const socket = await openSocket(owner.client, roomId);
    socket.socket.send("{ definitely not json");
    await expect.poll(() => socket.received.some((message) => message.type === "error")).toBe(true);
    expect(await stub(roomId).publish({ name: "file.uploaded", data: { fileId: "f1" } })).toMatchObject({ delivered: 1 });
    await expect.poll(() => socket.received.some((message) => message.name === "file.uploaded")).toBe(true);
    socket.socket.close();
  });
});
