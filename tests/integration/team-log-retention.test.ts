import { describe, expect, it } from "vitest";
import { auditRoom } from "~/features/datarooms/audit-record.server";
import { verifyRoomAudit } from "~/features/datarooms/audit.server";
import { pruneTeamLogsJob } from "~/features/teams/teams.jobs";
import { createTeamRoom } from "~/features/teams/team-rooms.server";
import { createTeam } from "~/features/teams/teams.server";
import { purgeTrashJob } from "~/features/files/trash.jobs";
import { createFile, testContext } from "~tests/factories/files";
import { countWhere, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv } from "./helpers";
import { join } from "./team-helpers";

/**
 * Log retention and legal hold (issue 42, ADR 039): a team's owner and admins set how long its
 * activity and its rooms' audit logs are kept; the nightly job removes what is older unless a legal
 * hold stands; a room's audit chain still verifies from the checkpoint its pruning recorded, and a
 * checkpoint nobody recorded does not.
 */

const DAY = 24 * 3600_000;
const start = Date.UTC(2026, 0, 1);
const at = (day: number) => () => new Date(start + day * DAY);

type Verification = Awaited<ReturnType<typeof verifyRoomAudit>>;

/** A team with one room whose log has 3 entries from day 0 and 2 from day 95; its activity is from day 0 too. */
async function teamWithHistory(days = 30) {
  const owner = await signedIn({ tier: "business", name: "Olivia Owner" });
  const early = testContext(at(0));
  const team = await createTeam(early, owner.id, { name: "Heron team" });
  const room = await createTeamRoom(early, owner.id, team.id, { name: "Heron" });
  await auditRoom(early, room.id, owner.id, [
    { action: "file.view", target: { type: "file", id: "f1", name: "a.pdf" } },
    { action: "file.download", target: { type: "file", id: "f1", name: "a.pdf" } },
    { action: "file.view", target: { type: "file", id: "f2", name: "b.pdf" } },
  ]);
  const recent = testContext(at(95));
  await auditRoom(recent, room.id, owner.id, [{ action: "file.view", target: { type: "file", id: "f3", name: "c.pdf" } }]);
  await auditRoom(recent, room.id, owner.id, [{ action: "file.view", target: { type: "file", id: "f4", name: "d.pdf" } }]);
  const retention = await send(owner.client, "PUT", `/api/teams/${team.id}/retention`, { days });
  expect(retention.status, await retention.clone().text()).toBe(200);
  return { owner, teamId: team.id, roomId: room.id };
}

const night = (day: number) => pruneTeamLogsJob.run({ ...testContext(at(day)), jobId: `test-night-${day}` }, {});
const entriesOf = (roomId: string) => countWhere("select count(*) as n from dataroom_audit_log where dataroom_id = ?", roomId);
const verify = (owner: Person, roomId: string): Promise<Verification> => verifyRoomAudit(testContext(), owner.id, roomId);

