import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { auditHash } from "~/features/datarooms/audit-chain";
import { AUDIT_GENESIS_HASH } from "~/features/datarooms/audit.constants";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile } from "~tests/factories/files";
import { createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { origin, testEnv, type ErrorBody } from "./helpers";

/**
 * A data room's audit log (issue 20, QUALITY S22): what is recorded (views, downloads, changes,
 * refusals, with IP and user agent), the hash chain and its verification naming the first broken
 * entry, append-only in D1, filters and keyset pages, the CSV export, and who may read it.
 */

type Entry = { seq: number; action: string; outcome: string; actorEmail: string | null; targetName: string | null; targetId: string | null; detail: string | null; ip: string | null; userAgent: string | null };
type AuditBody = { entries: Entry[]; people: { id: string; email: string }[]; nextCursor: string | null };
type Verification = { ok: boolean; entries: number; brokenAt?: number; message?: string };

/** A GET from a given address and browser, as the edge reports them. */
function getFrom(path: string, person: Person, ip: string, userAgent: string) {
  return exports.default.fetch(`${origin}${path}`, { headers: { accept: "application/json", cookie: person.client.jar.header(), "cf-connecting-ip": ip, "user-agent": userAgent } });
}

async function audit(person: Person, roomId: string, query = ""): Promise<AuditBody> {
  const response = await get(`/api/datarooms/${roomId}/audit${query}`, person.client);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<AuditBody>();
}

async function verify(person: Person, roomId: string): Promise<Verification> {
  const response = await send(person.client, "POST", `/api/datarooms/${roomId}/audit/verify`);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<Verification>();
}

/** Runs `change` on the log's D1 rows with the append-only triggers out of the way, as someone with database access could. */
async function tamper(change: string, ...values: unknown[]) {
  const triggers = await testEnv.DB.prepare("select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'dataroom_audit_log'").all<{ name: string; sql: string }>();
  for (const trigger of triggers.results) await testEnv.DB.prepare(`drop trigger ${trigger.name}`).run();
  try {
    await testEnv.DB.prepare(change).bind(...values).run();
  } finally {
    for (const trigger of triggers.results) await testEnv.DB.prepare(trigger.sql).run();
  }
}

describe("what a room's audit log records", () => {
  let owner: Person;
  let member: Person;
  let guest: Person;
  let room: { id: string; rootFolderId: string };
  let fileId: string;
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro", name: "Olga Owner" });
    [member, guest] = await Promise.all([signedIn({ name: "Mia Member" }), signedIn({ name: "Gus Guest" })]);
    room = await createRoom(owner.client, "Audited room");
    await addDataroomMember(room.id, member.id, "member");
    await addDataroomMember(room.id, guest.id, "guest");
    fileId = (await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "financials.xlsx", content: "numbers" })).id;
  });

  it("records a view and a download with who, from which address and browser, before the bytes leave", async () => {
    expect((await getFrom(`/api/files/${fileId}/preview`, member, "203.0.113.7", "Mozilla/5.0 (X11; Linux x86_64) Chrome/130")).status).toBe(200);
    expect((await getFrom(`/api/files/${fileId}/download`, member, "203.0.113.7", "Mozilla/5.0 (X11; Linux x86_64) Chrome/130")).status).toBe(200);
    const { entries } = await audit(owner, room.id, `?person=${member.id}`);
    expect(entries.slice(0, 2).map((entry) => entry.action)).toEqual(["file.download", "file.view"]);
    expect(entries[0]).toMatchObject({ outcome: "allowed", actorEmail: member.email, targetName: "financials.xlsx", targetId: fileId, ip: "203.0.113.7", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/130" });
  });

  it("records a later range of the same view once (the PDF viewer's follow-up reads are one opening)", async () => {
    const before = (await audit(owner, room.id, `?person=${member.id}&action=file.view`)).entries.length;
    const range = (from: number) =>
      exports.default.fetch(`${origin}/api/files/${fileId}/preview`, { headers: { cookie: member.client.jar.header(), range: `bytes=${from}-${from + 1}` } });
    expect((await range(0)).status).toBe(206);
    expect((await range(2)).status).toBe(206);
    expect((await audit(owner, room.id, `?person=${member.id}&action=file.view`)).entries).toHaveLength(before + 1);
  });

  it("records every refusal: a guest's download and a member's look at the permissions page", async () => {
    expect((await get(`/api/files/${fileId}/download`, guest.client)).status).toBe(403);
    expect((await get(`/api/datarooms/${room.id}/permissions`, member.client)).status).toBe(403);
    const { entries } = await audit(owner, room.id, "?action=access.refused");
    expect(entries.map((entry) => [entry.actorEmail, entry.outcome, entry.detail])).toEqual([
      [member.email, "refused", "You don't have permission to manage this data room's members."],
      [guest.email, "refused", "You don't have permission to download these files."],
    ]);
  });

  it("records permission changes, people and file changes with their details", async () => {
    expect((await send(owner.client, "DELETE", `/api/datarooms/${room.id}/permissions`, { user_id: member.id, permission: "download" })).status).toBe(200);
    expect((await send(member.client, "PATCH", `/api/files/${fileId}`, { name: "financials 2026.xlsx" })).status).toBe(200);
    expect((await send(owner.client, "PATCH", `/api/datarooms/${room.id}/members/${guest.id}`, { role: "member" })).status).toBe(200);
    const { entries } = await audit(owner, room.id);
    const byAction = (action: string) => entries.find((entry) => entry.action === action);
    expect(byAction("permission.change")).toMatchObject({ actorEmail: owner.email, targetName: member.email, detail: "download: off" });
    expect(byAction("file.rename")).toMatchObject({ actorEmail: member.email, targetName: "financials 2026.xlsx", detail: "renamed from “financials.xlsx”" });
    expect(byAction("member.role")).toMatchObject({ targetName: guest.email, detail: "Guest → Member" });
  });

  it("keeps personal spaces out: nothing of a member's own files is recorded anywhere", async () => {
    const before = await testEnv.DB.prepare("select count(*) as n from dataroom_audit_log").first<{ n: number }>();
    const mine = await get(`/api/folders`, member.client);
    const space = (await mine.json<{ spaces: { rootUid: string; spaceKind: string; spaceId: string }[] }>()).spaces.find((entry) => entry.spaceKind === "personal")!;
    const own = await createFile({ spaceId: space.spaceId, folderId: space.rootUid, name: "private.txt" });
    expect((await get(`/api/files/${own.id}/download`, member.client)).status).toBe(200);
    await testEnv.DATA_ROOM.getByName(room.id).flushAudit();
    const after = await testEnv.DB.prepare("select count(*) as n from dataroom_audit_log").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });
});

