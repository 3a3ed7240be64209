import { beforeAll, describe, expect, it } from "vitest";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, personalSpaceOf } from "~tests/factories/files";
import { createRoom, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv, type ErrorBody } from "./helpers";

/**
 * Time per PDF page (issue 20 analytics): the room's viewer reports how long each page was on
 * screen; the server keeps it per room, file, person and page, bounded per report, only for
 * files the person may view; the analytics page and its CSV add it up.
 */

type PageTime = { pageTime: { id: string; name: string; totalMs: number; people: number; pages: { page: number; ms: number; people: number }[] }[] };

const report = (person: Person | null, fileId: string, pages: unknown) =>
  send(person?.client ?? null, "POST", `/api/files/${fileId}/page-time`, { pages });

const storedRows = (fileId: string) => testEnv.DB.prepare("select count(*) as n from dataroom_page_time where file_id = ?").bind(fileId).first<{ n: number }>().then((row) => row!.n);

describe("time per PDF page", () => {
  let owner: Person;
  let member: Person;
  let guest: Person;
  let room: { id: string; rootFolderId: string };
  let deckId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro" });
    [member, guest] = await Promise.all([signedIn({ name: "Mira Member" }), signedIn({ name: "Gus Guest" })]);
    room = await createRoom(owner.client, "Reading room");
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, guest.id, "guest");
    deckId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "deck.pdf", contentType: "application/pdf" })).id;
  });

  it("adds up what each viewer reports, per page, and shows it on the analytics page and in its CSV", async () => {
    expect((await report(member, deckId, { "1": 12_000, "2": 3_000 })).status).toBe(204);
    expect((await report(member, deckId, { "2": 4_000, "3": 1_500 })).status).toBe(204);
    expect((await report(guest, deckId, { "1": 8_000 })).status).toBe(204);

    const analytics = await (await send(owner.client, "GET", `/api/datarooms/${room.id}/analytics`)).json<PageTime>();
    expect(analytics.pageTime).toEqual([
      {
        id: deckId,
        name: "deck.pdf",
        totalMs: 28_500,
        people: 2,
        pages: [
          { page: 1, ms: 20_000, people: 2 },
          { page: 2, ms: 7_000, people: 1 },
          { page: 3, ms: 1_500, people: 1 },
        ],
      },
    ]);
    const csv = await (await send(owner.client, "GET", `/api/datarooms/${room.id}/analytics/export?kind=pages`)).text();
    expect(csv.split("\r\n")[0]).toBe('"file","file id","page","person","e-mail","seconds on screen"');
    expect(csv).toContain(`"deck.pdf","${deckId}","1","Mira Member","${member.email}","12"`);
    expect(csv).toContain(`"deck.pdf","${deckId}","2","Mira Member","${member.email}","7"`);
  });

  it("refuses a report beyond the bounds, with the reason, and keeps nothing of it", async () => {
    const before = await storedRows(deckId);
    const long = await report(member, deckId, { "1": 50_000, "2": 20_000 });
    expect(long.status).toBe(400);
    expect((await long.json<ErrorBody>()).message).toBe("pages: Report at most 60 seconds at a time.");
    expect((await report(member, deckId, { "0": 1000 })).status).toBe(400);
    expect((await report(member, deckId, "twelve seconds")).status).toBe(400);
    expect(await storedRows(deckId)).toBe(before);
  });

  it("answers anonymous 401, an outsider 404, someone without view 403, and stores nothing for them", async () => {
    const before = await storedRows(deckId);
    const anonymous = await newAuthClient();
    expect((await send(anonymous, "POST", `/api/files/${deckId}/page-time`, { pages: { "1": 1000 } })).status).toBe(401);
    expect((await report(await signedIn(), deckId, { "1": 1000 })).status).toBe(404);
    const changed = await send(owner.client, "PUT", `/api/datarooms/${room.id}/permissions/${guest.id}`, { permission: "view", value: false });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect((await report(guest, deckId, { "1": 1000 })).status).toBe(403);
    expect(await storedRows(deckId)).toBe(before);
  });

  it("accepts a personal file's report and keeps nothing (personal files have no analytics)", async () => {
    const space = await personalSpaceOf(member.id);
    const own = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "mine.pdf", contentType: "application/pdf" });
    expect((await report(member, own.id, { "1": 5000 })).status).toBe(204);
    expect(await storedRows(own.id)).toBe(0);
  });
});
