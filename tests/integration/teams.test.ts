import { describe, expect, it } from "vitest";
import { countWhere, get, send, signedIn, type Person } from "./dataroom-helpers";
import { invite, join, tokenMailedTo } from "./team-helpers";
import { mailsTo, newAuthClient, origin, testEnv, uniqueIp } from "./helpers";
import type { AuthCall } from "~/features/auth/auth-context.server";
import { findUserById } from "~/features/auth/auth.queries.server";
import { createSession } from "~/features/auth/session.server";
import { deleteAccount } from "~/features/personal-data/delete-account.server";
import { teamsPersonalData } from "~/features/teams/personal-data.server";
import { acceptTeamInvitation, registerAndAcceptTeam, viewTeamInvitation } from "~/features/teams/team-invitations.server";
import { createForm } from "~/features/forms/forms.server";
import { createReceivePage } from "~/features/receive/receive.server";
import { createTeam as createTeamAs } from "~/features/teams/teams.server";
import { AppError } from "~/lib/errors";
import { createServiceContext } from "~/lib/service-context.server";
import { createFile } from "~tests/factories/files";
import { createUser } from "~tests/factories/users";

/**
 * Teams (issue 42): a Business member creates a team; invitations by e-mail with single-use links
 * (the same /invite/{token} as data rooms', also for people without an account); seats from the
 * owner's plan and add-ons, checked on invite and on accept; roles, removing, leaving, handing over;
 * the team's activity; the authorization matrix on every route.
 */

type TeamView = {
  team: { id: string; name: string };
  me: { role: string; permissions: string[] };
  members: { userId: string; email: string; role: string }[];
  seats: { taken: number; total: number };
  invitations: { id: string; email: string; role: string }[] | null;
  activity: { action: string; actorEmail: string | null; targetName: string | null; detail: string | null }[] | null;
  rooms: { id: string; name: string }[];
};

async function createTeam(owner: Person, name = "Deal team"): Promise<string> {
  const response = await send(owner.client, "POST", "/api/teams", { name });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ team: { id: string } }>()).team.id;
}

async function view(person: Person, teamId: string): Promise<TeamView> {
  const response = await get(`/api/teams/${teamId}`, person.client);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<TeamView>();
}

const setTeamAddon = (userId: string, quantity: number) =>
  testEnv.DB.prepare("insert into user_addons (user_id, addon, quantity, updated_at) values (?, 'dataroom_team', ?, ?) on conflict (user_id, addon) do update set quantity = excluded.quantity").bind(userId, quantity, Date.now()).run();

