import { describe, expect, it } from "vitest";
import { getRoomHeader } from "~/features/datarooms/room-header.server";
import { notifyRoom } from "~/features/notifications/notifications.server";
import { createServiceContext } from "~/lib/service-context.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createRoom, get, send, signedIn } from "./dataroom-helpers";
import { newAuthClient, testEnv, type ErrorBody } from "./helpers";

/**
 * The workspace (issue 36): the member's own preferences (the folded sidebar), a room's header
 * (what the tabs may offer each person) and the archived rooms' view.
 */

const serviceCtx = () => createServiceContext(testEnv, { requestId: "workspace-test" });
const sidebarOf = async (userId: string) =>
  (await testEnv.DB.prepare("select sidebar_collapsed as collapsed from users where id = ?").bind(userId).first<{ collapsed: number }>())?.collapsed;

describe("workspace preferences", () => {
  it("remembers a folded sidebar on the member's account, and opens it again", async () => {
    const member = await signedIn();
    expect(await sidebarOf(member.id)).toBe(0);
    const folded = await send(member.client, "PATCH", "/api/workspace/preferences", { sidebarCollapsed: true });
    expect(folded.status, await folded.clone().text()).toBe(200);
    expect(await folded.json()).toEqual({ preferences: { sidebarCollapsed: true } });
    expect(folded.headers.get("cache-control")).toBe("no-store");
    expect(await sidebarOf(member.id)).toBe(1);
    const opened = await send(member.client, "PATCH", "/api/workspace/preferences", { sidebarCollapsed: false });
    expect(await opened.json()).toEqual({ preferences: { sidebarCollapsed: false } });
    expect(await sidebarOf(member.id)).toBe(0);
  });

  it("refuses a visitor who is not signed in with 401 and changes nothing", async () => {
    const anonymous = await newAuthClient();
    const response = await send(anonymous, "PATCH", "/api/workspace/preferences", { sidebarCollapsed: true });
    expect(response.status).toBe(401);
  });

  it("answers a body it cannot use with a 400 that says what to send, and keeps the preference", async () => {
    const member = await signedIn();
    for (const [body, message] of [
      [{ sidebarCollapsed: "yes" }, "sidebarCollapsed must be true or false."],
      [{}, 'Say what to change, for example { "sidebarCollapsed": true }.'],
    ] as const) {
      const response = await send(member.client, "PATCH", "/api/workspace/preferences", body);
      expect(response.status).toBe(400);
      expect((await response.json<ErrorBody>()).message).toContain(message);
    }
    const unknown = await send(member.client, "PATCH", "/api/workspace/preferences", { sidebarCollapsed: true, theme: "dark" });
    expect(unknown.status).toBe(400);
    const notJson = await send(member.client, "PATCH", "/api/workspace/preferences", undefined, { "content-type": "application/json" });
    expect(notJson.status).toBe(400);
    expect(await sidebarOf(member.id)).toBe(0);
  });
});

