import { describe, expect, it } from "vitest";
import { getAllFolders } from "~/features/files/folders.server";
import { getRecentUploads } from "~/features/files/organize.server";
import { teamDriveRoot } from "~/features/teams/team-drive.server";
import { getDashboard } from "~/features/workspace/dashboard.server";
import { WORKSPACE_COOKIE, currentWorkspace } from "~/features/teams/workspace.server";
import { createFile, testContext } from "~tests/factories/files";
import { countWhere, createRoom, get, joinRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, origin } from "./helpers";
import { join } from "./team-helpers";

/**
 * Team workspaces (issue 42, ADR 040): the member chooses their own workspace or a team's (checked
 * against their teams on every use); room lists narrow to the workspace's own; a room's owner moves
 * a room of no team into a team, whose people are then in it.
 */

type Room = { id: string; name: string; team: { id: string; name: string } | null };

async function teamWithRoom(owner: Person) {
  const created = await send(owner.client, "POST", "/api/teams", { name: "Falcon team" });
  const teamId = (await created.json<{ team: { id: string } }>()).team.id;
  const room = await send(owner.client, "POST", `/api/teams/${teamId}/datarooms`, { name: "Falcon room" });
  return { teamId, teamRoomId: (await room.json<{ dataroom: { id: string } }>()).dataroom.id };
}

const roomNames = async (person: Person, workspace?: string) =>
  (await (await get(`/api/datarooms${workspace ? `?workspace=${workspace}` : ""}`, person.client)).json<{ datarooms: Room[] }>()).datarooms.map((room) => room.name).sort();

const workspaceOf = (person: Person) => currentWorkspace(testContext(), person.id, new Request(`${origin}/datarooms`, { headers: { cookie: person.client.jar.header() } }));