describe("log retention and legal hold", () => {
  it("removes the team's activity and its rooms' audit entries older than the period; the log still verifies and says from when it is complete; a second night removes nothing", async () => {
    const { owner, teamId, roomId } = await teamWithHistory(30);
    const before = await verify(owner, roomId);
    expect(before).toMatchObject({ ok: true, completeFrom: null });
    const recorded = before.entries;
    expect(await countWhere("select count(*) as n from team_events where team_id = ? and action = 'team.create'", teamId)).toBe(1);

    const result = await night(100);
    expect(result.processedItems).toBeGreaterThanOrEqual(3);
    // What was recorded on day 0 is gone; day 95's two entries and the pruning's own entry stay.
    expect(await entriesOf(roomId)).toBe(3);
    expect(await countWhere("select count(*) as n from team_events where team_id = ? and action = 'team.create'", teamId)).toBe(0);

    const after = await verify(owner, roomId);
    expect(after).toMatchObject({ ok: true, entries: recorded + 1, kept: 3 });
    if (!after.ok) throw new Error(after.message);
    expect(after.completeFrom).toMatchObject({ seq: recorded - 1, at: new Date(start + 95 * DAY).toISOString(), cutoffAt: new Date(start + 70 * DAY).toISOString() });
    const pruning = await testEnv.DB.prepare("select detail from dataroom_audit_log where dataroom_id = ? and action = 'audit.prune'").bind(roomId).first<{ detail: string }>();
    expect(pruning?.detail).toMatch(new RegExp(`^Entries #1–#${recorded - 2}, recorded before 2026-03-12, removed under the retention policy of the team “Heron team” \\(30 days\\)\\. The log continues from entry #${recorded - 2}, fingerprint [0-9a-f]{64}\\.$`));

    const page = await (await get(`/api/teams/${teamId}`, owner.client)).json<{ activity: { action: string; actorEmail: string | null; detail: string | null }[] }>();
    // The team's activity from day 0 (created the team, created the room) went too; the pruning says what it removed.
    expect(page.activity.find((event) => event.action === "logs.prune")).toMatchObject({ actorEmail: null, detail: `2 activity entries and ${recorded - 2} audit entries older than 30 days` });

    expect((await night(100)).processedItems).toBe(0);
    expect(await entriesOf(roomId)).toBe(3);
  });

  it("a legal hold stops every cleanup while it stands; released, the next night prunes", async () => {
    const { owner, teamId, roomId } = await teamWithHistory(30);
    const placed = await send(owner.client, "POST", `/api/teams/${teamId}/legal-hold`, { reason: "Litigation hold: Heron v. Osprey" });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const again = await send(owner.client, "POST", `/api/teams/${teamId}/legal-hold`, { reason: "Another" });
    expect(again.status).toBe(409);
    const entries = await entriesOf(roomId);

    expect((await night(100)).processedItems).toBe(0);
    expect(await entriesOf(roomId)).toBe(entries);
    expect(await countWhere("select count(*) as n from team_events where team_id = ? and action = 'team.create'", teamId)).toBe(1);
    const held = await (await get(`/api/teams/${teamId}`, owner.client)).json<{ logs: { days: number; hold: { reason: string; byEmail: string } | null } }>();
    expect(held.logs).toMatchObject({ days: 30, hold: { reason: "Litigation hold: Heron v. Osprey", byEmail: owner.email } });

    expect((await send(owner.client, "DELETE", `/api/teams/${teamId}/legal-hold`)).status).toBe(200);
    expect((await send(owner.client, "DELETE", `/api/teams/${teamId}/legal-hold`)).status).toBe(409);
    expect((await night(101)).processedItems).toBeGreaterThan(0);
    expect(await entriesOf(roomId)).toBe(3);
    expect((await verify(owner, roomId)).ok).toBe(true);
  });

  it("a legal hold also keeps the team rooms' trash past its 30 days, files and whole rooms; released, the next purge deletes them", async () => {
    const owner = await signedIn({ tier: "business" });
    const ctx = testContext();
    const team = await createTeam(ctx, owner.id, { name: "Held team" });
    const room = await createTeamRoom(ctx, owner.id, team.id, { name: "Evidence" });
    const gone = await createTeamRoom(ctx, owner.id, team.id, { name: "Closed deal" });
    const { rootFolderId } = await (await get(`/api/datarooms/${room.id}`, owner.client)).json<{ rootFolderId: string }>();
    const file = await createFile({ spaceId: room.id, folderId: rootFolderId, name: "email export.pst", uploadedBy: owner.id });
    expect((await send(owner.client, "POST", "/api/items/delete", { items: [{ type: "file", id: file.id }] })).status).toBe(200);
    expect((await send(owner.client, "DELETE", `/api/datarooms/${gone.id}`)).status).toBe(200);
    expect((await send(owner.client, "POST", `/api/teams/${team.id}/legal-hold`, { reason: "Regulator's request" })).status).toBe(201);

    const purge = () => purgeTrashJob.run({ ...testContext(() => new Date(Date.now() + 31 * DAY)), jobId: "test-purge" }, {});
    await purge();
    expect(await countWhere("select count(*) as n from files where id = ?", file.id)).toBe(1);
    expect(await countWhere("select count(*) as n from datarooms where id = ?", gone.id)).toBe(1);

    expect((await send(owner.client, "DELETE", `/api/teams/${team.id}/legal-hold`)).status).toBe(200);
    await purge();
    expect(await countWhere("select count(*) as n from files where id = ?", file.id)).toBe(0);
    expect(await countWhere("select count(*) as n from datarooms where id = ?", gone.id)).toBe(0);
  });

  it("a log that lost entries outside the policy does not verify: one more entry removed, or a checkpoint nobody recorded", async () => {
    const { owner, roomId } = await teamWithHistory(30);
    await night(100);
    const after = await verify(owner, roomId);
    if (!after.ok) throw new Error(after.message);
    const first = after.completeFrom!.seq;

    const checkpoint = (await testEnv.DB.prepare("select seq, hash from dataroom_audit_checkpoints where dataroom_id = ?").bind(roomId).first<{ seq: number; hash: string }>())!;
    // Someone with database access moves the checkpoint past the next entry and deletes it.
    const next = await testEnv.DB.prepare("select seq, hash from dataroom_audit_log where dataroom_id = ? and seq = ?").bind(roomId, first).first<{ seq: number; hash: string }>();
    await testEnv.DB.batch([
      testEnv.DB.prepare("update dataroom_audit_checkpoints set seq = ?, hash = ? where dataroom_id = ?").bind(next!.seq, next!.hash, roomId),
      testEnv.DB.prepare("delete from dataroom_audit_log where dataroom_id = ? and seq = ?").bind(roomId, first),
    ]);
    expect(await verify(owner, roomId)).toEqual({
      ok: false,
      entries: next!.seq,
      brokenAt: next!.seq,
      message: `The log starts after entry #${next!.seq}, but no pruning recorded in the log removed the entries before it: they were removed outside the retention policy.`,
    });

    // Put back where the pruning left it, then lose an entry in the middle.
    await testEnv.DB.prepare("update dataroom_audit_checkpoints set seq = ?, hash = ? where dataroom_id = ?").bind(checkpoint.seq, checkpoint.hash, roomId).run();
    expect(await verify(owner, roomId)).toEqual({ ok: false, entries: checkpoint.seq, brokenAt: first, message: `Entry #${first} is missing: the log jumps from #${checkpoint.seq} to #${first + 1}.` });
  });

  it("lets the owner and admins set retention and holds: anonymous 401, outsider 404 with nothing written, a member 403, a clear 400 for a bad period, every change in the activity", async () => {
    const owner = await signedIn({ tier: "business" });
    const team = await createTeam(testContext(), owner.id, { name: "Keepers" });
    const member = await signedIn();
    const outsider = await signedIn({ tier: "business" });
    await join(owner, team.id, member);

    const anonymous = await newAuthClient();
    expect((await send(anonymous, "PUT", `/api/teams/${team.id}/retention`, { days: 30 })).status).toBe(401);
    expect((await send(outsider.client, "PUT", `/api/teams/${team.id}/retention`, { days: 30 })).status).toBe(404);
    expect((await send(outsider.client, "POST", `/api/teams/${team.id}/legal-hold`, { reason: "Mine" })).status).toBe(404);
    const refused = await send(member.client, "PUT", `/api/teams/${team.id}/retention`, { days: 30 });
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toContain("team.logs.manage");
    expect((await send(member.client, "POST", `/api/teams/${team.id}/legal-hold`, { reason: "Mine" })).status).toBe(403);
    expect(await countWhere("select count(*) as n from teams where id = ? and (log_retention_days <> 0 or legal_hold_at is not null)", team.id)).toBe(0);
    const memberView = await (await get(`/api/teams/${team.id}`, member.client)).json<{ logs: unknown }>();
    expect(memberView.logs).toBeNull();

    const tooShort = await send(owner.client, "PUT", `/api/teams/${team.id}/retention`, { days: 3 });
    expect(tooShort.status).toBe(400);
    expect((await tooShort.json<{ message: string }>()).message).toBe("days: Keep logs 0 days (forever) or between 7 and 3650 days.");
    expect((await send(owner.client, "POST", `/api/teams/${team.id}/legal-hold`, { reason: " " })).status).toBe(400);

    expect((await send(owner.client, "PUT", `/api/teams/${team.id}/retention`, { days: 90 })).status).toBe(200);
    expect((await send(owner.client, "POST", `/api/teams/${team.id}/legal-hold`, { reason: "Audit request" })).status).toBe(201);
    expect((await send(owner.client, "DELETE", `/api/teams/${team.id}/legal-hold`)).status).toBe(200);
    const activity = (await (await get(`/api/teams/${team.id}`, owner.client)).json<{ activity: { action: string; detail: string | null }[] }>()).activity;
    expect(activity.map((event) => [event.action, event.detail])).toEqual(
      expect.arrayContaining([
        ["logs.retention", "forever → 90 days"],
        ["logs.hold", "Audit request"],
        ["logs.release", "Audit request"],
      ]),
    );
  });
});
