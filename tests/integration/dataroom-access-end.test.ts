import { beforeAll, describe, expect, it } from "vitest";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile } from "~tests/factories/files";
import { createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { mailsTo, newAuthClient, testEnv, type ErrorBody } from "./helpers";

/**
 * Time-limited access (issue 20): an end per member and per invitation; after it the person is
 * refused everything in the room with the day it ended (the room, its folders, previews, downloads,
 * zips, the realtime channel; pages use the same check), and it is recorded. Who may set it, on which plans, and what is refused.
 */

type Member = { userId: string; accessUntil: string | null; accessEnded: boolean };
type ValidationBody = ErrorBody & { fieldErrors?: Record<string, string[]> };

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

const setAccess = (by: Person, roomId: string, userId: string, until: string | null) => send(by.client, "PUT", `/api/datarooms/${roomId}/members/${userId}/access`, { access_until: until });

/** Ends someone's access a moment ago, as the calendar would (the room's object and its D1 copy, as the authority writes them). */
async function endAccessNow(roomId: string, userId: string) {
  const endedAt = Date.now() - 1000;
  await testEnv.DB.prepare("update dataroom_members set access_expires_at = ? where dataroom_id = ? and user_id = ?").bind(endedAt, roomId, userId).run();
  await testEnv.DATA_ROOM.getByName(roomId).reload(roomId);
  return new Date(endedAt);
}

describe("time-limited access", () => {
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  let room: { id: string; rootFolderId: string };
  let fileId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro" });
    [admin, member, outsider] = await Promise.all([signedIn(), signedIn(), signedIn()]);
    room = await createRoom(owner.client, "Timed room");
    await addDataroomMember(room.id, admin.id, "admin");
    await addDataroomMember(room.id, member.id, "member");
    fileId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "loi.pdf" })).id;
  });

  it("sets and clears the last day of someone's access, shown in the users overview", async () => {
    const until = day(14);
    const response = await setAccess(owner, room.id, member.id, until);
    expect(response.status, await response.clone().text()).toBe(200);
    const { members } = await response.json<{ members: Member[] }>();
    expect(members.find((entry) => entry.userId === member.id)).toMatchObject({ accessUntil: until, accessEnded: false });
    // Still in, until then.
    expect((await get(`/api/files/${fileId}/download`, member.client)).status).toBe(200);
    const cleared = await (await setAccess(owner, room.id, member.id, null)).json<{ members: Member[] }>();
    expect(cleared.members.find((entry) => entry.userId === member.id)?.accessUntil).toBeNull();
  });

  it("refuses everything in the room once it ended, saying when, and records the refusals", async () => {
    const endedAt = await endAccessNow(room.id, member.id);
    const said = `Your access to this data room ended on ${new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(endedAt)}. Ask its owner if you need it again.`;
    for (const path of [`/api/datarooms/${room.id}`, `/api/files/${fileId}/download`, `/api/files/${fileId}/preview`, `/api/zip/folders/${room.rootFolderId}`, `/api/folders/${room.rootFolderId}`]) {
      const refused = await get(path, member.client);
      expect(refused.status, path).toBe(403);
      expect((await refused.json<ErrorBody>()).message, path).toBe(said);
    }
    const channel = await send(member.client, "POST", "/broadcasting/auth", { channel_name: `private-dataroom.${room.id}`, socket_id: "1.1" });
    expect(channel.status).toBe(403);

    const overview = await (await get(`/api/datarooms/${room.id}/members`, owner.client)).json<{ members: Member[] }>();
    expect(overview.members.find((entry) => entry.userId === member.id)?.accessEnded).toBe(true);
    const log = await (await get(`/api/datarooms/${room.id}/audit?person=${member.id}&action=access.refused`, owner.client)).json<{ entries: { detail: string }[] }>();
    expect(log.entries[0]?.detail).toBe(said);

    // Extending it lets them back in at once.
    expect((await setAccess(owner, room.id, member.id, day(3))).status).toBe(200);
    expect((await get(`/api/files/${fileId}/download`, member.client)).status).toBe(200);
  });

  it("explains a day it cannot take", async () => {
    const cases: [unknown, string][] = [
      [day(-1), "Choose today or a later day: access cannot end in the past."],
      ["2026-02-30", "That date does not exist."],
      ["next week", "Write the last day as YYYY-MM-DD."],
      [day(6 * 366), "Choose a day within five years."],
    ];
    for (const [until, message] of cases) {
      const refused = await setAccess(owner, room.id, member.id, until as string);
      expect(refused.status).toBe(400);
      expect((await refused.json<ValidationBody>()).fieldErrors?.access_until).toEqual([message]);
    }
  });

  it("answers anonymous 401, an outsider 404 with nothing changed, a member 403, never the owner's, admins' only by the owner", async () => {
    const before = await testEnv.DB.prepare("select access_expires_at as at from dataroom_members where dataroom_id = ? and user_id = ?").bind(room.id, admin.id).first<{ at: number | null }>();
    expect((await send(await newAuthClient(), "PUT", `/api/datarooms/${room.id}/members/${admin.id}/access`, { access_until: day(5) })).status).toBe(401);
    expect((await setAccess(outsider, room.id, admin.id, day(5))).status).toBe(404);
    expect((await setAccess(member, room.id, admin.id, day(5))).status).toBe(403);
    const onOwner = await setAccess(admin, room.id, owner.id, day(5));
    expect(onOwner.status).toBe(403);
    expect((await onOwner.json<ErrorBody>()).message).toBe("The owner's access never ends.");
    expect((await setAccess(admin, room.id, admin.id, day(5))).status).toBe(403);
    const after = await testEnv.DB.prepare("select access_expires_at as at from dataroom_members where dataroom_id = ? and user_id = ?").bind(room.id, admin.id).first<{ at: number | null }>();
    expect(after).toEqual(before);
    expect((await setAccess(owner, room.id, admin.id, day(5))).status).toBe(200);
  });

  it("needs a plan with time-limited access to set an end, and says which", async () => {
    const freeOwner = await signedIn({ tier: "free" });
    const guest = await signedIn();
    const freeRoom = await createRoom(freeOwner.client, "Free timed room");
    await addDataroomMember(freeRoom.id, guest.id, "member");
    const refused = await setAccess(freeOwner, freeRoom.id, guest.id, day(5));
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("You don't have the required feature: time_limited_access. It is part of the Basic plan and above.");
    // Taking an end away is never refused.
    expect((await setAccess(freeOwner, freeRoom.id, guest.id, null)).status).toBe(200);
  });

  it("gives an invitee the access end of their invitation when they join", async () => {
    const invitee = await signedIn();
    const until = day(30);
    const invited = await send(owner.client, "POST", `/api/datarooms/${room.id}/invitations`, { emails: [invitee.email], role: "member", access_until: until });
    expect(invited.status, await invited.clone().text()).toBe(201);
    const { invitations } = await invited.json<{ invitations: { email: string; accessUntil: string | null }[] }>();
    expect(invitations.find((entry) => entry.email === invitee.email)?.accessUntil).toBe(until);
    const mail = (await mailsTo(invitee.email)).at(-1);
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? "")?.[1];
    expect(token).toBeTruthy();
    expect((await send(invitee.client, "POST", "/api/invitations/accept", { token })).status).toBe(200);
    const overview = await (await get(`/api/datarooms/${room.id}/members`, owner.client)).json<{ members: Member[] }>();
    expect(overview.members.find((entry) => entry.userId === invitee.id)?.accessUntil).toBe(until);
  });
});
