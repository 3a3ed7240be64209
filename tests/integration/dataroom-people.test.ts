import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuthCall } from "~/features/auth/auth-context.server";
import { registerAndAccept, viewInvitation } from "~/features/datarooms/invitations.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { testContext } from "~tests/factories/files";
import { createUser, uniqueEmail } from "~tests/factories/users";
import { countRows, loginJson, mailsTo, origin, postJson, testEnv, uniqueIp, type AuthClient, type ErrorBody } from "./helpers";
import { get, send, signedIn, type Person } from "./dataroom-helpers";

/**
 * Data rooms, people (issue 19): invitations by e-mail (single-use, 7 days, resend, revoke),
 * accepting signed in or registering on the way, the users overview, roles, removal, leaving,
 * ownership, and the owner's plan limits on members, guests and admins.
 */

type Member = { userId: string; name: string; email: string | null; role: string; isOwner: boolean; isYou: boolean; lastSeenAt: string | null };
type Invitation = { id: string; email: string; role: string; expired: boolean; sendCount: number; expiresAt: string };
type People = { members: Member[]; invitations: Invitation[]; seats: { members: number; guests: number; maxMembers: number; maxGuests: number; guestsAllowed: boolean; adminsAllowed: boolean } };

const DAY = 24 * 60 * 60 * 1000;




async function createRoom(client: AuthClient, name: string): Promise<string> {
  const response = await postJson(client, "/api/datarooms", { name });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ dataroom: { id: string } }>()).dataroom.id;
}

async function people(client: AuthClient, roomId: string): Promise<People> {
  const response = await get(`/api/datarooms/${roomId}/members`, client);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<People>();
}

async function invite(client: AuthClient, roomId: string, body: unknown) {
  return postJson(client, `/api/datarooms/${roomId}/invitations`, body);
}

/** The token of the newest invitation link mailed to `email`. */
async function invitationToken(email: string): Promise<string> {
  const mails = (await mailsTo(email)).filter((mail) => mail.template === "dataroom-invitation");
  expect(mails.length).toBeGreaterThan(0);
  const match = mails.at(-1)!.textBody.match(/\/invite\/([A-Za-z0-9_-]{43})/);
  expect(match).not.toBeNull();
  return match![1]!;
}

async function accept(client: AuthClient, token: string) {
  return postJson(client, "/api/invitations/accept", { token });
}

async function roomStatus(client: AuthClient, roomId: string): Promise<number> {
  return (await get(`/api/datarooms/${roomId}`, client)).status;
}

