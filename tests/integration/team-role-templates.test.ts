import { describe, expect, it } from "vitest";
import { countWhere, createRoom, get, joinRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv } from "./helpers";

/**
 * A team's custom role used as a template on a room's permissions page (issue 42): in a room of
 * no team, someone who manages its people gives a person exactly the role's data room permissions;
 * the person keeps their room role. Only roles of the caller's own teams; the usual rules of who
 * may change whose permissions.
 */

type Matrix = { rows: { userId: string; role: string; permissions: Record<string, boolean> }[]; roleTemplates: { id: string; name: string; teamName: string }[] };

async function roleOf(owner: Person, teamId: string, name: string, permissions: string[]): Promise<string> {
  const made = await send(owner.client, "POST", `/api/teams/${teamId}/roles`, { name, permissions });
  expect(made.status, await made.clone().text()).toBe(201);
  return (await made.json<{ role: { id: string } }>()).role.id;
}

async function setup() {
  const owner = await signedIn({ tier: "business", name: "Olivia Owner" });
  const created = await send(owner.client, "POST", "/api/teams", { name: "Heron team" });
  const teamId = (await created.json<{ team: { id: string } }>()).team.id;
  const reviewerRole = await roleOf(owner, teamId, "Reviewer", ["dataroom.view", "dataroom.download", "dataroom.comment"]);
  const filesOnly = await roleOf(owner, teamId, "Files clerk", ["files.view"]);
  const room = await createRoom(owner.client, "Heron diligence");
  const member = await signedIn({ name: "Mia Member" });
  const guest = await signedIn({ name: "Gus Guest" });
  const admin = await signedIn({ name: "Ada Admin" });
  await joinRoom(owner, room.id, member, "member");
  await joinRoom(owner, room.id, guest, "guest");
  await joinRoom(owner, room.id, admin, "admin");
  return { owner, teamId, reviewerRole, filesOnly, room, member, guest, admin };
}

const apply = (person: Person | null, roomId: string, userId: string, roleId: unknown) => send(person?.client ?? null, "PUT", `/api/datarooms/${roomId}/permissions/${userId}/template`, { roleId });
const granted = (permissions: Record<string, boolean>) =>
  Object.entries(permissions)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .sort();

describe("team roles as room templates", () => {
  it("gives a member or a guest of a room outside the team exactly the role's room permissions, keeping their role, in the log", async () => {
    const { owner, reviewerRole, room, member, guest } = await setup();
    const matrix = await (await get(`/api/datarooms/${room.id}/permissions`, owner.client)).json<Matrix>();
    // Roles with no data room permission are not offered.
    expect(matrix.roleTemplates).toEqual([{ id: reviewerRole, name: "Reviewer", teamName: "Heron team" }]);

    for (const person of [member, guest]) {
      const response = await apply(owner, room.id, person.id, reviewerRole);
      expect(response.status, await response.clone().text()).toBe(200);
      const body = await response.json<{ role: string; permissions: Record<string, boolean> }>();
      expect(granted(body.permissions)).toEqual(["comment", "download", "view"]);
    }
    const after = await (await get(`/api/datarooms/${room.id}/permissions`, owner.client)).json<Matrix>();
    const row = (userId: string) => after.rows.find((item) => item.userId === userId)!;
    expect(row(member.id).role).toBe("member");
    expect(row(guest.id).role).toBe("guest");
    expect(granted(row(guest.id).permissions)).toEqual(["comment", "download", "view"]);
    expect(await countWhere("select count(*) as n from space_members where space_id = ? and user_id = ? and role = 'viewer'", room.id, guest.id)).toBe(1);
    // The room enforces it: the member may no longer upload (members upload by default).
    expect(await countWhere("select count(*) as n from dataroom_members where dataroom_id = ? and user_id = ? and json_extract(overrides, '$.upload') = 0", room.id, member.id)).toBe(1);
    await testEnv.DATA_ROOM.getByName(room.id).flushAudit();
    expect(await countWhere("select count(*) as n from dataroom_audit_log where dataroom_id = ? and action = 'permission.change' and detail like 'Team role “Reviewer” (Heron team) applied: %'", room.id)).toBe(2);
  });

  it("is refused to anyone who may not change that person's permissions, for roles of teams the caller is not in, and for roles without room permissions; nothing changes", async () => {
    const { owner, reviewerRole, filesOnly, room, member, guest, admin } = await setup();
    const before = async () => (await testEnv.DB.prepare("select user_id, role, overrides from dataroom_members where dataroom_id = ? order by user_id").bind(room.id).all()).results;
    const snapshot = await before();
    const outsider = await signedIn({ tier: "business" });

    expect((await send(await newAuthClient(), "PUT", `/api/datarooms/${room.id}/permissions/${member.id}/template`, { roleId: reviewerRole })).status).toBe(401);
    expect((await apply(outsider, room.id, member.id, reviewerRole)).status).toBe(404);
    expect((await apply(member, room.id, guest.id, reviewerRole)).status).toBe(403);
    // An admin of the room who is not in the team cannot use its roles.
    const notTheirs = await apply(admin, room.id, member.id, reviewerRole);
    expect(notTheirs.status).toBe(404);
    expect((await notTheirs.json<{ message: string }>()).message).toBe("That role does not exist in any of your teams.");
    expect((await apply(owner, room.id, owner.id, reviewerRole)).status).toBe(403);
    const empty = await apply(owner, room.id, member.id, filesOnly);
    expect(empty.status).toBe(400);
    expect((await empty.json<{ message: string }>()).message).toBe("“Files clerk” gives nothing in data rooms (it has no View). Choose a role with data room permissions.");
    expect((await apply(owner, room.id, member.id, "not-a-role")).status).toBe(400);
    expect((await apply(owner, room.id, outsider.id, reviewerRole)).status).toBe(404);
    expect(await before()).toEqual(snapshot);
  });
});
