import { describe, expect, it } from "vitest";
import { notifyMember, notifyRoom } from "~/features/notifications/notifications.server";
import { DEFAULT_LAYOUT, type WidgetId } from "~/features/workspace/dashboard.constants";
import { changeDashboardLayout, getDashboard, getDashboardSettings, type WidgetData } from "~/features/workspace/dashboard.server";
import { createServiceContext } from "~/lib/service-context.server";
import { countingD1, type D1Stats } from "~workers/middleware/d1-stats";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, personalSpaceOf } from "~tests/factories/files";
import { acceptOwnInvitation, viewOwnInvitation } from "~/features/datarooms/invitations.server";
import { createUser } from "~tests/factories/users";
import { countWhere, createRoom, send, signedIn } from "./dataroom-helpers";
import { testEnv } from "./helpers";

/**
 * The dashboard (issue 36): each widget shows the member's own things only, the layout is kept per
 * member, and the page costs the same number of D1 round trips however much the member owns.
 */

const DAY = 24 * 60 * 60 * 1000;
const ctxAt = (now = new Date(), env: Env = testEnv) => createServiceContext(env, { requestId: "dashboard-test", now: () => now });

async function widgetsOf(userId: string, layout: WidgetId[] = [...DEFAULT_LAYOUT], now = new Date(), env: Env = testEnv) {
  const { widgets } = getDashboard(ctxAt(now, env), userId, layout);
  const entries = await Promise.all(Object.entries(widgets).map(async ([id, promise]) => [id, await promise] as const));
  return Object.fromEntries(entries) as { [Id in WidgetId]: WidgetData[Id] };
}

