import { beforeAll, describe, expect, it } from "vitest";
import { COMMENT_WINDOW_MS, COMMENTS_PER_WINDOW } from "~/features/datarooms/comments.constants";
import { notifyFilesAddedJob } from "~/features/datarooms/datarooms.jobs";
import { commentsPersonalData } from "~/features/datarooms/personal-data.server";
import { notificationsPersonalData } from "~/features/notifications/personal-data.server";
import { sendDailyDigests } from "~/features/notifications/notifications.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { countWhere, createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { mailsTo, newAuthClient, testEnv } from "./helpers";
import { create as tusCreate, patch as tusPatch } from "./tus-helpers";

/**
 * Comments on a room's files and the notifications they make (issue 20): threads, replies,
 * mentions told in-app and by e-mail as each person chose (instant, daily digest, off), resolve,
 * delete, the room's comments page, and who may do what.
 */

type Person_ = { id: string; name: string };
type Comment = { id: string; threadId: string; author: Person_ | null; body: string; mentions: Person_[]; deleted: boolean; canDelete: boolean };
type Thread = Comment & { resolved: { byName: string | null } | null; replies: Comment[] };
type FileComments = { threads: Thread[]; canComment: boolean; reason: string | null; people: Person_[] };
type Notifications = { notifications: { id: string; kind: string; title: string; excerpt: string; link: string; read: boolean }[]; unread: number; settings: { own: string | null; roomDefault: string; effective: string } };
type Threads = { threads: { id: string; file: { name: string }; replies: number; resolved: boolean; excerpt: string }[] };

async function comment(person: Person, fileId: string, body: unknown) {
  return send(person.client, "POST", `/api/files/${fileId}/comments`, body);
}
async function notificationsOf(person: Person, roomId: string, query = "") {
  const response = await get(`/api/datarooms/${roomId}/notifications${query}`, person.client);
  expect(response.status).toBe(200);
  return response.json<Notifications>();
}

