import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { getMemberNotifications, setMemberNotificationMode } from "~/features/notifications/notifications.server";
import { sharingPersonalData } from "~/features/sharing/personal-data.server";
import { getShareLinkAnalytics } from "~/features/sharing/share-analytics.server";
import { passSharePageGate, recordSharePageTime, viewSharePage } from "~/features/sharing/share-viewer.server";
import { getRoomSharing } from "~/features/sharing/sharing.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { countWhere, createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { mailsTo, newAuthClient, origin } from "./helpers";

/**
 * A share link's analytics (issue 21): counted by the server (views, visitors, openings,
 * downloads, agreements) plus the viewer's time per page; only for whoever manages the link; the
 * room's sharing page; the first opening tells the link's maker.
 */

type Link = { id: string; url: string };
const keyOf = (link: Link) => link.url.split("/s/")[1]!;
const ctx = () => testContext();

/** A visitor who gives `email`, accepts the agreement and is counted; returns the visit's cookie. */
async function visit(key: string, email: string): Promise<string> {
  let cookie = (await viewSharePage(ctx(), key, null, {})).cookie;
  cookie = (await passSharePageGate(ctx(), key, cookie, { gate: "email", email }, {})).cookie ?? cookie;
  const opened = await passSharePageGate(ctx(), key, cookie, { gate: "agreement", name: `Reader ${email}`, accept: true }, {});
  expect(opened.page.state).toBe("open");
  return opened.cookie!;
}