async function insertShareLink(userId: string, spaceId: string, fileId: string, options: { name: string; expiresAt?: Date | null; revoked?: boolean }) {
  const id = crypto.randomUUID();
  const now = Date.now();
  await testEnv.DB.prepare(
    "insert into share_links (id, token_hash, token_sealed, name, target_type, target_id, space_id, created_by, expires_at, revoked_at, created_at, updated_at) values (?, ?, 'sealed', ?, 'file', ?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(id, crypto.randomUUID(), options.name, fileId, spaceId, userId, options.expiresAt ? options.expiresAt.getTime() : null, options.revoked ? now : null, now, now)
    .run();
  return id;
}

async function insertVisit(linkId: string, at: Date) {
  await testEnv.DB.prepare("insert into share_link_visits (id, link_id, started_at, last_seen_at) values (?, ?, ?, ?)").bind(crypto.randomUUID(), linkId, at.getTime(), at.getTime()).run();
}

describe("the dashboard's widgets", () => {
  it("list the rooms the member is in now, never one they left, an archived one or someone else's", async () => {
    const owner = await signedIn({ name: "Olga Owner", tier: "pro" });
    const member = await signedIn();
    const outsider = await signedIn();
    const kept = await createRoom(owner.client, "Kept room");
    const left = await createRoom(owner.client, "Left room");
    const archived = await createRoom(owner.client, "Archived room");
    await createRoom(outsider.client, "Outsider's room");
    for (const room of [kept, left, archived]) await addDataroomMember(room.id, member.id, "member");
    expect((await send(owner.client, "POST", `/api/datarooms/${archived.id}/archive`)).status).toBe(200);
    // Leaving goes through the room's authority, as the people page does.
    expect((await send(owner.client, "DELETE", `/api/datarooms/${left.id}/members/${member.id}`)).status).toBe(200);

    const { rooms } = await widgetsOf(member.id, ["rooms"]);
    expect(rooms.map((room) => room.name)).toEqual(["Kept room"]);
    expect(rooms[0]).toMatchObject({ role: "Member", isOwner: false });
    expect((await widgetsOf(owner.id, ["rooms"])).rooms.map((room) => room.name).sort()).toEqual(["Kept room", "Left room"]);
  });

  it("show recent files from the member's own spaces only", async () => {
    const member = await signedIn();
    const other = await signedIn();
    const mine = await personalSpaceOf(member.id);
    const theirs = await personalSpaceOf(other.id);
    await createFile({ spaceId: mine.spaceId, folderId: mine.inboxId, name: "my minutes.txt" });
    await createFile({ spaceId: theirs.spaceId, folderId: theirs.inboxId, name: "their minutes.txt" });
    const { "recent-files": recent } = await widgetsOf(member.id, ["recent-files"]);
    expect(recent.map((file) => file.name)).toEqual(["my minutes.txt"]);
  });

  it("count the week's visits to the member's own share links, day by day", async () => {
    const now = new Date("2026-11-26T15:00:00Z");
    const member = await signedIn();
    const other = await signedIn();
    const mine = await personalSpaceOf(member.id);
    const theirs = await personalSpaceOf(other.id);
    const file = await createFile({ spaceId: mine.spaceId, folderId: mine.inboxId });
    const theirFile = await createFile({ spaceId: theirs.spaceId, folderId: theirs.inboxId });
    const link = await insertShareLink(member.id, mine.spaceId, file.id, { name: "Teaser" });
    const theirLink = await insertShareLink(other.id, theirs.spaceId, theirFile.id, { name: "Theirs" });
    await insertVisit(link, new Date("2026-11-26T09:00:00Z"));
    await insertVisit(link, new Date("2026-11-26T10:00:00Z"));
    await insertVisit(link, new Date("2026-11-21T10:00:00Z"));
    await insertVisit(link, new Date("2026-11-10T10:00:00Z"));
    await insertVisit(theirLink, new Date("2026-11-26T10:00:00Z"));

    const { "share-views": days } = await widgetsOf(member.id, ["share-views"], now);
    expect(days).toEqual([
      { date: "2026-11-20", visits: 0 },
      { date: "2026-11-21", visits: 1 },
      { date: "2026-11-22", visits: 0 },
      { date: "2026-11-23", visits: 0 },
      { date: "2026-11-24", visits: 0 },
      { date: "2026-11-25", visits: 0 },
      { date: "2026-11-26", visits: 2 },
    ]);
  });

  it("put in the attention feed what waits for the member: unread mentions and answers, links ending within a week, nothing of anyone else's", async () => {
    const now = new Date();
    const owner = await signedIn();
    const member = await signedIn();
    const room = await createRoom(owner.client, "Feed room");
    await addDataroomMember(room.id, member.id, "member");
    const ctx = ctxAt(now);
    await notifyRoom(ctx, { roomId: room.id, actorId: owner.id, kind: "comment.mention", title: "Olga mentioned you", excerpt: "Is the fee final?", link: `/dataroom/${room.id}/comments` }, [member.id]);
    await notifyRoom(ctx, { roomId: room.id, actorId: owner.id, kind: "file.upload", title: "Two files added", excerpt: "", link: `/dataroom/${room.id}` }, [member.id]);
    await notifyMember(ctx, { userId: member.id, actorId: null, kind: "secret.received", title: "Your request was answered", excerpt: "Wi-Fi password", link: "/secrets" });
    await notifyMember(ctx, { userId: owner.id, actorId: null, kind: "secret.received", title: "The owner's answer", excerpt: "", link: "/secrets" });
    const space = await personalSpaceOf(member.id);
    const file = await createFile({ spaceId: space.spaceId, folderId: space.inboxId });
    await insertShareLink(member.id, space.spaceId, file.id, { name: "Ends soon", expiresAt: new Date(now.getTime() + 3 * DAY) });
    await insertShareLink(member.id, space.spaceId, file.id, { name: "Ends later", expiresAt: new Date(now.getTime() + 10 * DAY) });
    await insertShareLink(member.id, space.spaceId, file.id, { name: "Revoked", expiresAt: new Date(now.getTime() + 2 * DAY), revoked: true });
    await insertShareLink(member.id, space.spaceId, file.id, { name: "Ended", expiresAt: new Date(now.getTime() - DAY) });

    const { attention } = await widgetsOf(member.id, ["attention"], now);
    expect(attention.map((item) => item.kind).sort()).toEqual(["comment.mention", "secret.received", "share.expiring"]);
    expect(attention.find((item) => item.kind === "share.expiring")).toMatchObject({ title: "Ends soon stops working soon", href: expect.stringMatching(/^\/share-links\//) });
    expect(attention.find((item) => item.kind === "comment.mention")).toMatchObject({ label: "Mentioned you", title: "Olga mentioned you", detail: "Is the fee final?" });
    expect(JSON.stringify(attention)).not.toContain("The owner's answer");

    // Read, it no longer waits.
    await testEnv.DB.prepare("update notifications set read_at = ? where user_id = ?").bind(now.getTime(), member.id).run();
    expect((await widgetsOf(member.id, ["attention"], now)).attention.map((item) => item.kind)).toEqual(["share.expiring"]);
  });

  it("flag storage at 80 % of the plan's quota, with the meter", async () => {
    const member = await signedIn();
    const space = await personalSpaceOf(member.id);
    const file = await createFile({ spaceId: space.spaceId, folderId: space.inboxId });
    const quota = (await widgetsOf(member.id, ["storage"])).storage.quotaBytes!;
    expect(quota).toBeGreaterThan(0);
    expect((await widgetsOf(member.id, ["attention"])).attention.filter((item) => item.kind === "storage.near-limit")).toEqual([]);
    await testEnv.DB.prepare("update files set size = ? where id = ?").bind(Math.ceil(quota * 0.85), file.id).run();
    const { storage, attention } = await widgetsOf(member.id, ["storage", "attention"]);
    expect(storage.usedBytes).toBeGreaterThanOrEqual(quota * 0.85);
    expect(attention.find((item) => item.kind === "storage.near-limit")).toMatchObject({ title: "Your files use 85% of your storage", href: "/settings/storage" });
  });
});

describe("the dashboard's cost", () => {
  it("makes the same number of D1 round trips for a member with 10 files as with 2,000, rooms and links included", async () => {
    const trips = async (fileCount: number) => {
      const member = await signedIn({ tier: "pro" });
      const space = await personalSpaceOf(member.id);
      const now = Date.now();
      // One statement makes them all (a recursive count), however many.
      await testEnv.DB.prepare(
        "with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) insert into files (id, space_id, folder_id, name, size, content_type, r2_key, created_at, updated_at) select lower(hex(randomblob(16))), ?, ?, 'cost ' || i || '.txt', 10, 'text/plain', 'files/cost-' || lower(hex(randomblob(8))), ? + i, ? + i from n",
      )
        .bind(fileCount, space.spaceId, space.inboxId, now, now)
        .run();
      const first = await testEnv.DB.prepare("select id from files where space_id = ? limit 1").bind(space.spaceId).first<{ id: string }>();
      for (let room = 0; room < Math.min(5, fileCount / 10); room++) await createRoom(member.client, `Cost room ${room}`);
      await insertShareLink(member.id, space.spaceId, first!.id, { name: "Cost link", expiresAt: new Date(Date.now() + DAY) });
      const stats: D1Stats = { roundTrips: 0, rowsRead: 0, statements: 0 };
      await widgetsOf(member.id, [...DEFAULT_LAYOUT], new Date(), { ...testEnv, DB: countingD1(testEnv.DB, stats) });
      return stats.roundTrips;
    };
    const few = await trips(10);
    const many = await trips(2000);
    expect(many).toBe(few);
    // One or two per widget (seven since forms added theirs, issue 37), and one per attention
    // source: twelve since "Signatures waiting for me" joined the feed (issue 38), thirteen since
    // workflow tasks did (issue 41).
    expect(few).toBeLessThanOrEqual(13);
  });
});

describe("the dashboard's layout", () => {
  it("is kept per member: shown, hidden, moved up and down, and back to the default", async () => {
    const member = await signedIn();
    const other = await signedIn();
    const ctx = ctxAt();
    expect((await getDashboardSettings(ctx, member.id)).layout).toEqual([...DEFAULT_LAYOUT]);
    expect(await changeDashboardLayout(ctx, member.id, { intent: "up", widget: "storage" })).toEqual(["attention", "quick-actions", "recent-files", "rooms", "storage", "share-views", "form-submissions"]);
    expect(await changeDashboardLayout(ctx, member.id, { intent: "up", widget: "attention" })).toEqual(["attention", "quick-actions", "recent-files", "rooms", "storage", "share-views", "form-submissions"]);
    expect(await changeDashboardLayout(ctx, member.id, { intent: "hide", widget: "quick-actions" })).toEqual(["attention", "recent-files", "rooms", "storage", "share-views", "form-submissions"]);
    expect(await getDashboardSettings(ctx, member.id)).toEqual({ layout: ["attention", "recent-files", "rooms", "storage", "share-views", "form-submissions"], hidden: ["quick-actions"] });
    expect(await changeDashboardLayout(ctx, member.id, { intent: "show", widget: "quick-actions" })).toEqual(["attention", "recent-files", "rooms", "storage", "share-views", "form-submissions", "quick-actions"]);
    expect(await changeDashboardLayout(ctx, member.id, { intent: "down", widget: "quick-actions" })).toEqual(["attention", "recent-files", "rooms", "storage", "share-views", "form-submissions", "quick-actions"]);
    // The page reads the layout from the account row the session loaded.
    const row = await testEnv.DB.prepare("select dashboard_layout as layout from users where id = ?").bind(member.id).first<{ layout: string }>();
    expect(getDashboard(ctx, member.id, JSON.parse(row!.layout)).layout).toEqual(["attention", "recent-files", "rooms", "storage", "share-views", "form-submissions", "quick-actions"]);
    expect((await getDashboardSettings(ctx, other.id)).layout).toEqual([...DEFAULT_LAYOUT]);
    expect(await changeDashboardLayout(ctx, member.id, { intent: "reset" })).toEqual([...DEFAULT_LAYOUT]);
  });

  it("takes a new order from a drag and drop, but only of the widgets shown", async () => {
    const member = await signedIn();
    const ctx = ctxAt();
    await changeDashboardLayout(ctx, member.id, { intent: "hide", widget: "quick-actions" });
    expect(await changeDashboardLayout(ctx, member.id, { intent: "order", order: "storage, attention,rooms,recent-files,share-views,form-submissions" })).toEqual(["storage", "attention", "rooms", "recent-files", "share-views", "form-submissions"]);
    for (const order of ["storage,attention,rooms,recent-files", "storage,attention,rooms,recent-files,share-views,form-submissions,quick-actions", "storage,storage,rooms,recent-files,share-views", ""]) {
      await expect(changeDashboardLayout(ctx, member.id, { intent: "order", order })).rejects.toMatchObject({ status: 409, message: "The new order must hold exactly the widgets on your dashboard. Reload the page and try again." });
    }
    await expect(changeDashboardLayout(ctx, member.id, { intent: "order", order: "storage,weather" })).rejects.toMatchObject({ status: 400 });
    expect((await getDashboardSettings(ctx, member.id)).layout).toEqual(["storage", "attention", "rooms", "recent-files", "share-views", "form-submissions"]);
  });

  it("refuses a change it cannot understand with a message, and keeps the layout", async () => {
    const member = await signedIn();
    const ctx = ctxAt();
    await changeDashboardLayout(ctx, member.id, { intent: "hide", widget: "rooms" });
    for (const input of [{ intent: "explode", widget: "rooms" }, { intent: "show", widget: "weather" }, {}]) {
      const refusal = await changeDashboardLayout(ctx, member.id, input).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toMatchObject({ status: 400 });
      expect((refusal as Error).message).not.toBe("");
    }
    expect((await getDashboardSettings(ctx, member.id)).hidden).toEqual(["rooms"]);
  });

  it("falls back gracefully on a stored layout with a widget that no longer exists", async () => {
    const member = await signedIn();
    const { layout, widgets } = getDashboard(ctxAt(), member.id, ["storage", "weather", "storage", "rooms"]);
    expect(layout).toEqual(["storage", "rooms"]);
    expect(Object.keys(widgets)).toEqual(["storage", "rooms"]);
    await Promise.all(Object.values(widgets));
    expect(getDashboard(ctxAt(), member.id, null).layout).toEqual([...DEFAULT_LAYOUT]);
  });
});

describe("invitations waiting in the attention feed", () => {
  async function invited(options: { verified?: boolean } = {}) {
    const owner = await signedIn({ name: "Olga Owner", tier: "business" });
    const room = await createRoom(owner.client, "Harbour deal");
    const invitee = await createUser({ name: "Ivan Invitee", verified: options.verified });
    const response = await send(owner.client, "POST", `/api/datarooms/${room.id}/invitations`, { emails: [invitee.email], role: "member", message: "Welcome aboard" });
    expect(response.status, await response.clone().text()).toBe(201);
    const row = await testEnv.DB.prepare("select id from dataroom_invitations where dataroom_id = ? and email = ?").bind(room.id, invitee.email.toLowerCase()).first<{ id: string }>();
    return { owner, room, invitee, invitationId: row!.id };
  }

  it("show the invitee their open invitation and let them join from it, once", async () => {
    const { room, invitee, invitationId } = await invited();
    const { attention } = await widgetsOf(invitee.id, ["attention"]);
    expect(attention).toMatchObject([{ kind: "room.invitation", label: "Invitation", title: "Olga Owner invited you to the data room “Harbour deal”", href: `/invitations/${invitationId}` }]);
    expect(attention[0]!.detail).toMatch(/^As member\. Accept it before /);

    const view = await viewOwnInvitation(ctxAt(), invitee.id, invitationId);
    expect(view).toMatchObject({ state: "open", viewer: "invitee", invitation: { roomName: "Harbour deal", roleLabel: "Member", message: "Welcome aboard" } });
    expect(await acceptOwnInvitation(ctxAt(), invitee.id, invitationId)).toBe(room.id);
    expect(await countWhere("select count(*) as n from dataroom_members where dataroom_id = ? and user_id = ?", room.id, invitee.id)).toBe(1);
    // Used: gone from the feed, and it cannot be used again.
    expect((await widgetsOf(invitee.id, ["attention"])).attention).toEqual([]);
    await expect(acceptOwnInvitation(ctxAt(), invitee.id, invitationId)).rejects.toMatchObject({ status: 404, message: expect.stringContaining("already used") });
  });

  it("answer anyone but the invitee 404 and change nothing; an unconfirmed address sees nothing", async () => {
    const { owner, invitee, invitationId } = await invited({ verified: false });
    const outsider = await signedIn();
    expect((await widgetsOf(invitee.id, ["attention"])).attention).toEqual([]);
    for (const userId of [outsider.id, owner.id, invitee.id]) {
      await expect(viewOwnInvitation(ctxAt(), userId, invitationId)).rejects.toMatchObject({ status: 404 });
      await expect(acceptOwnInvitation(ctxAt(), userId, invitationId)).rejects.toMatchObject({ status: 404 });
    }
    await expect(viewOwnInvitation(ctxAt(), outsider.id, "not-an-id")).rejects.toMatchObject({ status: 404 });
    expect(await countWhere("select count(*) as n from dataroom_invitations where id = ? and accepted_at is null", invitationId)).toBe(1);
  });
});