describe("comments on a room's files", () => {
  let owner: Person;
  let member: Person;
  let guest: Person;
  let room: { id: string; rootFolderId: string };
  let fileId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Olga Owner" });
    member = await signedIn({ name: "Mia Member" });
    guest = await signedIn({ name: "Gus Guest" });
    room = await createRoom(owner.client, "Deal room");
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, guest.id, "guest");
    fileId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "term sheet.pdf", uploadedBy: owner.id })).id;
  });

  it("starts a thread that mentions someone, who is told in-app and by e-mail at once; the uploader is told of the new thread", async () => {
    const response = await comment(member, fileId, { body: "@Gus Guest can you check clause 4?", mentions: [guest.id] });
    expect(response.status, await response.clone().text()).toBe(201);
    const { comment: created } = await response.json<{ comment: Comment }>();
    expect(created.mentions).toEqual([{ id: guest.id, name: "Gus Guest" }]);

    const guestList = await notificationsOf(guest, room.id);
    expect(guestList.unread).toBe(1);
    expect(guestList.notifications[0]).toMatchObject({ kind: "comment.mention", title: "Mia Member mentioned you on term sheet.pdf", excerpt: "@Gus Guest can you check clause 4?", read: false });
    expect(guestList.notifications[0]!.link).toBe(`/files/${fileId}#comment-${created.id}`);
    const ownerList = await notificationsOf(owner, room.id);
    expect(ownerList.notifications.map((item) => [item.kind, item.title])).toEqual([["comment.new", "Mia Member commented on term sheet.pdf"]]);
    // The writer is never told about their own comment.
    expect((await notificationsOf(member, room.id)).notifications).toEqual([]);

    const mails = await mailsTo(guest.email);
    expect(mails.at(-1)).toMatchObject({ template: "notification", subject: "Mia Member mentioned you on term sheet.pdf" });
    expect(mails.at(-1)!.textBody).toContain(`/files/${fileId}#comment-${created.id}`);
  });

  it("replies in the thread and tells its other writers; the file's threads read in order with their replies", async () => {
    const thread = (await (await get(`/api/files/${fileId}/comments`, owner.client)).json<FileComments>()).threads[0]!;
    const reply = await comment(guest, fileId, { body: "Clause 4 looks fine.", threadId: thread.id });
    expect(reply.status).toBe(201);
    const memberList = await notificationsOf(member, room.id);
    expect(memberList.notifications[0]).toMatchObject({ kind: "comment.reply", title: "Gus Guest replied on term sheet.pdf" });

    const read = await (await get(`/api/files/${fileId}/comments`, member.client)).json<FileComments>();
    expect(read.canComment).toBe(true);
    expect(read.people.map((person) => person.name).sort()).toEqual(["Gus Guest", "Mia Member", "Olga Owner"]);
    expect(read.threads).toHaveLength(1);
    expect(read.threads[0]!.body).toBe("@Gus Guest can you check clause 4?");
    expect(read.threads[0]!.replies.map((item) => [item.author?.name, item.body])).toEqual([["Gus Guest", "Clause 4 looks fine."]]);
    const page = await (await get(`/api/datarooms/${room.id}/comments`, guest.client)).json<Threads>();
    expect(page.threads.map((item) => [item.file.name, item.replies, item.resolved])).toEqual([["term sheet.pdf", 1, false]]);
  });

  it("lists threads mentioning me, resolves and reopens a thread, and keeps resolved ones out of the open list", async () => {
    const mentioning = await (await get(`/api/datarooms/${room.id}/comments?filter=mentions`, guest.client)).json<Threads>();
    expect(mentioning.threads).toHaveLength(1);
    expect((await (await get(`/api/datarooms/${room.id}/comments?filter=mentions`, owner.client)).json<Threads>()).threads).toEqual([]);

    const threadId = mentioning.threads[0]!.id;
    expect((await send(guest.client, "POST", `/api/comments/${threadId}/resolve`)).status).toBe(200);
    const resolved = await (await get(`/api/files/${fileId}/comments`, owner.client)).json<FileComments>();
    expect(resolved.threads[0]!.resolved).toEqual(expect.objectContaining({ byName: "Gus Guest" }));
    expect((await (await get(`/api/datarooms/${room.id}/comments`, owner.client)).json<Threads>()).threads).toEqual([]);
    expect((await (await get(`/api/datarooms/${room.id}/comments?filter=resolved`, owner.client)).json<Threads>()).threads).toHaveLength(1);
    expect((await send(owner.client, "POST", `/api/comments/${threadId}/reopen`)).status).toBe(200);
    expect((await (await get(`/api/datarooms/${room.id}/comments`, owner.client)).json<Threads>()).threads).toHaveLength(1);
  });

  it("refuses empty, too long and outsider-mentioning comments with a reason, and writes nothing", async () => {
    const before = await countWhere("select count(*) as n from dataroom_comments where file_id = ?", fileId);
    const empty = await comment(member, fileId, { body: "   " });
    expect(empty.status).toBe(400);
    expect((await empty.json<{ message: string }>()).message).toContain("Write a comment.");
    const long = await comment(member, fileId, { body: "x".repeat(5_001) });
    expect((await long.json<{ message: string }>()).message).toContain("A comment is at most 5,000 characters.");
    const stranger = await signedIn();
    const outsider = await comment(member, fileId, { body: "hi @Stranger", mentions: [stranger.id] });
    expect(outsider.status).toBe(400);
    expect((await outsider.json<{ message: string }>()).message).toContain("You can only mention people who can see this room's files.");
    const wrongThread = await comment(member, fileId, { body: "reply", threadId: crypto.randomUUID() });
    expect(wrongThread.status).toBe(400);
    expect(await countWhere("select count(*) as n from dataroom_comments where file_id = ?", fileId)).toBe(before);
    expect(await countWhere("select count(*) as n from notifications where user_id = ?", stranger.id)).toBe(0);
  });

  it("lets authors delete their own comment and the room's managers any, leaving its place in the thread", async () => {
    const mine = await (await comment(member, fileId, { body: "A comment I regret" })).json<{ comment: Comment }>();
    const forbidden = await send(guest.client, "DELETE", `/api/comments/${mine.comment.id}`);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json<{ message: string }>()).message).toBe("Only the comment's author or the room's managers can delete it.");
    expect((await send(member.client, "DELETE", `/api/comments/${mine.comment.id}`)).status).toBe(200);
    const other = await (await comment(guest, fileId, { body: "Off-topic" })).json<{ comment: Comment }>();
    expect((await send(owner.client, "DELETE", `/api/comments/${other.comment.id}`)).status).toBe(200);
    const read = await (await get(`/api/files/${fileId}/comments`, guest.client)).json<FileComments>();
    const deleted = read.threads.filter((thread) => thread.deleted);
    expect(deleted).toHaveLength(2);
    expect(deleted.every((thread) => thread.body === "" && !thread.canDelete)).toBe(true);
    expect(await countWhere("select count(*) as n from dataroom_comments where body = 'A comment I regret'")).toBe(0);
  });

  it("records comments in the room's audit log", async () => {
    const response = await get(`/api/datarooms/${room.id}/audit`, owner.client);
    expect(response.status).toBe(200);
    const { entries } = await response.json<{ entries: { action: string }[] }>();
    expect(new Set(entries.map((entry) => entry.action).filter((action) => action.startsWith("comment.")))).toEqual(new Set(["comment.add", "comment.resolve", "comment.reopen", "comment.delete"]));
  });

  it("answers anonymous 401, an outsider 404 (nothing written), someone without comment 403, and an archived room 409", async () => {
    const outsider = await signedIn();
    const threadId = (await (await get(`/api/files/${fileId}/comments`, owner.client)).json<FileComments>()).threads[0]!.id;
    const before = await countWhere("select count(*) as n from dataroom_comments");
    expect((await get(`/api/files/${fileId}/comments`, await newAuthClient())).status).toBe(401);
    expect((await get(`/api/files/${fileId}/comments`, outsider.client)).status).toBe(404);
    expect((await comment(outsider, fileId, { body: "let me in" })).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/comments/${threadId}/resolve`)).status).toBe(404);
    expect((await send(outsider.client, "DELETE", `/api/comments/${threadId}`)).status).toBe(404);
    expect((await get(`/api/datarooms/${room.id}/comments`, outsider.client)).status).toBe(404);
    expect((await get(`/api/datarooms/${room.id}/notifications`, outsider.client)).status).toBe(404);
    expect(await countWhere("select count(*) as n from dataroom_comments")).toBe(before);

    expect((await send(owner.client, "PUT", `/api/datarooms/${room.id}/permissions/${guest.id}`, { permission: "comment", value: false })).status).toBe(200);
    const silent = await (await get(`/api/files/${fileId}/comments`, guest.client)).json<FileComments>();
    expect(silent).toMatchObject({ canComment: false, reason: "You don't have permission to comment in this data room.", people: [] });
    const refused = await comment(guest, fileId, { body: "Can I?" });
    expect(refused.status).toBe(403);
    expect((await send(guest.client, "POST", `/api/comments/${threadId}/resolve`)).status).toBe(403);

    expect((await send(owner.client, "POST", `/api/datarooms/${room.id}/archive`)).status).toBe(200);
    const archived = await comment(member, fileId, { body: "After the close" });
    expect(archived.status).toBe(409);
    expect((await archived.json<{ message: string }>()).message).toBe("This data room is archived and read-only. Unarchive it to make changes.");
    expect((await send(owner.client, "POST", `/api/datarooms/${room.id}/unarchive`)).status).toBe(200);
    expect(await countWhere("select count(*) as n from dataroom_comments")).toBe(before);
  });

  it("shows everyone in the room who worked in it lately and its latest changes, without addresses", async () => {
    expect((await get(`/api/datarooms/${room.id}`, member.client)).status).toBe(200);
    const response = await get(`/api/datarooms/${room.id}/collaboration`, guest.client);
    expect(response.status).toBe(200);
    const body = await response.json<{ activeNow: unknown[]; recentlyActive: { name: string; isYou: boolean }[]; changes: { who: string; actionLabel: string; target: { name: string } }[] }>();
    expect(body.recentlyActive.map((person) => person.name)).toEqual(expect.arrayContaining(["Mia Member", "Olga Owner"]));
    expect(body.changes[0]).toMatchObject({ actionLabel: "Commented on a file", who: "Gus Guest", target: { name: "term sheet.pdf" } });
    expect(body.changes).toContainEqual(expect.objectContaining({ actionLabel: "Reopened a comment thread", who: "Olga Owner" }));
    expect(body.changes.some((change) => change.actionLabel === "Commented on a file" && change.who === "Mia Member")).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/"ip"|userAgent|@example/);
    expect((await get(`/api/datarooms/${room.id}/collaboration`, (await signedIn()).client)).status).toBe(404);
    expect((await get(`/api/datarooms/${room.id}/collaboration`, await newAuthClient())).status).toBe(401);
  });

  it("refuses the 61st comment in 15 minutes with when to try again, and writes nothing (S28)", async () => {
    const writer = await signedIn({ name: "Sam Spammer" });
    await addDataroomMember(room.id, writer.id, "member");
    const limiter = testEnv.ATTEMPT_LIMITER.getByName(`comment:account:${writer.id}`);
    for (let i = 0; i < COMMENTS_PER_WINDOW; i++) await limiter.consume({ limit: COMMENTS_PER_WINDOW, windowMs: COMMENT_WINDOW_MS });
    const before = await countWhere("select count(*) as n from dataroom_comments");
    const refused = await comment(writer, fileId, { body: "one more", mentions: [owner.id] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await refused.json<{ message: string }>()).message).toMatch(/^You have written 60 comments in the last 15 minutes, the most at a time\. Please wait \d+ minutes? and try again\.$/);
    expect(await countWhere("select count(*) as n from dataroom_comments")).toBe(before);
  });

  it("says comments are for files in data rooms on a personal file", async () => {
    const personal = await personalSpaceOf(member.id);
    const own = await createFile({ spaceId: personal.spaceId, folderId: personal.rootId, name: "notes.txt" });
    const response = await get(`/api/files/${own.id}/comments`, member.client);
    expect(response.status).toBe(409);
    expect((await response.json<{ message: string }>()).message).toBe("Comments are for files in data rooms. Move the file into a data room to discuss it there.");
  });
});

describe("a member's notifications of a room", () => {
  let owner: Person;
  let reader: Person;
  let room: { id: string; rootFolderId: string };
  let fileId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Nora Owner" });
    reader = await signedIn({ name: "Rey Reader" });
    room = await createRoom(owner.client, "Digest room");
    await addDataroomMember(room.id, reader.id, "member");
    fileId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "model.xlsx", uploadedBy: owner.id })).id;
  });

  it("marks notifications read, one unread again, and all read, with the unread count", async () => {
    for (const body of ["first @Rey Reader", "second @Rey Reader"]) expect((await comment(owner, fileId, { body, mentions: [reader.id] })).status).toBe(201);
    const list = await notificationsOf(reader, room.id);
    expect(list.unread).toBe(2);
    const [newest] = list.notifications;
    const one = await send(reader.client, "POST", `/api/datarooms/${room.id}/notifications/read`, { ids: [newest!.id] });
    expect(await one.json()).toEqual({ changed: 1, unread: 1 });
    expect((await notificationsOf(reader, room.id, "?filter=unread")).notifications.map((item) => item.excerpt)).toEqual(["first @Rey Reader"]);
    const back = await send(reader.client, "POST", `/api/datarooms/${room.id}/notifications/read`, { ids: [newest!.id], read: false });
    expect(await back.json()).toEqual({ changed: 1, unread: 2 });
    const all = await send(reader.client, "POST", `/api/datarooms/${room.id}/notifications/read`, { ids: "all" });
    expect(await all.json()).toEqual({ changed: 2, unread: 0 });
    // Someone else's notification ids change nothing.
    const bad = await send(owner.client, "POST", `/api/datarooms/${room.id}/notifications/read`, { ids: [newest!.id], read: false });
    expect(await bad.json()).toEqual({ changed: 0, unread: 0 });
    expect((await send(reader.client, "POST", `/api/datarooms/${room.id}/notifications/read`, { ids: ["nope"] })).status).toBe(400);
  });

  it("e-mails a daily digest instead when the member chose it, once, and nothing when they turned e-mail off", async () => {
    const chose = await send(reader.client, "PUT", `/api/datarooms/${room.id}/notifications/preference`, { mode: "daily" });
    expect(await chose.json()).toEqual({ own: "daily", roomDefault: "instant", effective: "daily" });
    const mailsBefore = (await mailsTo(reader.email)).length;
    expect((await comment(owner, fileId, { body: "digest me @Rey Reader", mentions: [reader.id] })).status).toBe(201);
    expect((await mailsTo(reader.email)).length).toBe(mailsBefore);

    const later = () => new Date(Date.now() + 60_000);
    expect((await sendDailyDigests(testContext(later))).notifications).toBeGreaterThanOrEqual(1);
    const mails = await mailsTo(reader.email);
    expect(mails.length).toBe(mailsBefore + 1);
    expect(mails.at(-1)).toMatchObject({ template: "notification-digest", subject: "Your daily Strongroom digest: 1 notification" });
    expect(mails.at(-1)!.textBody).toContain("Digest room: Nora Owner mentioned you on model.xlsx");
    // A second run (a redelivered message) sends nothing more.
    await sendDailyDigests(testContext(later));
    expect((await mailsTo(reader.email)).length).toBe(mailsBefore + 1);

    expect((await send(reader.client, "PUT", `/api/datarooms/${room.id}/notifications/preference`, { mode: "off" })).status).toBe(200);
    expect((await comment(owner, fileId, { body: "quiet @Rey Reader", mentions: [reader.id] })).status).toBe(201);
    await sendDailyDigests(testContext(later));
    expect((await mailsTo(reader.email)).length).toBe(mailsBefore + 1);
    expect((await notificationsOf(reader, room.id)).notifications[0]!.excerpt).toBe("quiet @Rey Reader");
  });

  it("follows the room's default until the member chooses, and only managers set the default", async () => {
    expect((await send(reader.client, "PUT", `/api/datarooms/${room.id}/notifications/preference`, { mode: "default" })).status).toBe(200);
    const refused = await send(reader.client, "PUT", `/api/datarooms/${room.id}/settings/notifications`, { mode: "off" });
    expect(refused.status).toBe(403);
    const bad = await send(owner.client, "PUT", `/api/datarooms/${room.id}/settings/notifications`, { mode: "hourly" });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ message: string }>()).message).toContain("Choose instant, daily or off.");
    expect((await send(owner.client, "PUT", `/api/datarooms/${room.id}/settings/notifications`, { mode: "daily" })).status).toBe(200);
    expect((await notificationsOf(reader, room.id)).settings).toEqual({ own: null, roomDefault: "daily", effective: "daily" });
    const mailsBefore = (await mailsTo(reader.email)).length;
    expect((await comment(owner, fileId, { body: "default daily @Rey Reader", mentions: [reader.id] })).status).toBe(201);
    expect((await mailsTo(reader.email)).length).toBe(mailsBefore);
  });
});

describe("telling a room's people about added files", () => {
  let owner: Person;
  let member: Person;
  let digestReader: Person;
  let room: { id: string; rootFolderId: string };
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Uma Uploader" });
    member = await signedIn({ name: "Ivo Investor" });
    digestReader = await signedIn({ name: "Dee Digest" });
    room = await createRoom(owner.client, "Upload room");
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, digestReader.id, "guest");
    expect((await send(digestReader.client, "PUT", `/api/datarooms/${room.id}/notifications/preference`, { mode: "daily" })).status).toBe(200);
  });

  const added = (uploadId: string, fileId: string, fileName: string) =>
    notifyFilesAddedJob.run({ ...testContext(), jobId: `test:${uploadId}` }, { roomId: room.id, actorId: owner.id, uploadId, fileId, fileName });

  it("makes one notice per person that counts further files while unread, mails the first only, counts a redelivered message once, and never tells the uploader", async () => {
    const first = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "cap table.xlsx", uploadedBy: owner.id });
    const mailsBefore = (await mailsTo(member.email)).length;
    await added("upload-1", first.id, "cap table.xlsx");
    await added("upload-1", first.id, "cap table.xlsx");
    let list = await notificationsOf(member, room.id);
    expect(list.notifications).toHaveLength(1);
    expect(list.notifications[0]).toMatchObject({ kind: "file.upload", title: "Uma Uploader added cap table.xlsx", link: `/files/${first.id}` });
    expect((await mailsTo(member.email)).length).toBe(mailsBefore + 1);

    const second = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "budget.pdf", uploadedBy: owner.id });
    await added("upload-2", second.id, "budget.pdf");
    await added("upload-2", second.id, "budget.pdf");
    list = await notificationsOf(member, room.id);
    expect(list.notifications).toHaveLength(1);
    expect(list.notifications[0]).toMatchObject({ title: "Uma Uploader added 2 files", excerpt: "Latest: budget.pdf", link: `/dataroom/${room.id}/recent-uploads` });
    expect((await mailsTo(member.email)).length).toBe(mailsBefore + 1);
    expect((await notificationsOf(digestReader, room.id)).notifications[0]!.title).toBe("Uma Uploader added 2 files");
    expect((await notificationsOf(owner, room.id)).notifications).toEqual([]);

    // Once read, the next file starts a new notice (and a new e-mail).
    await send(member.client, "POST", `/api/datarooms/${room.id}/notifications/read`, { ids: "all" });
    await added("upload-3", second.id, "budget.pdf");
    list = await notificationsOf(member, room.id);
    expect(list.notifications.map((item) => [item.title, item.read])).toEqual([
      ["Uma Uploader added budget.pdf", false],
      ["Uma Uploader added 2 files", true],
    ]);
    expect((await mailsTo(member.email)).length).toBe(mailsBefore + 2);
  });

  it("queues the notice when an upload to the room completes, and none for a personal upload", async () => {
    const body = new TextEncoder().encode("hello room");
    const location = (await tusCreate(owner.client, { folderId: room.rootFolderId, name: "hello.txt", length: body.length })).headers.get("location")!;
    expect((await tusPatch(owner.client, location, 0, body)).status).toBe(204);
    const uploadId = location.split("/").pop()!;
    expect(await countWhere("select count(*) as n from jobs where id = ?", `datarooms.notify-files-added:${uploadId}`)).toBe(1);

    const personal = await personalSpaceOf(owner.id);
    const own = (await tusCreate(owner.client, { folderId: personal.rootId, name: "mine.txt", length: body.length })).headers.get("location")!;
    expect((await tusPatch(owner.client, own, 0, body)).status).toBe(204);
    expect(await countWhere("select count(*) as n from jobs where id = ?", `datarooms.notify-files-added:${own.split("/").pop()}`)).toBe(0);
  });
});

describe("comments and notifications as personal data", () => {
  it("are exported for their writer and reader, and erased: words and name gone, the thread kept", async () => {
    const owner = await signedIn({ tier: "pro", name: "Pia Private" });
    const writer = await signedIn({ name: "Wes Writer" });
    const room = await createRoom(owner.client, "Private room");
    await addDataroomMember(room.id, writer.id, "member");
    const file = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "nda.pdf", uploadedBy: owner.id });
    expect((await comment(writer, file.id, { body: "My secret opinion @Pia Private", mentions: [owner.id] })).status).toBe(201);

    const ctx = testContext();
    const exported = await commentsPersonalData.export(ctx, writer.id);
    expect(exported[0]!.data).toEqual([expect.objectContaining({ dataroom: "Private room", file: "nda.pdf", reply: false, text: "My secret opinion @Pia Private" })]);
    const ownerNotes = await notificationsPersonalData.export(ctx, owner.id);
    expect(ownerNotes[0]!.data).toEqual([expect.objectContaining({ kind: "comment.mention", title: "Wes Writer mentioned you on nda.pdf" })]);

    await commentsPersonalData.erase(ctx, writer.id);
    await notificationsPersonalData.erase(ctx, writer.id);
    const read = await (await get(`/api/files/${file.id}/comments`, owner.client)).json<FileComments>();
    expect(read.threads).toEqual([expect.objectContaining({ author: null, body: "", deleted: true })]);
    expect((await notificationsOf(owner, room.id)).notifications[0]).toMatchObject({ title: "A former member mentioned you on nda.pdf", excerpt: "" });
    expect(await countWhere("select count(*) as n from dataroom_comments where body like '%secret opinion%'")).toBe(0);
  });
});