describe("the hash chain", () => {
  let owner: Person;
  let room: { id: string; rootFolderId: string };
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro" });
    room = await createRoom(owner.client, "Chained room");
    const file = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "deck.pdf" });
    for (let i = 0; i < 4; i++) expect((await get(`/api/files/${file.id}/download`, owner.client)).status).toBe(200);
  });

  it("links each entry to the one before, from the first, and verifies", async () => {
    await testEnv.DATA_ROOM.getByName(room.id).flushAudit();
    const rows = (
      await testEnv.DB.prepare("select * from dataroom_audit_log where dataroom_id = ? order by seq").bind(room.id).all<Record<string, string | number | null>>()
    ).results;
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, 4]);
    expect(rows[0]!.prev_hash).toBe(AUDIT_GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    const first = rows[0]!;
    const fields = {
      at: first.at as number,
      actorId: first.actor_id as string,
      actorEmail: first.actor_email as string,
      action: first.action as string,
      outcome: first.outcome as "allowed",
      targetType: first.target_type as string,
      targetId: first.target_id as string,
      targetName: first.target_name as string,
      detail: first.detail as string | null,
      ip: first.ip as string | null,
      userAgent: first.user_agent as string | null,
    };
    expect(auditHash(room.id, 1, AUDIT_GENESIS_HASH, fields)).toBe(first.hash);
    expect(await verify(owner, room.id)).toMatchObject({ ok: true, entries: 4 });
  });

  it("refuses to change or remove an entry in D1 while the room exists", async () => {
    await expect(testEnv.DB.prepare("update dataroom_audit_log set ip = '10.0.0.1' where dataroom_id = ? and seq = 2").bind(room.id).run()).rejects.toThrow(/append-only/);
    await expect(testEnv.DB.prepare("delete from dataroom_audit_log where dataroom_id = ? and seq = 2").bind(room.id).run()).rejects.toThrow(/append-only/);
  });

  it("names the entry that was changed behind its back, then a removed one, then a cut tail", async () => {
    await tamper("update dataroom_audit_log set actor_email = 'someone-else@example.com' where dataroom_id = ? and seq = 2", room.id);
    expect(await verify(owner, room.id)).toEqual({ ok: false, entries: 1, brokenAt: 2, message: "Entry #2 was changed after it was recorded." });

    const other = await createRoom(owner.client, "Gap room");
    const file = await createFile({ spaceId: other.id, folderId: other.rootFolderId, name: "a.txt" });
    for (let i = 0; i < 3; i++) await get(`/api/files/${file.id}/download`, owner.client);
    await testEnv.DATA_ROOM.getByName(other.id).flushAudit();
    await tamper("delete from dataroom_audit_log where dataroom_id = ? and seq = 2", other.id);
    expect(await verify(owner, other.id)).toMatchObject({ ok: false, brokenAt: 2, message: "Entry #2 is missing: the log jumps from #1 to #3." });

    const third = await createRoom(owner.client, "Tail room");
    const tailFile = await createFile({ spaceId: third.id, folderId: third.rootFolderId, name: "b.txt" });
    for (let i = 0; i < 3; i++) await get(`/api/files/${tailFile.id}/download`, owner.client);
    await testEnv.DATA_ROOM.getByName(third.id).flushAudit();
    await tamper("delete from dataroom_audit_log where dataroom_id = ? and seq = 3", third.id);
    expect(await verify(owner, third.id)).toMatchObject({ ok: false, brokenAt: 3, message: "Entries after #2 are missing: the room recorded 3." });
  });

  it("keeps one order when many requests record at once", async () => {
    const busy = await createRoom(owner.client, "Busy room");
    const file = await createFile({ spaceId: busy.id, folderId: busy.rootFolderId, name: "popular.pdf" });
    const responses = await Promise.all(Array.from({ length: 20 }, () => get(`/api/files/${file.id}/download`, owner.client)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(await verify(owner, busy.id)).toMatchObject({ ok: true, entries: 20 });
  });
});

