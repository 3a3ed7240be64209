import { beforeAll, describe, expect, it } from "vitest";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile } from "~tests/factories/files";
import { createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import type { ErrorBody } from "./helpers";

/**
 * A data room's analytics (issue 20 "Analytics"): views and downloads per file, person and day,
 * counted from what the server sent (refusals and previews' follow-up ranges do not count), who
 * has not opened what, the CSV export, and who may see it.
 */

type FileStats = { id: string; name: string; views: number; downloads: number; people: number; lastAt: number | null };
type PersonStats = { id: string; name: string; views: number; downloads: number; opened: number; notOpened: { name: string }[] };
type Analytics = { days: number; totals: { views: number; downloads: number; viewers: number; files: number }; daily: { day: string; views: number; downloads: number }[]; files: FileStats[]; people: PersonStats[] };

async function analytics(person: Person, roomId: string, query = ""): Promise<Analytics> {
  const response = await get(`/api/datarooms/${roomId}/analytics${query}`, person.client);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<Analytics>();
}

describe("a room's analytics", () => {
  let owner: Person;
  let admin: Person;
  let reader: Person;
  let guest: Person;
  let outsider: Person;
  let room: { id: string; rootFolderId: string };
  let deck: string;
  let model: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Ola Owner" });
    [admin, reader, guest, outsider] = await Promise.all([signedIn({ name: "Ada Admin" }), signedIn({ name: "Rita Reader" }), signedIn({ name: "Gil Guest" }), signedIn()]);
    room = await createRoom(owner.client, "Counted room");
    await addDataroomMember(room.id, admin.id, "admin");
    await addDataroomMember(room.id, reader.id, "member");
    await addDataroomMember(room.id, guest.id, "guest");
    deck = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "Deck.pdf", content: "deck" })).id;
    model = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "Model.xlsx", content: "model" })).id;
    await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "Unread.txt", content: "nobody" });
    // Rita views the deck twice and downloads it; Gil views it; Gil's download is refused.
    for (const path of [`/api/files/${deck}/preview`, `/api/files/${deck}/preview`, `/api/files/${deck}/download`]) expect((await get(path, reader.client)).status).toBe(200);
    expect((await get(`/api/files/${deck}/preview`, guest.client)).status).toBe(200);
    expect((await get(`/api/files/${deck}/download`, guest.client)).status).toBe(403);
    expect((await get(`/api/files/${model}/download`, reader.client)).status).toBe(200);
  });

  it("counts views and downloads per file, most opened first, with files nobody opened at zero", async () => {
    const { files, totals } = await analytics(owner, room.id);
    expect(files.map((file) => [file.name, file.views, file.downloads, file.people])).toEqual([
      ["Deck.pdf", 3, 1, 2],
      ["Model.xlsx", 0, 1, 1],
      ["Unread.txt", 0, 0, 0],
    ]);
    expect(files[2]!.lastAt).toBeNull();
    expect(totals).toEqual({ views: 3, downloads: 2, viewers: 2, files: 3 });
  });

  it("counts per person and says who has not opened what", async () => {
    const { people } = await analytics(owner, room.id);
    const byName = Object.fromEntries(people.map((person) => [person.name, person]));
    expect(byName["Rita Reader"]).toMatchObject({ views: 2, downloads: 2, opened: 2 });
    expect(byName["Rita Reader"]!.notOpened.map((file) => file.name)).toEqual(["Unread.txt"]);
    expect(byName["Gil Guest"]).toMatchObject({ views: 1, downloads: 0, opened: 1 });
    expect(byName["Ada Admin"]!.notOpened.map((file) => file.name)).toEqual(["Deck.pdf", "Model.xlsx", "Unread.txt"]);
  });

  it("counts per day over 7, 30 or 90 days, today last, every day present", async () => {
    const week = await analytics(owner, room.id, "?days=7");
    expect(week.days).toBe(7);
    expect(week.daily).toHaveLength(7);
    expect(week.daily.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), views: 3, downloads: 2 });
    expect(week.daily.slice(0, 6).every((day) => day.views === 0 && day.downloads === 0)).toBe(true);
    expect((await analytics(owner, room.id, "?days=12")).days).toBe(30);
    expect((await analytics(owner, room.id, "?days=90")).daily).toHaveLength(90);
  });

  it("exports the files and the people as CSV", async () => {
    const files = await get(`/api/datarooms/${room.id}/analytics/export?kind=files`, owner.client);
    expect(files.status).toBe(200);
    expect(files.headers.get("content-disposition")).toBe('attachment; filename="Counted-room-files.csv"');
    const fileLines = (await files.text()).trim().split("\r\n");
    expect(fileLines[0]).toBe('"file","file id","views","downloads","people","last opened (UTC)"');
    expect(fileLines[1]).toMatch(new RegExp(`^"Deck.pdf","${deck}","3","1","2","\\d{4}-`));
    const people = await (await get(`/api/datarooms/${room.id}/analytics/export?kind=people`, owner.client)).text();
    expect(people).toContain('"Rita Reader",');
    expect(people.split("\r\n")[0]).toBe('"person","e-mail","role","views","downloads","files opened","files not opened yet","last opened (UTC)"');
  });

  it("answers anonymous 401, an outsider 404, a member without view_analytics 403 until it is granted, and an admin", async () => {
    expect((await get(`/api/datarooms/${room.id}/analytics`)).status).toBe(401);
    expect((await get(`/api/datarooms/${room.id}/analytics`, outsider.client)).status).toBe(404);
    expect((await get(`/api/datarooms/${room.id}/analytics/export`, outsider.client)).status).toBe(404);
    const refused = await get(`/api/datarooms/${room.id}/analytics`, reader.client);
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("You don't have permission to see this data room's analytics.");
    expect((await analytics(admin, room.id)).files).toHaveLength(3);
    // Granting the right opens it for that person at once.
    expect((await send(owner.client, "POST", `/api/datarooms/${room.id}/permissions`, { user_id: reader.id, permission: "view_analytics", action: "grant" })).status).toBe(200);
    expect((await analytics(reader, room.id)).files).toHaveLength(3);
  });

  it("needs the room owner's plan to include analytics, and says which plan does", async () => {
    const basicOwner = await signedIn({ tier: "basic" });
    const basicRoom = await createRoom(basicOwner.client, "Basic analytics");
    const response = await get(`/api/datarooms/${basicRoom.id}/analytics`, basicOwner.client);
    expect(response.status).toBe(403);
    expect((await response.json<ErrorBody>()).message).toBe("You don't have the required feature: analytics. It is part of the Pro plan and above.");
  });
});