describe("a share link's analytics", () => {
  let owner: Person;
  let member: Person;
  let admin: Person;
  let room: { id: string; rootFolderId: string };
  let report: { id: string };
  let link: Link;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Ana Lytics" });
    member = await signedIn({ name: "Mo Member" });
    admin = await signedIn({ name: "Ada Admin" });
    room = await createRoom(owner.client, "Numbers room");
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, admin.id, "admin");
    report = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "=report.txt", content: "quarterly numbers" });
    const response = await send(owner.client, "POST", "/api/share-links", { target: { type: "file", id: report.id }, name: "For the board", requireEmail: true, agreement: "Confidential." });
    expect(response.status).toBe(201);
    link = (await response.json<{ link: Link }>()).link;
  });

  it("counts views, different visitors, downloads, agreements, time per page and completion from what the server recorded", async () => {
    const key = keyOf(link);
    const first = await visit(key, "ben@board.test");
    await visit(key, "ben@board.test");
    const third = await visit(key, "cleo@board.test");
    const download = await exports.default.fetch(`${origin}/s/${key}/files/${report.id}/download`, { headers: { cookie: `share_visit=${first}` } });
    expect(download.status).toBe(200);
    await download.body?.cancel();
    await recordSharePageTime(ctx(), key, third, report.id, { pages: { "1": 4_000, "2": 2_000 }, pageCount: 4 });

    const analytics = await getShareLinkAnalytics(ctx(), owner.id, link.id);
    expect(analytics.totals).toEqual({ views: 3, visitors: 2, downloads: 1, agreements: 3, totalMs: 6_000, completion: 0.5 });
    expect(analytics.visits).toHaveLength(3);
    const cleo = analytics.visits.find((entry) => entry.email === "cleo@board.test")!;
    expect(cleo.files).toEqual([{ id: report.id, name: "=report.txt", opens: 0, downloads: 0, pageCount: 4, totalMs: 6_000, pages: [{ page: 1, ms: 4_000 }, { page: 2, ms: 2_000 }], completion: 0.5 }]);
    expect(analytics.agreements.map((agreement) => agreement.name).sort()).toEqual(["Reader ben@board.test", "Reader ben@board.test", "Reader cleo@board.test"]);
  });

  it("exports one CSV line per visit, file and page, with formulas defused", async () => {
    const response = await get(`/api/share-links/${link.id}/visits.csv`, owner.client);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="For-the-board-visits.csv"');
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe('"visit","email","ip","started (UTC)","last seen (UTC)","file","opens","downloads","pages in document","page","seconds on page"');
    const pageLines = lines.filter((line) => line.includes('"cleo@board.test"'));
    expect(pageLines).toHaveLength(2);
    expect(pageLines[0]).toContain(`"'=report.txt","0","0","4","1","4"`);
  });

  it("answers only whoever manages the link: anonymous 401, an outsider 404, a member without share 403, an admin and the owner 200", async () => {
    const outsider = await signedIn();
    for (const path of [`/api/share-links/${link.id}/analytics`, `/api/share-links/${link.id}/visits.csv`]) {
      expect((await get(path, await newAuthClient())).status).toBe(401);
      expect((await get(path, outsider.client)).status).toBe(404);
      expect((await get(path, member.client)).status).toBe(403);
      expect((await get(path, admin.client)).status).toBe(200);
      expect((await get(path, owner.client)).status).toBe(200);
    }
    await expect(getRoomSharing(ctx(), outsider.id, room.id)).rejects.toMatchObject({ status: 404 });
    await expect(getRoomSharing(ctx(), member.id, room.id)).rejects.toMatchObject({ status: 403 });
    const sharing = await getRoomSharing(ctx(), owner.id, room.id);
    expect(sharing.links.find((entry) => entry.id === link.id)).toMatchObject({ name: "For the board", views: 3, visitors: 2, status: "active" });
  });

  it("tells the link's maker in the room when it is first opened, once", async () => {
    const response = await send(admin.client, "POST", "/api/share-links", { target: { type: "room", id: room.id }, name: "Admin's link" });
    const theirs = (await response.json<{ link: Link }>()).link;
    const before = await countWhere("select count(*) as n from notifications where kind = 'share.opened'");
    await viewSharePage(ctx(), keyOf(theirs), null, {});
    await viewSharePage(ctx(), keyOf(theirs), null, {});
    expect(await countWhere("select count(*) as n from notifications where kind = 'share.opened'")).toBe(before + 1);
    expect(await countWhere("select count(*) as n from notifications where kind = 'share.opened' and user_id = ? and dataroom_id = ? and title = ? and link = ?", admin.id, room.id, "Someone opened your share link “Admin's link”", `/share-links/${theirs.id}`)).toBe(1);
  });

  it("shows a personal link's analytics to its owner only, and tells the owner outside rooms when it is first opened (by e-mail as they chose)", async () => {
    const space = await personalSpaceOf(owner.id);
    const personal = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "cv.txt", content: "me" });
    const response = await send(owner.client, "POST", "/api/share-links", { target: { type: "file", id: personal.id }, name: "CV for Acme" });
    const mine = (await response.json<{ link: Link }>()).link;
    const mailsBefore = (await mailsTo(owner.email)).length;
    await viewSharePage(ctx(), keyOf(mine), null, {});
    await viewSharePage(ctx(), keyOf(mine), null, {});
    expect((await getShareLinkAnalytics(ctx(), owner.id, mine.id)).totals.views).toBe(2);
    await expect(getShareLinkAnalytics(ctx(), admin.id, mine.id)).rejects.toMatchObject({ status: 404 });

    const page = await getMemberNotifications(ctx(), owner.id, {});
    expect(page).toMatchObject({ unread: 1, mode: "instant", notifications: [{ kind: "share.opened", title: "Someone opened your share link “CV for Acme”", excerpt: "cv.txt", link: `/share-links/${mine.id}`, read: false }] });
    const mails = await mailsTo(owner.email);
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails.at(-1)!.subject).toBe("Someone opened your share link “CV for Acme”");
    // Nobody else's list, and not a room's.
    expect((await getMemberNotifications(ctx(), admin.id, {})).notifications).toEqual([]);

    // A daily digest instead: the next link's first opening waits for it, unmailed.
    await setMemberNotificationMode(ctx(), owner.id, { mode: "daily" });
    const next = (await (await send(owner.client, "POST", "/api/share-links", { target: { type: "file", id: personal.id } })).json<{ link: Link }>()).link;
    await viewSharePage(ctx(), keyOf(next), null, {});
    expect((await mailsTo(owner.email)).length).toBe(mailsBefore + 1);
    expect(await countWhere("select count(*) as n from notifications where user_id = ? and dataroom_id is null and email_state = 'pending'", owner.id)).toBe(1);
    await expect(setMemberNotificationMode(ctx(), owner.id, { mode: "weekly" })).rejects.toMatchObject({ status: 400 });
  });

  it("exports the links a member made, without tokens or passwords, and takes their name off the room's links on erasure", async () => {
    const [record] = await sharingPersonalData.export(ctx(), owner.id);
    expect(record!.path).toBe("share-links/links.json");
    const exported = JSON.stringify(record!.data);
    expect(exported).toContain("For the board");
    expect(exported).not.toContain(keyOf(link));
    await sharingPersonalData.erase(ctx(), admin.id);
    expect(await countWhere("select count(*) as n from share_links where created_by = ?", admin.id)).toBe(0);
    expect(await countWhere("select count(*) as n from share_links where name = 'Admin''s link' and created_by is null")).toBe(1);
  });
});