describe("reading the log", () => {
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  let room: { id: string; rootFolderId: string };
  beforeAll(async () => {
    owner = await signedIn({ tier: "pro" });
    [admin, member, outsider] = await Promise.all([signedIn(), signedIn(), signedIn()]);
    room = await createRoom(owner.client, "Read room");
    await addDataroomMember(room.id, admin.id, "admin");
    await addDataroomMember(room.id, member.id, "member");
    const file = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "minutes.txt" });
    for (let i = 0; i < 105; i++) await get(`/api/files/${file.id}/download`, member.client);
  });

  it("answers anonymous 401, an outsider 404, a member without view_audit_log 403, and an admin and the owner", async () => {
    expect((await get(`/api/datarooms/${room.id}/audit`)).status).toBe(401);
    expect((await get(`/api/datarooms/${room.id}/audit`, outsider.client)).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/datarooms/${room.id}/audit/verify`)).status).toBe(404);
    expect((await get(`/api/datarooms/${room.id}/audit/export`, outsider.client)).status).toBe(404);
    const refused = await get(`/api/datarooms/${room.id}/audit`, member.client);
    expect(refused.status).toBe(403);
    expect((await refused.json<ErrorBody>()).message).toBe("You don't have permission to see this data room's audit log.");
    expect((await get(`/api/datarooms/${room.id}/audit`, admin.client)).status).toBe(200);
    expect((await get(`/api/datarooms/${room.id}/audit`, owner.client)).status).toBe(200);
  });

  it("needs the room owner's plan to include audit logs, and says which plan does", async () => {
    const freeOwner = await signedIn({ tier: "basic" });
    const basicRoom = await createRoom(freeOwner.client, "Basic room");
    const response = await get(`/api/datarooms/${basicRoom.id}/audit`, freeOwner.client);
    expect(response.status).toBe(403);
    expect((await response.json<ErrorBody>()).message).toBe("You don't have the required feature: audit_logs. It is part of the Pro plan and above.");
  });

  it("pages newest first, 100 at a time, without gaps or repeats", async () => {
    const first = await audit(owner, room.id, "?action=file.download");
    expect(first.entries).toHaveLength(100);
    expect(first.nextCursor).not.toBeNull();
    const second = await audit(owner, room.id, `?action=file.download&cursor=${first.nextCursor}`);
    expect(second.entries).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    const seqs = [...first.entries, ...second.entries].map((entry) => entry.seq);
    expect(new Set(seqs).size).toBe(105);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
  });

  it("filters by person, action, file and dates, and explains a filter it cannot use", async () => {
    const byPerson = await audit(owner, room.id, `?person=${member.id}&action=file.download`);
    expect(byPerson.entries.every((entry) => entry.actorEmail === member.email)).toBe(true);
    expect(byPerson.people.map((person) => person.id)).toContain(member.id);
    const today = new Date().toISOString().slice(0, 10);
    expect((await audit(owner, room.id, `?from=${today}&to=${today}&action=file.download`)).entries).toHaveLength(100);
    expect((await audit(owner, room.id, "?from=2020-01-01&to=2020-01-31")).entries).toHaveLength(0);
    const bad = await get(`/api/datarooms/${room.id}/audit?action=steal&from=2026-13-45`, owner.client);
    expect(bad.status).toBe(400);
    const body = await bad.json<ErrorBody & { fieldErrors: Record<string, string[]> }>();
    expect(body.fieldErrors.action).toEqual(["Choose an action from the list."]);
    expect(body.fieldErrors.from).toEqual(["That date does not exist."]);
  });

  it("exports the filtered log as CSV, oldest first, formulas defused, and records the export", async () => {
    const response = await get(`/api/datarooms/${room.id}/audit/export?action=file.download`, owner.client);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="Read-room-audit-log.csv"');
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe('"seq","time (UTC)","person","action","outcome","target type","target","target id","detail","ip","user agent","hash"');
    expect(lines).toHaveLength(106);
    expect(lines[1]).toContain(`"${member.email}","Downloaded a file","allowed","file","minutes.txt"`);
    expect((await audit(owner, room.id, "?action=audit.export")).entries[0]).toMatchObject({ actorEmail: owner.email });

    await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "=HYPERLINK(1).txt" });
    const evil = await testEnv.DB.prepare("select id from files where space_id = ? and name = '=HYPERLINK(1).txt'").bind(room.id).first<{ id: string }>();
    await get(`/api/files/${evil!.id}/download`, owner.client);
    const csv = await (await get(`/api/datarooms/${room.id}/audit/export?target=${evil!.id}`, owner.client)).text();
    expect(csv).toContain(`"'=HYPERLINK(1).txt"`);
  });
});