describe("inviting people into a data room", () => {
  it("mails each address a single-use link with the room, the inviter, the role and the message, and lists them as pending", async () => {
    const owner = await signedIn({ name: "Olga Owner", tier: "basic" });
    const roomId = await createRoom(owner.client, "Falcon diligence");
    const first = uniqueEmail("invitee");
    const second = uniqueEmail("invitee");
    const response = await invite(owner.client, roomId, { emails: `${first.toUpperCase()}, ${second}\n${first}`, role: "member", message: "Welcome aboard" });
    expect(response.status, await response.clone().text()).toBe(201);
    const body = await response.json<{ invited: string[]; invitations: Invitation[] }>();
    expect(body.invited.sort()).toEqual([first, second].sort());

    const [mail] = (await mailsTo(first)).filter((item) => item.template === "dataroom-invitation");
    expect(mail!.subject).toBe('Olga Owner invited you to the data room "Falcon diligence"');
    expect(mail!.textBody).toContain("with the role “Member”");
    expect(mail!.textBody).toContain('Their message: "Welcome aboard"');
    expect(mail!.textBody).toMatch(/https:\/\/strongroom\.test\/invite\/[A-Za-z0-9_-]{43}/);

    const listed = await people(owner.client, roomId);
    expect(listed.invitations.map((item) => item.email).sort()).toEqual([first, second].sort());
    const pending = listed.invitations[0]!;
    expect(new Date(pending.expiresAt).getTime() - Date.now()).toBeGreaterThan(7 * DAY - 60_000);
    expect(new Date(pending.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(7 * DAY);
    // Only the token's hash is stored.
    const token = await invitationToken(first);
    const stored = await testEnv.DB.prepare("select count(*) as n from dataroom_invitations where token_hash = ?").bind(token).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it("refuses bad addresses, an empty list and too many at once with a message, and sends nothing", async () => {
    const owner = await signedIn({ tier: "business" });
    const roomId = await createRoom(owner.client, "Validation room");
    const before = await countRows("dataroom_invitations");
    const bad = await invite(owner.client, roomId, { emails: "someone@example.com, not-an-address", role: "member" });
    expect(bad.status).toBe(400);
    expect((await bad.json<ErrorBody>()).message).toContain("Not a valid e-mail address: not-an-address.");
    expect((await invite(owner.client, roomId, { emails: " , ", role: "member" })).status).toBe(400);
    const many = Array.from({ length: 21 }, () => uniqueEmail("crowd"));
    const tooMany = await invite(owner.client, roomId, { emails: many, role: "member" });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json<ErrorBody>()).message).toContain("Invite at most 20 people at a time.");
    const badRole = await invite(owner.client, roomId, { emails: uniqueEmail(), role: "owner" });
    expect(badRole.status).toBe(400);
    expect((await badRole.json<ErrorBody>()).message).toContain("Choose a role: admin, member or guest.");
    expect(await countRows("dataroom_invitations")).toBe(before);
  });

  it("skips people already in the room and says so; inviting only them is refused", async () => {
    const owner = await signedIn({ tier: "basic" });
    const colleague = await signedIn();
    const roomId = await createRoom(owner.client, "Already here");
    await addDataroomMember(roomId, colleague.id, "member");
    const onlyMember = await invite(owner.client, roomId, { emails: [colleague.email], role: "member" });
    expect(onlyMember.status).toBe(400);
    expect((await onlyMember.json<ErrorBody>()).message).toBe(`${colleague.email} is already in this data room.`);
    const fresh = uniqueEmail();
    const mixed = await invite(owner.client, roomId, { emails: [colleague.email, fresh], role: "member" });
    expect(mixed.status).toBe(201);
    expect(await mixed.json()).toMatchObject({ invited: [fresh], alreadyMembers: [colleague.email] });
  });

  it("on a Free plan, refuses guests and extra admins naming the plan and the add-on, until the add-on is there", async () => {
    const owner = await signedIn({ tier: "free" });
    const roomId = await createRoom(owner.client, "Free room");
    const guest = await invite(owner.client, roomId, { emails: [uniqueEmail()], role: "guest" });
    expect(guest.status).toBe(403);
    expect((await guest.json<ErrorBody>()).message).toContain("Guests come with the Basic plan and above, or the guest access add-on (dataroom.guest_access).");
    const admin = await invite(owner.client, roomId, { emails: [uniqueEmail()], role: "admin" });
    expect(admin.status).toBe(403);
    expect((await admin.json<ErrorBody>()).message).toContain("More admins come with the Pro plan and above, or the team collaboration add-on");

    await testEnv.DB.prepare("insert into user_addons (user_id, addon, quantity, updated_at) values (?, 'dataroom_guests', 1, ?)").bind(owner.id, Date.now()).run();
    expect((await invite(owner.client, roomId, { emails: [uniqueEmail()], role: "guest" })).status).toBe(201);
    const seats = (await people(owner.client, roomId)).seats;
    expect(seats).toMatchObject({ guests: 1, guestsAllowed: true, adminsAllowed: false, maxMembers: 3, maxGuests: 10 });
  });

  it("counts members and pending invitations against the owner's plan, and names the limit", async () => {
    const owner = await signedIn({ tier: "free" });
    const roomId = await createRoom(owner.client, "Full room");
    // Free: 3 members per room, the owner included.
    expect((await invite(owner.client, roomId, { emails: [uniqueEmail(), uniqueEmail()], role: "member" })).status).toBe(201);
    const over = await invite(owner.client, roomId, { emails: [uniqueEmail()], role: "member" });
    expect(over.status).toBe(403);
    expect((await over.json<ErrorBody>()).message).toBe("Your Free plan allows 3 members per data room. Upgrade your plan to raise it.");
  });
});

describe("accepting an invitation", () => {
  it("lets the invitee join once with the link; the link then no longer works, and the room is theirs to open", async () => {
    const owner = await signedIn({ tier: "basic" });
    const roomId = await createRoom(owner.client, "Join me");
    const invitee = await signedIn({ name: "Ivy Invitee" });
    expect((await invite(owner.client, roomId, { emails: [invitee.email], role: "guest" })).status).toBe(201);
    const token = await invitationToken(invitee.email);
    expect(await roomStatus(invitee.client, roomId)).toBe(404);

    const joined = await accept(invitee.client, token);
    expect(joined.status, await joined.clone().text()).toBe(200);
    expect(await joined.json()).toEqual({ dataroomId: roomId });
    expect(await roomStatus(invitee.client, roomId)).toBe(200);
    const listed = await people(owner.client, roomId);
    expect(listed.members.find((member) => member.userId === invitee.id)).toMatchObject({ role: "guest", name: "Ivy Invitee" });
    expect(listed.invitations).toEqual([]);

    const again = await accept(invitee.client, token);
    expect(again.status).toBe(404);
    expect((await again.json<ErrorBody>()).message).toContain("This invitation was already used.");
  });

  it("is refused for someone signed in with another address, and leaves the invitation open", async () => {
    const owner = await signedIn({ tier: "basic" });
    const roomId = await createRoom(owner.client, "Wrong person");
    const intended = uniqueEmail("intended");
    await invite(owner.client, roomId, { emails: [intended], role: "member" });
    const token = await invitationToken(intended);
    const other = await signedIn();
    const refused = await accept(other.client, token);
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe(`This invitation was sent to ${intended}. Sign in with that address to accept it.`);
    expect(await roomStatus(other.client, roomId)).toBe(404);
    expect((await people(owner.client, roomId)).invitations.map((item) => item.email)).toEqual([intended]);
  });

  it("stops working after 7 days, and a resend mails a new link (the old one dead) valid 7 more days", async () => {
    const owner = await signedIn({ tier: "basic" });
    const roomId = await createRoom(owner.client, "Expiring");
    const invitee = await signedIn();
    await invite(owner.client, roomId, { emails: [invitee.email], role: "member" });
    const oldToken = await invitationToken(invitee.email);
    await testEnv.DB.prepare("update dataroom_invitations set expires_at = ? where dataroom_id = ?").bind(Date.now() - 1000, roomId).run();
    const expired = await accept(invitee.client, oldToken);
    expect(expired.status).toBe(404);
    expect((await expired.json<ErrorBody>()).message).toBe("This invitation has expired. Ask the person who invited you to send a new one.");
    const [pending] = (await people(owner.client, roomId)).invitations;
    expect(pending).toMatchObject({ email: invitee.email, expired: true });

    const resent = await postJson(owner.client, `/api/datarooms/${roomId}/invitations/${pending!.id}/resend`, {});
    expect(resent.status, await resent.clone().text()).toBe(200);
    expect((await resent.json<{ invitation: Invitation }>()).invitation).toMatchObject({ expired: false, sendCount: 2 });
    const newToken = await invitationToken(invitee.email);
    expect(newToken).not.toBe(oldToken);
    expect((await accept(invitee.client, oldToken)).status).toBe(404);
    expect((await accept(invitee.client, newToken)).status).toBe(200);
  });

  it("a withdrawn invitation's link stops working at once", async () => {
    const owner = await signedIn({ tier: "basic" });
    const roomId = await createRoom(owner.client, "Withdrawn");
    const invitee = await signedIn();
    await invite(owner.client, roomId, { emails: [invitee.email], role: "member" });
    const token = await invitationToken(invitee.email);
    const [pending] = (await people(owner.client, roomId)).invitations;
    const revoked = await send(owner.client, "DELETE", `/api/datarooms/${roomId}/invitations/${pending!.id}`);
    expect(revoked.status).toBe(200);
    const refused = await accept(invitee.client, token);
    expect(refused.status).toBe(404);
    expect((await refused.json<ErrorBody>()).message).toContain("This invitation was withdrawn.");
    expect((await send(owner.client, "DELETE", `/api/datarooms/${roomId}/invitations/${pending!.id}`)).status).toBe(404);
  });

  it("two accepts of one link at once let exactly one in", async () => {
    const owner = await signedIn({ tier: "basic" });
    const roomId = await createRoom(owner.client, "Race");
    const invitee = await signedIn();
    await invite(owner.client, roomId, { emails: [invitee.email], role: "member" });
    const token = await invitationToken(invitee.email);
    const results = await Promise.all([accept(invitee.client, token), accept(invitee.client, token)]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 404]);
    const rows = await testEnv.DB.prepare("select count(*) as n from dataroom_members where dataroom_id = ? and user_id = ?").bind(roomId, invitee.id).first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it("checks the seat again on accepting: a room filled meanwhile refuses with the limit", async () => {
    const owner = await signedIn({ tier: "free" });
    const roomId = await createRoom(owner.client, "Filled meanwhile");
    const invitee = await signedIn();
    await invite(owner.client, roomId, { emails: [invitee.email], role: "member" });
    const token = await invitationToken(invitee.email);
    const a = await signedIn();
    const b = await signedIn();
    await addDataroomMember(roomId, a.id, "member");
    await addDataroomMember(roomId, b.id, "member");
    const refused = await accept(invitee.client, token);
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("Your Free plan allows 3 members per data room. Upgrade your plan to raise it.");
    expect(await roomStatus(invitee.client, roomId)).toBe(404);
  });
});

describe("the invitee's side of a link (the /invite page's services; the page itself is in tests/e2e)", () => {
  const call = (): AuthCall => ({ ctx: testContext(), meta: { ipAddress: uniqueIp(), userAgent: "vitest" }, origin });

  it("shows an anonymous visitor the room and the inviter, and changes nothing by being read", async () => {
    const owner = await signedIn({ name: "Paula Page", tier: "basic" });
    const roomId = await createRoom(owner.client, "Page room");
    const email = uniqueEmail("newcomer");
    await invite(owner.client, roomId, { emails: [email], role: "member", message: "See you inside" });
    const token = await invitationToken(email);
    const view = await viewInvitation(testContext(), token, null);
    expect(view).toMatchObject({
      state: "open",
      viewer: "anonymous",
      accountExists: false,
      dataroomId: null,
      invitation: { email, roomName: "Page room", inviterName: "Paula Page", roleLabel: "Member", message: "See you inside" },
    });
    const open = await testEnv.DB.prepare("select accepted_at as acceptedAt from dataroom_invitations where email = ?").bind(email).first<{ acceptedAt: number | null }>();
    expect(open!.acceptedAt).toBeNull();
    const other = await signedIn();
    expect((await viewInvitation(testContext(), token, { userId: other.id, email: other.email })).viewer).toBe("someone-else");
  });

  it("lets a newcomer create their account on the way: confirmed, signed in, in the room, and the link used up", async () => {
    const owner = await signedIn({ tier: "basic" });
    const roomId = await createRoom(owner.client, "Newcomer room");
    const email = uniqueEmail("newcomer");
    await invite(owner.client, roomId, { emails: [email], role: "member" });
    const token = await invitationToken(email);

    await expect(registerAndAccept(call(), token, { name: "Nina Newcomer", password: "short" })).rejects.toMatchObject({ status: 400 });
    expect(await testEnv.DB.prepare("select id from users where email = ?").bind(email).first()).toBeNull();

    const result = await registerAndAccept(call(), token, { name: "Nina Newcomer", password: "orchard-lantern-velvet-93" });
    expect(result.dataroomId).toBe(roomId);
    const user = await testEnv.DB.prepare("select id, email_verified_at as verified from users where email = ?").bind(email).first<{ id: string; verified: number | null }>();
    expect(user!.verified).not.toBeNull();
    const { client } = await loginJson(email, "orchard-lantern-velvet-93");
    expect(await roomStatus(client, roomId)).toBe(200);
    expect((await people(owner.client, roomId)).members.find((member) => member.userId === user!.id)).toMatchObject({ role: "member", name: "Nina Newcomer" });
    expect((await viewInvitation(testContext(), token, { userId: user!.id, email })).dataroomId).toBe(roomId);

    await expect(registerAndAccept(call(), token, { name: "Someone Else", password: "orchard-lantern-velvet-93" })).rejects.toMatchObject({ status: 404 });
  });

  it("asks someone whose address already has an account to sign in instead of registering", async () => {
    const owner = await signedIn({ tier: "basic" });
    const roomId = await createRoom(owner.client, "Existing account room");
    const existing = await createUser({ name: "Existing Erin" });
    await invite(owner.client, roomId, { emails: [existing.email], role: "member" });
    const token = await invitationToken(existing.email);
    expect((await viewInvitation(testContext(), token, null)).accountExists).toBe(true);
    await expect(registerAndAccept(call(), token, { name: "Impostor", password: "orchard-lantern-velvet-93" })).rejects.toMatchObject({
      status: 409,
      message: "An account with this e-mail address already exists. Sign in to accept the invitation.",
    });
    const unchanged = await testEnv.DB.prepare("select name from users where email = ?").bind(existing.email).first<{ name: string }>();
    expect(unchanged!.name).toBe("Existing Erin");
  });

  it("says an unknown or malformed link is not valid, without an error", async () => {
    for (const token of ["nope", "A".repeat(43), undefined]) {
      expect(await viewInvitation(testContext(), token, null)).toMatchObject({ state: "invalid", invitation: null });
    }
  });
});

describe("the people of a room", () => {
  let owner: Person;
  let admin: Person;
  let member: Person;
  let guest: Person;
  let outsider: Person;
  let roomId: string;
  beforeAll(async () => {
    owner = await signedIn({ name: "Aaron Owner", tier: "business" });
    admin = await signedIn({ name: "Bella Admin" });
    member = await signedIn({ name: "Carl Member" });
    guest = await signedIn({ name: "Dora Guest" });
    outsider = await signedIn({ name: "Olly Outsider" });
    roomId = await createRoom(owner.client, "People room");
    await addDataroomMember(roomId, admin.id, "admin");
    await addDataroomMember(roomId, member.id, "member");
    await addDataroomMember(roomId, guest.id, "guest");
  });

  it("lists everyone by role with last seen; guests see only the owner and themselves, without addresses", async () => {
    await get(`/api/datarooms/${roomId}`, member.client);
    const full = await people(owner.client, roomId);
    expect(full.members.map((item) => [item.name, item.role])).toEqual([
      ["Aaron Owner", "owner"],
      ["Bella Admin", "admin"],
      ["Carl Member", "member"],
      ["Dora Guest", "guest"],
    ]);
    expect(full.members.every((item) => item.email !== null)).toBe(true);
    // Carl opened the room: his last visit is noted; Dora has not been in yet.
    expect(full.members.find((item) => item.name === "Carl Member")!.lastSeenAt).not.toBeNull();
    expect(full.members.find((item) => item.name === "Dora Guest")!.lastSeenAt).toBeNull();
    expect(full.seats).toMatchObject({ members: 3, guests: 1 });

    const asMember = await people(member.client, roomId);
    expect(asMember.members).toHaveLength(4);
    expect(asMember.members.find((item) => item.name === "Bella Admin")!.email).toBeNull();
    expect(asMember.invitations).toEqual([]);

    const asGuest = await people(guest.client, roomId);
    expect(asGuest.members.map((item) => item.name)).toEqual(["Aaron Owner", "Dora Guest"]);
  });

  it("an anonymous visitor is asked to sign in, and an outsider gets 404 on every people endpoint with nothing changed", async () => {
    expect((await get(`/api/datarooms/${roomId}/members`)).status).toBe(401);
    const before = await testEnv.DB.prepare("select user_id, role from dataroom_members where dataroom_id = ? order by user_id").bind(roomId).all();
    const attempts = [
      await get(`/api/datarooms/${roomId}/members`, outsider.client),
      await send(outsider.client, "PATCH", `/api/datarooms/${roomId}/members/${member.id}`, { role: "guest" }),
      await send(outsider.client, "DELETE", `/api/datarooms/${roomId}/members/${member.id}`),
      await send(outsider.client, "POST", `/api/datarooms/${roomId}/leave`),
      await send(outsider.client, "POST", `/api/datarooms/${roomId}/transfer`, { user_id: outsider.id }),
      await send(outsider.client, "POST", `/api/datarooms/${roomId}/invitations`, { emails: [outsider.email], role: "member" }),
    ];
    expect(attempts.map((response) => response.status)).toEqual([404, 404, 404, 404, 404, 404]);
    const after = await testEnv.DB.prepare("select user_id, role from dataroom_members where dataroom_id = ? order by user_id").bind(roomId).all();
    expect(after.results).toEqual(before.results);
  });

  it("a member without manage_members or invite gets 403 naming the right, and nothing changes", async () => {
    const change = await send(member.client, "PATCH", `/api/datarooms/${roomId}/members/${guest.id}`, { role: "member" });
    expect(change.status).toBe(403);
    expect((await change.json<ErrorBody>()).message).toBe("You don't have permission to manage this data room's members.");
    const remove = await send(guest.client, "DELETE", `/api/datarooms/${roomId}/members/${member.id}`);
    expect(remove.status).toBe(403);
    const inviting = await send(member.client, "POST", `/api/datarooms/${roomId}/invitations`, { emails: [uniqueEmail()], role: "member" });
    expect(inviting.status).toBe(403);
    expect((await inviting.json<ErrorBody>()).message).toBe("You don't have permission to invite people to this data room.");
    expect((await people(owner.client, roomId)).members.find((item) => item.userId === guest.id)!.role).toBe("guest");
  });

  it("an admin manages members and guests but not other admins or the owner; only the owner makes admins", async () => {
    const toGuest = await send(admin.client, "PATCH", `/api/datarooms/${roomId}/members/${member.id}`, { role: "guest" });
    expect(toGuest.status, await toGuest.clone().text()).toBe(200);
    expect((await send(admin.client, "PATCH", `/api/datarooms/${roomId}/members/${member.id}`, { role: "member" })).status).toBe(200);
    const promote = await send(admin.client, "PATCH", `/api/datarooms/${roomId}/members/${member.id}`, { role: "admin" });
    expect(promote.status).toBe(403);
    expect((await promote.json<ErrorBody>()).message).toBe("Only the owner can make someone an admin.");
    const owner403 = await send(admin.client, "DELETE", `/api/datarooms/${roomId}/members/${owner.id}`);
    expect(owner403.status).toBe(403);
    expect((await owner403.json<ErrorBody>()).message).toContain("The owner cannot be changed or removed.");
    const adminInvite = await send(admin.client, "POST", `/api/datarooms/${roomId}/invitations`, { emails: [uniqueEmail()], role: "admin" });
    expect(adminInvite.status).toBe(403);
    expect((await adminInvite.json<ErrorBody>()).message).toBe("Only the owner can invite admins.");
  });

  it("removing someone ends their access with their very next request; leaving does the same; the owner cannot leave", async () => {
    const extra = await signedIn({ name: "Eve Extra" });
    await addDataroomMember(roomId, extra.id, "member");
    expect(await roomStatus(extra.client, roomId)).toBe(200);
    const removed = await send(owner.client, "DELETE", `/api/datarooms/${roomId}/members/${extra.id}`);
    expect(removed.status).toBe(200);
    expect(await roomStatus(extra.client, roomId)).toBe(404);
    const rows = await testEnv.DB.prepare("select (select count(*) from dataroom_members where dataroom_id = ?1 and user_id = ?2) + (select count(*) from space_members where space_id = ?1 and user_id = ?2) as n").bind(roomId, extra.id).first<{ n: number }>();
    expect(rows!.n).toBe(0);
    expect((await send(owner.client, "DELETE", `/api/datarooms/${roomId}/members/${extra.id}`)).status).toBe(404);

    const leaver = await signedIn();
    await addDataroomMember(roomId, leaver.id, "guest");
    expect((await send(leaver.client, "POST", `/api/datarooms/${roomId}/leave`)).status).toBe(200);
    expect(await roomStatus(leaver.client, roomId)).toBe(404);
    const ownerLeaves = await send(owner.client, "POST", `/api/datarooms/${roomId}/leave`);
    expect(ownerLeaves.status).toBe(403);
    expect((await ownerLeaves.json<ErrorBody>()).message).toContain("The owner cannot leave the data room.");
  });

  it("the owner transfers ownership to a member, who owns it from then on; the old owner stays as an admin", async () => {
    const room = await createRoom(owner.client, "Handover");
    const heir = await signedIn({ name: "Hal Heir", tier: "pro" });
    const visitor = await signedIn();
    await addDataroomMember(room, heir.id, "member");
    await addDataroomMember(room, visitor.id, "guest");
    const toGuest = await send(owner.client, "POST", `/api/datarooms/${room}/transfer`, { user_id: visitor.id });
    expect(toGuest.status).toBe(400);
    expect((await toGuest.json<ErrorBody>()).message).toBe("A guest cannot own the room. Make them a member first.");
    const byMember = await send(heir.client, "POST", `/api/datarooms/${room}/transfer`, { user_id: heir.id });
    expect(byMember.status).toBe(403);

    const moved = await send(owner.client, "POST", `/api/datarooms/${room}/transfer`, { user_id: heir.id });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const listed = await people(heir.client, room);
    expect(listed.members.filter((item) => item.isOwner).map((item) => item.userId)).toEqual([heir.id]);
    expect(listed.members.find((item) => item.userId === owner.id)!.role).toBe("admin");
    // The new owner has every right; the old one may no longer delete the room.
    expect((await send(owner.client, "DELETE", `/api/datarooms/${room}`)).status).toBe(403);
    const spaceOwner = await testEnv.DB.prepare("select owner_id as ownerId from spaces where id = ?").bind(room).first<{ ownerId: string }>();
    expect(spaceOwner!.ownerId).toBe(heir.id);
  });

  it("refuses changes while the room is archived, with the archive message", async () => {
    const room = await createRoom(owner.client, "Archived people");
    const someone = await signedIn();
    await addDataroomMember(room, someone.id, "member");
    await postJson(owner.client, `/api/datarooms/${room}/archive`, {});
    const refused = await invite(owner.client, room, { emails: [uniqueEmail()], role: "member" });
    expect(refused.status).toBe(409);
    expect((await refused.json<ErrorBody>()).message).toBe("This data room is archived and read-only. Unarchive it to make changes.");
    expect((await send(owner.client, "PATCH", `/api/datarooms/${room}/members/${someone.id}`, { role: "guest" })).status).toBe(409);
  });
});

describe("the room's logo", () => {
  // A 1×1 PNG.
  const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

  function putLogo(client: AuthClient | null, roomId: string, body: Uint8Array | string) {
    return exports.default.fetch(`${origin}/api/datarooms/${roomId}/logo`, {
      method: "PUT",
      headers: { accept: "application/json", "content-type": "application/octet-stream", origin, ...(client ? { cookie: client.jar.header(), "x-csrf-token": client.csrfToken } : {}) },
      body: body as unknown as BodyInit,
    });
  }

  it("the owner sets a PNG logo that everyone in the room can load, and removes it; other bytes are refused", async () => {
    const owner = await signedIn({ tier: "pro" });
    const member = await signedIn();
    const outsider = await signedIn();
    const roomId = await createRoom(owner.client, "Logo room");
    await addDataroomMember(roomId, member.id, "member");

    const set = await putLogo(owner.client, roomId, PNG);
    expect(set.status, await set.clone().text()).toBe(200);
    const { dataroom } = await set.json<{ dataroom: { logoUrl: string } }>();
    expect(dataroom.logoUrl).toMatch(new RegExp(`^/api/datarooms/${roomId}/logo\\?v=\\d+$`));
    expect(JSON.stringify(dataroom)).not.toContain("/logo-");
    const seen = await get(dataroom.logoUrl, member.client);
    expect(seen.status).toBe(200);
    expect(seen.headers.get("content-type")).toBe("image/png");
    expect(seen.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await seen.arrayBuffer())).toEqual(PNG);
    expect((await get(`/api/datarooms/${roomId}/logo`, outsider.client)).status).toBe(404);

    const svg = await putLogo(owner.client, roomId, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(svg.status).toBe(415);
    expect((await svg.json<ErrorBody>()).message).toBe("The logo must be a PNG, JPEG, WebP or GIF image.");
    const big = new Uint8Array(600 * 1024);
    big.set(PNG);
    expect((await putLogo(owner.client, roomId, big)).status).toBe(413);
    const byMember = await putLogo(member.client, roomId, PNG);
    expect(byMember.status).toBe(403);
    expect((await putLogo(outsider.client, roomId, PNG)).status).toBe(404);
    expect((await get(`/api/datarooms/${roomId}/logo`, owner.client)).status).toBe(200);

    const removed = await send(owner.client, "DELETE", `/api/datarooms/${roomId}/logo`);
    expect(removed.status).toBe(200);
    expect((await removed.json<{ dataroom: { logoUrl: string | null } }>()).dataroom.logoUrl).toBeNull();
    expect((await get(`/api/datarooms/${roomId}/logo`, member.client)).status).toBe(404);
  });
});

describe("a room's file limits", () => {
  it("are the room owner's plan, whoever adds the folder", async () => {
    const owner = await signedIn({ tier: "free" });
    const colleague = await signedIn({ tier: "business" });
    const roomId = await createRoom(owner.client, "Owner's plan room");
    await addDataroomMember(roomId, colleague.id, "member");
    const { rootFolderId } = await (await get(`/api/datarooms/${roomId}`, owner.client)).json<{ rootFolderId: string }>();
    // Free allows 50 folders per room (its top folder not counted).
    const now = Date.now();
    const rows = Array.from({ length: 50 }, (_, index) =>
      testEnv.DB.prepare("insert into folders (id, space_id, parent_id, kind, label, created_by, created_at, updated_at) values (?, ?, ?, 'folder', ?, ?, ?, ?)").bind(
        crypto.randomUUID(),
        roomId,
        rootFolderId,
        `Folder ${index}`,
        owner.id,
        now,
        now,
      ),
    );
    await testEnv.DB.batch(rows);
    const refused = await postJson(colleague.client, "/api/folders", { parentId: rootFolderId, label: "One too many" });
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("Your Free plan allows 50 folders per data room. Upgrade your plan to raise it.");
  });
});