describe("a room's header", () => {
  it("offers the owner all six tabs, and a guest only the ones their role may open", async () => {
    const owner = await signedIn({ tier: "pro" });
    const guest = await signedIn();
    const room = await createRoom(owner.client, "Header room");
    await addDataroomMember(room.id, guest.id, "guest");

    const mine = await getRoomHeader(serviceCtx(), owner.id, room.id);
    expect(mine).toMatchObject({ id: room.id, name: "Header room", role: "owner", isOwner: true, archived: false, unread: 0 });
    const { visibleRoomTabs } = await import("~/features/datarooms/room-navigation");
    expect(visibleRoomTabs(room.id, mine.permissions).map((tab) => tab.label)).toEqual(["Files", "People", "Sharing", "Activity", "Analytics", "Settings"]);

    const theirs = await getRoomHeader(serviceCtx(), guest.id, room.id);
    expect(theirs).toMatchObject({ role: "guest", isOwner: false, owner: { name: "Room Person" } });
    const guestTabs = visibleRoomTabs(room.id, theirs.permissions);
    expect(guestTabs.map((tab) => tab.label)).toEqual(["Files", "People", "Activity"]);
    // The Activity tab leads a guest, who may not read the audit log, to the room's collaboration page.
    expect(guestTabs.find((tab) => tab.id === "activity")?.href).toBe(`/dataroom/${room.id}/collaboration`);
    expect(guestTabs.find((tab) => tab.id === "people")?.pages.map((page) => page.label)).toEqual(["Members"]);
  });

  it("counts only the caller's own unread notices of the room", async () => {
    const owner = await signedIn({ tier: "pro" });
    const member = await signedIn();
    const room = await createRoom(owner.client, "Counted room");
    await addDataroomMember(room.id, member.id, "member");
    await notifyRoom(serviceCtx(), { roomId: room.id, actorId: owner.id, kind: "file.upload", title: "Two new files", excerpt: "", link: `/dataroom/${room.id}` }, [member.id]);
    expect((await getRoomHeader(serviceCtx(), member.id, room.id)).unread).toBe(1);
    expect((await getRoomHeader(serviceCtx(), owner.id, room.id)).unread).toBe(0);
  });

  it("is not found for an outsider or an id that is not a room, and says nothing about the room", async () => {
    const owner = await signedIn();
    const outsider = await signedIn();
    const room = await createRoom(owner.client, "Private header");
    for (const [userId, id] of [
      [outsider.id, room.id],
      [owner.id, "not-a-room"],
      [owner.id, crypto.randomUUID()],
    ] as const) {
      const refusal = await getRoomHeader(serviceCtx(), userId, id).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toMatchObject({ code: "NOT_FOUND" });
      expect(String((refusal as Error).message)).not.toContain("Private header");
    }
  });
});

describe("archived rooms", () => {
  type ListBody = { datarooms: { id: string; name: string; archived: boolean }[] };
  const names = async (path: string, client: Awaited<ReturnType<typeof signedIn>>["client"]) => ((await (await get(path, client)).json()) as ListBody).datarooms.map((room) => room.name);

  it("leave the rooms in use for their own view, for the owner and the people in them", async () => {
    const owner = await signedIn();
    const member = await signedIn();
    const live = await createRoom(owner.client, "Live deal");
    const done = await createRoom(owner.client, "Closed deal");
    await addDataroomMember(done.id, member.id, "member");
    await addDataroomMember(live.id, member.id, "member");
    expect((await send(owner.client, "POST", `/api/datarooms/${done.id}/archive`)).status).toBe(200);

    expect(await names("/api/datarooms", owner.client)).toEqual(["Live deal"]);
    expect(await names("/api/datarooms?filter=mine", owner.client)).toEqual(["Live deal"]);
    expect(await names("/api/datarooms?filter=archived", owner.client)).toEqual(["Closed deal"]);
    expect(await names("/api/datarooms?filter=shared", member.client)).toEqual(["Live deal"]);
    expect(await names("/api/datarooms?filter=archived", member.client)).toEqual(["Closed deal"]);

    // Unarchived, it is back among the rooms in use.
    expect((await send(owner.client, "POST", `/api/datarooms/${done.id}/unarchive`)).status).toBe(200);
    expect(await names("/api/datarooms?filter=archived", owner.client)).toEqual([]);
    expect((await names("/api/datarooms?sort=name&dir=asc", owner.client))).toEqual(["Closed deal", "Live deal"]);
  });

  it("never lists another member's archived rooms to an outsider", async () => {
    const owner = await signedIn();
    const outsider = await signedIn();
    const done = await createRoom(owner.client, "Someone else's closed deal");
    expect((await send(owner.client, "POST", `/api/datarooms/${done.id}/archive`)).status).toBe(200);
    expect(await names("/api/datarooms?filter=archived", outsider.client)).toEqual([]);
    expect((await get("/api/datarooms?filter=archived")).status).toBe(401);
  });
});