describe("team workspaces", () => {
  it("switches to a team's workspace the member is in and back; another team's is 404 and changes nothing; a team they left is their own workspace again", async () => {
    const owner = await signedIn({ tier: "business" });
    const member = await signedIn();
    const { teamId } = await teamWithRoom(owner);
    await join(owner, teamId, member);

    const chosen = await send(member.client, "PUT", "/api/workspace/current", { teamId });
    expect(chosen.status, await chosen.clone().text()).toBe(200);
    expect(await chosen.json()).toEqual({ workspace: { id: teamId, name: "Falcon team" } });
    expect(chosen.headers.get("set-cookie")).toContain(`${WORKSPACE_COOKIE}=${teamId}`);
    member.client.jar.store(chosen);
    expect(await workspaceOf(member)).toMatchObject({ id: teamId, name: "Falcon team", role: "member" });

    const stranger = await signedIn();
    const refused = await send(stranger.client, "PUT", "/api/workspace/current", { teamId });
    expect(refused.status).toBe(404);
    expect(refused.headers.get("set-cookie") ?? "").not.toContain(WORKSPACE_COOKIE);
    // A cookie naming a team they are not in is their own workspace.
    stranger.client.jar.store(chosen);
    expect(await workspaceOf(stranger)).toBeNull();

    expect((await send(member.client, "POST", `/api/teams/${teamId}/leave`)).status).toBe(200);
    expect(await workspaceOf(member)).toBeNull();
    const personal = await send(member.client, "PUT", "/api/workspace/current", { teamId: null });
    expect(personal.status).toBe(200);
    expect(personal.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await send(await newAuthClient(), "PUT", "/api/workspace/current", { teamId })).status).toBe(401);
  });

  it("lists each workspace's own rooms and folders: the team's, or the member's of no team of theirs (a guest invited into one team room finds it in their own)", async () => {
    const owner = await signedIn({ tier: "business" });
    const { teamId, teamRoomId } = await teamWithRoom(owner);
    await createRoom(owner.client, "Own room");
    expect(await roomNames(owner)).toEqual(["Falcon room", "Own room"]);
    expect(await roomNames(owner, "personal")).toEqual(["Own room"]);
    expect(await roomNames(owner, teamId)).toEqual(["Falcon room"]);
    const room = (await (await get(`/api/datarooms?workspace=${teamId}`, owner.client)).json<{ datarooms: Room[] }>()).datarooms[0]!;
    expect(room.team).toEqual({ id: teamId, name: "Falcon team" });

    const guest = await signedIn({ name: "Gil Guest" });
    await joinRoom(owner, teamRoomId, guest, "guest");
    expect(await roomNames(guest, "personal")).toEqual(["Falcon room"]);

    // "All folders": the team's drive and rooms in its workspace; the member's own space and rooms of no team in theirs.
    const spaceNames = async (person: Person, workspace: string | null) => (await getAllFolders(testContext(), person.id, workspace)).map((space) => space.spaceName).sort();
    expect(await spaceNames(owner, teamId)).toEqual(["Falcon room", "Falcon team"]);
    expect(await spaceNames(owner, null)).toEqual(["My files", "Own room"]);
    expect(await spaceNames(guest, null)).toEqual(["Falcon room", "My files"]);
  });

  it("moves the owner's room of no team into a team: the team's people get in, everyone already in stays; only the owner, only into a team where they create rooms, only once", async () => {
    const owner = await signedIn({ tier: "business" });
    const { teamId } = await teamWithRoom(owner);
    const teammate = await signedIn({ name: "Tia Teammate" });
    await join(owner, teamId, teammate);
    const room = await createRoom(owner.client, "Deal archive");
    const guest = await signedIn();
    await joinRoom(owner, room.id, guest, "guest");
    expect((await get(`/api/datarooms/${room.id}`, teammate.client)).status).toBe(404);

    // Someone not in the room cannot tell it exists; a guest lacks the right; a team member who may not create rooms is refused.
    const outsider = await signedIn({ tier: "business" });
    expect((await send(outsider.client, "POST", `/api/datarooms/${room.id}/team`, { teamId })).status).toBe(404);
    expect((await send(guest.client, "POST", `/api/datarooms/${room.id}/team`, { teamId })).status).toBe(403);
    const ownTeam = await send(outsider.client, "POST", "/api/teams", { name: "Other" });
    const otherTeamId = (await ownTeam.json<{ team: { id: string } }>()).team.id;
    expect((await send(owner.client, "POST", `/api/datarooms/${room.id}/team`, { teamId: otherTeamId })).status).toBe(404);
    expect(await countWhere("select count(*) as n from datarooms where id = ? and team_id is not null", room.id)).toBe(0);

    const moved = await send(owner.client, "POST", `/api/datarooms/${room.id}/team`, { teamId });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect((await moved.json<{ room: Room }>()).room.team).toEqual({ id: teamId, name: "Falcon team" });
    expect((await get(`/api/datarooms/${room.id}`, teammate.client)).status).toBe(200);
    expect((await get(`/api/datarooms/${room.id}`, guest.client)).status).toBe(200);
    expect(await roomNames(owner, teamId)).toEqual(["Deal archive", "Falcon room"]);
    const again = await send(owner.client, "POST", `/api/datarooms/${room.id}/team`, { teamId });
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toBe("This data room is already in the workspace of the team “Falcon team”.");
    // Whoever leaves the team leaves the moved room too.
    expect((await send(owner.client, "DELETE", `/api/teams/${teamId}/members/${teammate.id}`)).status).toBe(200);
    expect((await get(`/api/datarooms/${room.id}`, teammate.client)).status).toBe(404);
  });

  it("the dashboard's rooms, recent files and storage widgets and the recent uploads page show the workspace's own", async () => {
    const owner = await signedIn({ tier: "business" });
    const { teamId, teamRoomId } = await teamWithRoom(owner);
    const own = await createRoom(owner.client, "Own room");
    const root = await teamDriveRoot(testContext(), teamId);
    await createFile({ spaceId: teamId, folderId: root, name: "team memo.txt", content: "x".repeat(300) });
    await createFile({ spaceId: own.id, folderId: own.rootFolderId, name: "own memo.txt" });
    const widgets = async (workspace: string | null) => {
      const { widgets: pending } = getDashboard(testContext(), owner.id, ["rooms", "recent-files", "storage"], Promise.resolve(workspace));
      return { rooms: (await pending.rooms!).map((room) => room.id), files: (await pending["recent-files"]!).map((file) => file.name), storage: await pending.storage! };
    };
    const team = await widgets(teamId);
    expect(team.rooms).toEqual([teamRoomId]);
    expect(team.files).toEqual(["team memo.txt"]);
    expect(team.storage.usedBytes).toBe(300);
    const mine = await widgets(null);
    expect(mine.rooms).toEqual([own.id]);
    expect(mine.files).toEqual(["own memo.txt"]);
    expect((await getRecentUploads(testContext(), owner.id, {}, teamId)).files.map((file) => file.name)).toEqual(["team memo.txt"]);
  });
});