describe("teams", () => {
  it("a Business member creates a team, invites someone who joins with the mailed link, and the team page shows members, seats, the invitation and the activity", async () => {
    const owner = await signedIn({ tier: "business", name: "Olivia Owner" });
    const teamId = await createTeam(owner, "Falcon deal team");
    const ada = await signedIn({ name: "Ada Analyst" });

    expect((await invite(owner, teamId, [ada.email, "new.person@example.test"], "member")).status).toBe(201);
    let page = await view(owner, teamId);
    expect(page.team.name).toBe("Falcon deal team");
    expect(page.me).toMatchObject({ role: "owner" });
    expect(page.seats).toEqual({ taken: 3, total: 10 });
    expect(page.invitations?.map((row) => row.email).sort()).toEqual([ada.email, "new.person@example.test"].sort());
    const [mail] = (await mailsTo(ada.email)).filter((item) => item.template === "team-invitation");
    expect(mail?.subject).toBe('Olivia Owner invited you to the team "Falcon deal team"');

    // Someone else signed in cannot use the link; the invitee can, once.
    const token = await tokenMailedTo(ada.email);
    const stranger = await signedIn();
    expect((await send(stranger.client, "POST", "/api/invitations/accept", { token })).status).toBe(403);
    expect((await send(ada.client, "POST", "/api/invitations/accept", { token })).status).toBe(200);
    expect((await send(ada.client, "POST", "/api/invitations/accept", { token })).status).toBe(404);

    page = await view(owner, teamId);
    expect(page.members.map((member) => [member.email, member.role])).toEqual([
      [owner.email, "owner"],
      [ada.email, "member"],
    ]);
    expect(page.seats.taken).toBe(3);
    expect(page.activity?.map((event) => event.action)).toEqual(["member.join", "invitation.send", "invitation.send", "team.create"]);
    expect(page.activity?.[0]).toMatchObject({ actorEmail: ada.email, detail: "Member" });

    // A member sees the team and its people, not the invitations or the activity.
    const seen = await view(ada, teamId);
    expect(seen.me.role).toBe("member");
    expect(seen.members).toHaveLength(2);
    expect(seen.invitations).toBeNull();
    expect(seen.activity).toBeNull();
    expect((await (await get("/api/teams", ada.client)).json<{ teams: { id: string; role: string }[] }>()).teams).toEqual([expect.objectContaining({ id: teamId, role: "member", memberCount: 2 })]);
  });

  it("someone without an account creates it from the link's page and lands in the team", async () => {
    const owner = await signedIn({ tier: "business" });
    const teamId = await createTeam(owner);
    const email = `newcomer-${crypto.randomUUID().slice(0, 8)}@example.test`;
    expect((await invite(owner, teamId, email)).status).toBe(201);
    const token = await tokenMailedTo(email);
    const call: AuthCall = { ctx: createServiceContext(testEnv, { requestId: "t" }), meta: { ipAddress: uniqueIp(), userAgent: "test" }, origin };

    // What the link's page shows a visitor: the team, who invited them, and that they can create their account there.
    const shown = await viewTeamInvitation(call.ctx, token, null);
    expect(shown).toMatchObject({ state: "open", viewer: "anonymous", accountExists: false, invitation: { email, teamName: "Deal team", roleLabel: "Member" } });
    expect(await viewTeamInvitation(call.ctx, "x".repeat(43), null)).toBeNull();

    const { teamId: joined, signIn } = await registerAndAcceptTeam(call, token, { name: "Nora Newcomer", password: "a long enough passphrase 42" });
    expect(joined).toBe(teamId);
    expect(signIn.token).toBeTruthy();
    expect(await viewTeamInvitation(call.ctx, token, null)).toMatchObject({ state: "accepted", problem: "This invitation was already used. If that was you, open the team from your list of teams." });
    await expect(registerAndAcceptTeam(call, token, { name: "Again", password: "a long enough passphrase 42" })).rejects.toMatchObject({ status: 404 });
    expect(await countWhere("select count(*) as n from team_members tm join users u on u.id = tm.user_id where tm.team_id = ? and u.email = ? and u.email_verified_at is not null", teamId, email)).toBe(1);
  });

  it("refuses seats past the plan's limit when inviting and again when accepting, and the add-on raises it", async () => {
    const owner = await signedIn({ tier: "business" });
    const teamId = await createTeam(owner);
    await testEnv.DB.prepare("update tiers set max_team_seats = 3 where name = 'business'").run();
    try {
      const people = await Promise.all([signedIn(), signedIn(), signedIn()]);
      // Owner + 2 invitations fill 3 seats; a 3rd address is refused with what the plan allows, nothing written.
      const refused = await invite(owner, teamId, people.map((person) => person.email));
      expect(refused.status).toBe(403);
      expect((await refused.json<{ message: string }>()).message).toBe("Your Business plan allows 3 team seats. Upgrade your plan or add team seats (the team collaboration add-on brings 5 a unit).");
      expect(await countWhere("select count(*) as n from team_invitations where team_id = ?", teamId)).toBe(0);

      expect((await invite(owner, teamId, [people[0]!.email, people[1]!.email])).status).toBe(201);
      // Re-sending to an address already invited keeps its seat.
      expect((await invite(owner, teamId, people[0]!.email)).status).toBe(201);
      expect((await invite(owner, teamId, people[2]!.email)).status).toBe(403);

      // The plan shrinks after the invitations went out: accepting is refused until a seat is free.
      await testEnv.DB.prepare("update tiers set max_team_seats = 2 where name = 'business'").run();
      const token = await tokenMailedTo(people[0]!.email);
      expect((await send(people[0]!.client, "POST", "/api/invitations/accept", { token })).status).toBe(403);
      const open = (await view(owner, teamId)).invitations!;
      const other = open.find((row) => row.email === people[1]!.email)!;
      expect((await send(owner.client, "DELETE", `/api/teams/${teamId}/invitations/${other.id}`)).status).toBe(200);
      expect((await send(people[0]!.client, "POST", "/api/invitations/accept", { token })).status).toBe(200);

      // One unit of the add-on: 5 more seats.
      await setTeamAddon(owner.id, 1);
      expect((await view(owner, teamId)).seats).toEqual({ taken: 2, total: 7 });
      expect((await invite(owner, teamId, people[2]!.email)).status).toBe(201);
    } finally {
      await testEnv.DB.prepare("update tiers set max_team_seats = 10 where name = 'business'").run();
    }
  });

  it("answers anonymous 401, a plan without team management 403, an outsider 404 with nothing written, a member without the right 403, and the owner", async () => {
    const owner = await signedIn({ tier: "business" });
    const teamId = await createTeam(owner);
    const member = await signedIn();
    await join(owner, teamId, member);
    const outsider = await signedIn({ tier: "business" });
    const pro = await signedIn({ tier: "pro" });
    const anonymous = await newAuthClient();

    expect((await get("/api/teams", anonymous)).status).toBe(401);
    expect((await send(anonymous, "POST", "/api/teams", { name: "X" })).status).toBe(401);
    const locked = await send(pro.client, "POST", "/api/teams", { name: "Mine" });
    expect(locked.status).toBe(403);
    expect((await locked.json<{ message: string }>()).message).toBe("You don't have the required feature: team_management. It is part of the Business plan and above.");
    expect(await countWhere("select count(*) as n from teams where owner_id = ?", pro.id)).toBe(0);
    expect((await send(owner.client, "POST", "/api/teams", { name: "   " })).status).toBe(400);

    const before = await countWhere("select count(*) as n from team_events where team_id = ?", teamId);
    const routes = [
      ["GET", `/api/teams/${teamId}`, undefined],
      ["PATCH", `/api/teams/${teamId}`, { name: "Taken over" }],
      ["POST", `/api/teams/${teamId}/invitations`, { emails: "friend@example.test" }],
      ["PATCH", `/api/teams/${teamId}/members/${member.id}`, { role: "admin" }],
      ["DELETE", `/api/teams/${teamId}/members/${member.id}`, undefined],
      ["POST", `/api/teams/${teamId}/leave`, undefined],
      ["POST", `/api/teams/${teamId}/transfer`, { userId: outsider.id }],
    ] as const;
    for (const [method, path, body] of routes) {
      expect((await send(anonymous, method, path, body)).status, `anonymous ${method} ${path}`).toBe(401);
      const response = method === "GET" ? await get(path, outsider.client) : await send(outsider.client, method, path, body);
      expect(response.status, `outsider ${method} ${path}`).toBe(404);
    }
    expect((await get("/api/teams/not-a-uuid", owner.client)).status).toBe(404);
    expect(await countWhere("select count(*) as n from team_events where team_id = ?", teamId)).toBe(before);
    expect(await countWhere("select count(*) as n from team_invitations where team_id = ? and email = 'friend@example.test'", teamId)).toBe(0);

    // A member without the rights: 403 naming the permission; nothing changes.
    for (const [method, path, body, permission] of [
      ["PATCH", `/api/teams/${teamId}`, { name: "Mine now" }, "team.rename"],
      ["POST", `/api/teams/${teamId}/invitations`, { emails: "friend@example.test" }, "team.invite"],
      ["DELETE", `/api/teams/${teamId}/members/${owner.id}`, undefined, "team.members.manage"],
      ["POST", `/api/teams/${teamId}/transfer`, { userId: member.id }, "team.transfer"],
    ] as const) {
      const response = await send(member.client, method, path, body);
      expect(response.status, `member ${method} ${path}`).toBe(403);
      expect((await response.json<{ message: string }>()).message).toContain(permission);
    }
    expect(await countWhere("select count(*) as n from team_events where team_id = ?", teamId)).toBe(before);
    expect((await view(owner, teamId)).team.name).toBe("Deal team");

    // The owner renames it.
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}`, { name: "Heron team" })).status).toBe(200);
    expect((await view(member, teamId)).team.name).toBe("Heron team");
  });

  it("admins manage members but only the owner makes admins; removing and leaving end membership; the owner hands the team over before leaving", async () => {
    const owner = await signedIn({ tier: "business", name: "Olivia Owner" });
    const teamId = await createTeam(owner);
    const admin = await signedIn({ name: "Alan Admin" });
    const member = await signedIn({ name: "Mia Member" });
    const other = await signedIn({ tier: "business", name: "Ben Business" });
    await join(owner, teamId, admin, "admin");
    await join(owner, teamId, member);
    await join(owner, teamId, other);

    // An admin may not invite or make admins, nor touch another admin or the owner.
    expect((await invite(admin, teamId, "boss@example.test", "admin")).status).toBe(403);
    expect((await send(admin.client, "PATCH", `/api/teams/${teamId}/members/${member.id}`, { role: "admin" })).status).toBe(403);
    expect((await send(admin.client, "DELETE", `/api/teams/${teamId}/members/${owner.id}`)).status).toBe(403);
    expect((await send(admin.client, "PATCH", `/api/teams/${teamId}/members/${member.id}`, { role: "billing" })).status).toBe(200);
    expect((await send(admin.client, "PATCH", `/api/teams/${teamId}/members/${member.id}`, { role: "owner" })).status).toBe(400);
    expect((await send(admin.client, "PATCH", `/api/teams/${teamId}/members/${admin.id}`, { role: "member" })).status).toBe(409);
    const billing = await view(member, teamId);
    expect(billing.me).toMatchObject({ role: "billing", permissions: ["team.view", "team.billing"] });

    // Removing ends membership at once: the team is 404 to them after.
    expect((await send(admin.client, "DELETE", `/api/teams/${teamId}/members/${member.id}`)).status).toBe(200);
    expect((await get(`/api/teams/${teamId}`, member.client)).status).toBe(404);

    // The owner cannot leave; hands the team over to someone whose plan has teams, then can.
    const stay = await send(owner.client, "POST", `/api/teams/${teamId}/leave`);
    expect(stay.status).toBe(409);
    expect((await stay.json<{ message: string }>()).message).toBe("You own this team: hand it over to someone in it before you leave.");
    const noPlan = await send(owner.client, "POST", `/api/teams/${teamId}/transfer`, { userId: admin.id });
    expect(noPlan.status).toBe(403);
    expect((await noPlan.json<{ message: string }>()).message).toBe("Alan Admin can't take the team over: their plan has no team management (Business and above).");
    expect((await send(owner.client, "POST", `/api/teams/${teamId}/transfer`, { userId: other.id })).status).toBe(200);
    const after = await view(other, teamId);
    expect(after.me.role).toBe("owner");
    expect(after.members.find((row) => row.userId === owner.id)?.role).toBe("admin");
    expect(await countWhere("select count(*) as n from teams where id = ? and owner_id = ?", teamId, other.id)).toBe(1);
    expect((await send(owner.client, "POST", `/api/teams/${teamId}/leave`)).status).toBe(200);
    expect((await view(other, teamId)).activity?.slice(0, 2).map((event) => event.action)).toEqual(["member.leave", "team.transfer"]);
  });

  it("a team's data room lets its people in by their team role; someone who joins later gets in, a new role applies, and whoever is removed or leaves is out at once", async () => {
    const owner = await signedIn({ tier: "business", name: "Olivia Owner" });
    const teamId = await createTeam(owner);
    const admin = await signedIn({ name: "Alan Admin" });
    const member = await signedIn({ name: "Mia Member" });
    const billing = await signedIn({ name: "Bill Billing" });
    const outsider = await signedIn({ tier: "business" });
    await join(owner, teamId, admin, "admin");
    await join(owner, teamId, member);
    await join(owner, teamId, billing, "billing");

    // Members and billing may not create the team's rooms; an outsider cannot tell the team exists.
    const refused = await send(member.client, "POST", `/api/teams/${teamId}/datarooms`, { name: "Mine" });
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toContain("team.rooms.create");
    expect((await send(outsider.client, "POST", `/api/teams/${teamId}/datarooms`, { name: "Mine" })).status).toBe(404);
    expect(await countWhere("select count(*) as n from datarooms where team_id = ?", teamId)).toBe(0);

    const created = await send(admin.client, "POST", `/api/teams/${teamId}/datarooms`, { name: "Osprey" });
    expect(created.status, await created.clone().text()).toBe(201);
    const roomId = (await created.json<{ dataroom: { id: string } }>()).dataroom.id;
    const roster = async () =>
      Object.fromEntries((await (await get(`/api/datarooms/${roomId}/members`, admin.client)).json<{ members: { name: string; role: string }[] }>()).members.map((row) => [row.name, row.role]));
    expect(await roster()).toEqual({ "Alan Admin": "owner", "Olivia Owner": "admin", "Mia Member": "member" });
    const opens = async (person: Person) => (await get(`/api/datarooms/${roomId}`, person.client)).status;
    expect(await opens(member)).toBe(200);
    expect(await opens(billing)).toBe(404);
    expect(await opens(outsider)).toBe(404);
    expect((await view(member, teamId)).rooms).toEqual([{ id: roomId, name: "Osprey" }]);
    expect((await view(billing, teamId)).rooms).toEqual([]);

    // Someone who joins the team later is in the room; a new team role is a new room role.
    const late = await signedIn({ name: "Lee Late" });
    await join(owner, teamId, late);
    expect(await opens(late)).toBe(200);
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}/members/${late.id}`, { role: "admin" })).status).toBe(200);
    expect((await roster())["Lee Late"]).toBe("admin");
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}/members/${member.id}`, { role: "billing" })).status).toBe(200);
    expect(await opens(member)).toBe(404);
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}/members/${member.id}`, { role: "member" })).status).toBe(200);
    expect(await opens(member)).toBe(200);

    // Removed or gone: out of the room at once; the room's owner stays its owner whatever happens in the team.
    expect((await send(owner.client, "DELETE", `/api/teams/${teamId}/members/${member.id}`)).status).toBe(200);
    expect(await opens(member)).toBe(404);
    expect((await send(late.client, "POST", `/api/teams/${teamId}/leave`)).status).toBe(200);
    expect(await opens(late)).toBe(404);
    expect(await roster()).toEqual({ "Alan Admin": "owner", "Olivia Owner": "admin" });
    expect((await view(owner, teamId)).activity?.map((event) => event.action)).toContain("room.create");
  });

  it("a custom role with view and comment only can do exactly that in the team's rooms; editing it applies at once; it is not deleted while held; every change is in the activity", async () => {
    const owner = await signedIn({ tier: "business", name: "Olivia Owner" });
    const teamId = await createTeam(owner);
    const ada = await signedIn({ name: "Ada Analyst" });
    const admin = await signedIn({ name: "Alan Admin" });
    await join(owner, teamId, ada);
    await join(owner, teamId, admin, "admin");
    const created = await send(owner.client, "POST", `/api/teams/${teamId}/datarooms`, { name: "Osprey" });
    const roomId = (await created.json<{ dataroom: { id: string } }>()).dataroom.id;
    const room = { id: roomId, ...(await (await get(`/api/datarooms/${roomId}`, owner.client)).json<{ rootFolderId: string }>()) };
    const file = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "model.xlsx", uploadedBy: owner.id });
    type Permissions = Record<string, boolean>;
    const permissionsOf = async (person: Person) => (await (await get(`/api/datarooms/${room.id}`, person.client)).json<{ dataroom: { permissions: Permissions } }>()).dataroom.permissions;
    expect(await permissionsOf(ada)).toMatchObject({ view: true, upload: true, edit: true });

    // The editor's rules, enforced by the server: needs, names, known permissions.
    const createRole = (person: Person, body: unknown) => send(person.client, "POST", `/api/teams/${teamId}/roles`, body);
    const refusal = async (response: Response) => ({ status: response.status, message: (await response.json<{ message: string }>()).message });
    expect(await refusal(await createRole(owner, { name: "Broken", permissions: ["dataroom.comment"] }))).toEqual({
      status: 400,
      message: "“Comment (data rooms)” needs “View (data rooms)”: choose both, or neither.",
    });
    expect(await refusal(await createRole(owner, { name: "admin", permissions: ["dataroom.view"] }))).toEqual({ status: 409, message: "“admin” is a built-in role: give yours another name." });
    expect((await createRole(owner, { name: "Odd", permissions: ["dataroom.fly"] })).status).toBe(400);
    expect(await refusal(await createRole(owner, { name: "Empty", permissions: [] }))).toEqual({ status: 400, message: "Choose at least one permission for the role." });
    // A member may not manage roles; someone outside the team cannot tell the team exists.
    expect((await createRole(ada, { name: "Mine", permissions: ["dataroom.view"] })).status).toBe(403);
    expect((await get(`/api/teams/${teamId}/roles`, ada.client)).status).toBe(403);
    const outsider = await signedIn({ tier: "business" });
    expect((await createRole(outsider, { name: "Mine", permissions: ["dataroom.view"] })).status).toBe(404);
    expect(await countWhere("select count(*) as n from team_roles where team_id = ?", teamId)).toBe(0);

    const made = await createRole(admin, { name: "Reviewer", description: "Reads and comments", permissions: ["dataroom.view", "dataroom.comment"] });
    expect(made.status, await made.clone().text()).toBe(201);
    const reviewer = (await made.json<{ role: { id: string } }>()).role;
    expect((await createRole(owner, { name: "reviewer", permissions: ["dataroom.view"] })).status).toBe(409);

    const given = await send(owner.client, "PATCH", `/api/teams/${teamId}/members/${ada.id}`, { role: "member", customRoleId: reviewer.id });
    expect(given.status, await given.clone().text()).toBe(200);
    expect(await given.json()).toEqual({ role: "member", customRoleId: reviewer.id, label: "Reviewer" });
    const permissions = await permissionsOf(ada);
    expect(Object.entries(permissions).filter(([, allowed]) => allowed).map(([name]) => name).sort()).toEqual(["comment", "view"]);
    // The room's permissions page says whose permissions the team sets.
    const matrix = await (await get(`/api/datarooms/${room.id}/permissions`, owner.client)).json<{ rows: { name: string; teamRole: string | null }[] }>();
    expect(Object.fromEntries(matrix.rows.map((row) => [row.name, row.teamRole]))).toEqual({ "Olivia Owner": null, "Alan Admin": "Admin", "Ada Analyst": "Reviewer" });

    // Exactly that: reading and commenting work; uploading, sharing and deleting are refused.
    expect((await get(`/api/folders/${room.rootFolderId}`, ada.client)).status).toBe(200);
    const commented = await send(ada.client, "POST", `/api/files/${file.id}/comments`, { body: "Checked the totals." });
    expect(commented.status, await commented.clone().text()).toBe(201);
    const upload = await send(ada.client, "POST", "/api/uploads", undefined, { "upload-length": "5", "upload-metadata": `folderId ${btoa(room.rootFolderId)},filename ${btoa("a.txt")}`, "tus-resumable": "1.0.0" });
    expect(await refusal(upload)).toEqual({ status: 403, message: "You don't have permission to upload here." });
    expect(await refusal(await send(ada.client, "POST", "/api/share-links", { target: { type: "file", id: file.id } }))).toEqual({ status: 403, message: "You don't have permission to share from this data room." });
    expect(await refusal(await send(ada.client, "POST", "/api/items/delete", { items: [{ type: "file", id: file.id }] }))).toEqual({ status: 403, message: "You don't have permission to delete these files and folders." });
    expect(await countWhere("select count(*) as n from files where id = ? and trashed_at is null", file.id)).toBe(1);
    // What the team itself allows a Reviewer: what a member sees, and no activity.
    const adaView = await view(ada, teamId);
    expect(adaView.me).toMatchObject({ role: "member", customRoleName: "Reviewer", permissions: ["team.view", "team.rooms.view"] });
    expect(adaView.activity).toBeNull();

    // Editing the role applies to its holders in every team room at once.
    const edited = await send(owner.client, "PATCH", `/api/teams/${teamId}/roles/${reviewer.id}`, {
      name: "Reviewer",
      description: "Reads, comments, uploads",
      permissions: ["dataroom.view", "dataroom.comment", "dataroom.upload", "team.activity.view"],
    });
    expect(edited.status, await edited.clone().text()).toBe(200);
    expect(await permissionsOf(ada)).toMatchObject({ view: true, comment: true, upload: true, download: false, delete: false, share: false });
    expect((await view(ada, teamId)).activity).not.toBeNull();

    // Not deleted while held; deleted once nobody holds it.
    const held = await send(owner.client, "DELETE", `/api/teams/${teamId}/roles/${reviewer.id}`);
    expect(await refusal(held)).toEqual({ status: 409, message: "“Reviewer” is held by 1 person. Give them another role first, then delete it." });
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}/members/${ada.id}`, { role: "member", customRoleId: null })).status).toBe(200);
    expect(await permissionsOf(ada)).toMatchObject({ view: true, upload: true, edit: true, share: false });
    expect((await send(owner.client, "DELETE", `/api/teams/${teamId}/roles/${reviewer.id}`)).status).toBe(200);
    expect(await countWhere("select count(*) as n from team_roles where team_id = ?", teamId)).toBe(0);

    const activity = (await view(owner, teamId)).activity!.map((event) => [event.action, event.targetName, event.detail]);
    expect(activity).toEqual(expect.arrayContaining([
      ["role.delete", "Reviewer", null],
      ["member.role", ada.email, "Reviewer → Member"],
      ["role.update", "Reviewer", "added Upload (data rooms), See the team's activity; new description"],
      ["member.role", ada.email, "Member → Reviewer"],
      ["role.create", "Reviewer", "View (data rooms), Comment (data rooms)"],
    ]));
  });

  it("invites someone straight into a custom role: the mail and the page name it, they join with its permissions in the team's rooms; a role deleted meanwhile leaves a plain member", async () => {
    const owner = await signedIn({ tier: "business", name: "Olivia Owner" });
    const teamId = await createTeam(owner);
    const roomId = (await (await send(owner.client, "POST", `/api/teams/${teamId}/datarooms`, { name: "Heron" })).json<{ dataroom: { id: string } }>()).dataroom.id;
    const role = await send(owner.client, "POST", `/api/teams/${teamId}/roles`, { name: "Auditor", permissions: ["dataroom.view", "dataroom.view_audit_log", "team.activity.view"] });
    const roleId = (await role.json<{ role: { id: string } }>()).role.id;
    const ada = await signedIn({ name: "Ada Auditor" });

    expect((await send(owner.client, "POST", `/api/teams/${teamId}/invitations`, { emails: [ada.email], role: "admin", customRoleId: roleId })).status).toBe(400);
    expect((await send(owner.client, "POST", `/api/teams/${teamId}/invitations`, { emails: [ada.email], customRoleId: crypto.randomUUID() })).status).toBe(404);
    expect((await send(owner.client, "POST", `/api/teams/${teamId}/invitations`, { emails: [ada.email], role: "member", customRoleId: roleId })).status).toBe(201);
    const mail = (await mailsTo(ada.email)).filter((item) => item.template === "team-invitation").at(-1)!;
    expect(mail.textBody).toContain("Auditor");
    expect((await view(owner, teamId)).invitations?.find((row) => row.email === ada.email)).toMatchObject({ roleLabel: "Auditor" });

    const accepted = await send(ada.client, "POST", "/api/invitations/accept", { token: await tokenMailedTo(ada.email) });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const adaView = await view(ada, teamId);
    expect(adaView.me).toMatchObject({ role: "member", customRoleName: "Auditor" });
    expect(adaView.activity).not.toBeNull();
    const permissions = (await (await get(`/api/datarooms/${roomId}`, ada.client)).json<{ dataroom: { permissions: Record<string, boolean> } }>()).dataroom.permissions;
    expect(Object.entries(permissions).filter(([, allowed]) => allowed).map(([name]) => name).sort()).toEqual(["view", "view_audit_log"]);
    // The role is held now: it cannot be deleted.
    expect((await send(owner.client, "DELETE", `/api/teams/${teamId}/roles/${roleId}`)).status).toBe(409);

    // Invited into a role that is deleted before they accept: they join as a plain member.
    const second = await send(owner.client, "POST", `/api/teams/${teamId}/roles`, { name: "Temp", permissions: ["dataroom.view"] });
    const secondId = (await second.json<{ role: { id: string } }>()).role.id;
    const bo = await signedIn({ name: "Bo Late" });
    expect((await send(owner.client, "POST", `/api/teams/${teamId}/invitations`, { emails: [bo.email], customRoleId: secondId })).status).toBe(201);
    expect((await send(owner.client, "DELETE", `/api/teams/${teamId}/roles/${secondId}`)).status).toBe(200);
    expect((await send(bo.client, "POST", "/api/invitations/accept", { token: await tokenMailedTo(bo.email) })).status).toBe(200);
    expect((await view(bo, teamId)).me).toMatchObject({ role: "member", customRoleName: null });
    expect((await get(`/api/datarooms/${roomId}`, bo.client)).status).toBe(200);
  });

  it("an account that owns a team is not deleted until the team is handed over, nothing erased before; its export lists its teams", async () => {
    const testUser = await createUser({ name: "Kim Keeper" });
    await testEnv.DB.prepare("update users set tier = 'business' where id = ?").bind(testUser.id).run();
    const call: AuthCall = { ctx: createServiceContext(testEnv, { requestId: "t" }), meta: { ipAddress: uniqueIp(), userAgent: "test" }, origin };
    const user = (await findUserById(call.ctx.db, testUser.id))!;
    const { session } = await createSession(call.ctx.db, { user, pendingSecondFactor: null, meta: call.meta, now: new Date() });
    const { id: teamId } = await createTeamAs(call.ctx, testUser.id, { name: "Keepers" });

    const refused = await deleteAccount(call, { user, session }, { password: testUser.password, confirmation: "DELETE" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(409);
    expect((refused as AppError).message).toBe('You own the team "Keepers". Hand it over to someone in it on its team page before you delete your account.');
    expect(await countWhere("select count(*) as n from users where id = ?", testUser.id)).toBe(1);
    expect(await countWhere("select count(*) as n from sessions where user_id = ?", testUser.id)).toBe(1);

    const [record] = await teamsPersonalData.export(call.ctx, testUser.id);
    expect(record?.path).toBe("teams/teams.json");
    expect(record?.data).toMatchObject({ teams: [{ id: teamId, name: "Keepers", role: "owner", owner: "Kim Keeper" }], activity: [{ action: "team.create", target: "Keepers" }] });
  });

  it("erasing a member's account hands the forms and receive pages they made in a team's workspace to the team's owner; their own go with them", async () => {
    const owner = await signedIn({ tier: "business", name: "Olivia Owner" });
    const teamId = await createTeam(owner);
    const testUser = await createUser({ name: "Lee Leaving" });
    await testEnv.DB.prepare("update users set tier = 'business' where id = ?").bind(testUser.id).run();
    const call: AuthCall = { ctx: createServiceContext(testEnv, { requestId: "t" }), meta: { ipAddress: uniqueIp(), userAgent: "test" }, origin };
    const user = (await findUserById(call.ctx.db, testUser.id))!;
    const { session } = await createSession(call.ctx.db, { user, pendingSecondFactor: null, meta: call.meta, now: new Date() });
    // They join as an admin and make a team form, a team receive page and a form of their own.
    expect((await invite(owner, teamId, testUser.email, "admin")).status).toBe(201);
    await acceptTeamInvitation(call.ctx, testUser.id, await tokenMailedTo(testUser.email));
    const teamForm = await createForm(call.ctx, testUser.id, { title: "Team intake" }, { teamId });
    const ownForm = await createForm(call.ctx, testUser.id, { title: "Mine" });
    const roomId = (await (await send(owner.client, "POST", `/api/teams/${teamId}/datarooms`, { name: "Intake room" })).json<{ dataroom: { id: string } }>()).dataroom.id;
    const { rootFolderId } = await (await get(`/api/datarooms/${roomId}`, owner.client)).json<{ rootFolderId: string }>();
    const teamPage = await createReceivePage(call.ctx, testUser.id, { kind: "simple", title: "Team documents", folderId: rootFolderId }, { teamId });

    await deleteAccount(call, { user, session }, { password: testUser.password, confirmation: "DELETE" });
    expect(await countWhere("select count(*) as n from users where id = ?", testUser.id)).toBe(0);
    expect(await countWhere("select count(*) as n from forms where id = ? and user_id = ? and team_id = ?", teamForm.id, owner.id, teamId)).toBe(1);
    expect(await countWhere("select count(*) as n from receive_pages where id = ? and user_id = ?", teamPage.id, owner.id)).toBe(1);
    expect(await countWhere("select count(*) as n from forms where id = ?", ownForm.id)).toBe(0);
    expect((await get(`/api/forms/${teamForm.id}`, owner.client)).status).toBe(200);
  });
});
