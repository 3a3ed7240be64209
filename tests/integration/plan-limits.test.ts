import { describe, expect, it } from "vitest";
import { planLimitsJob, trialsMorningJob } from "~/features/billing/billing.jobs";
import { loadAttention } from "~/features/workspace/attention.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, testContext } from "~tests/factories/files";
import { changePlan, memberWhoBought } from "./billing-helpers";
import { countWhere, createRoom, get, send, signedIn } from "./dataroom-helpers";
import { postJson, type ErrorBody } from "./helpers";

/**
 * Over the plan means read-only (issue 43, ADR 044): when a plan gets smaller nothing is deleted;
 * what is over its limits only reads — every change refused, every read still there — until it
 * fits again (a room deleted, files deleted, a bigger plan).
 */

const OVER_PLAN = "This is read-only: it is over its owner's plan. It can be changed again once the plan holds it (a bigger plan or add-on, or deleting what is over).";
const DAY = 86_400_000;

async function isOverPlan(spaceId: string): Promise<boolean> {
  return (await countWhere("select count(*) as n from spaces where id = ? and over_plan_at is not null", spaceId)) === 1;
}

describe("what is over a smaller plan only reads", () => {
  it("a downgrade to Basic leaves the sixth data room read-only for everyone (reads work, every change is refused); deleting a room makes it writable again", async () => {
    const owner = await memberWhoBought({ tier: "business", addons: { extra_datarooms: 2 } });
    const member = await signedIn();
    const rooms = [];
    for (const name of ["One", "Two", "Three", "Four", "Five", "Six"]) rooms.push(await createRoom(owner.client, `Project ${name}`));
    const newest = rooms[5]!;
    await addDataroomMember(newest.id, member.id, "member");
    const folder = await postJson(owner.client, "/api/folders", { parentId: newest.rootFolderId, label: "Signed" });
    const folderId = (await folder.json<{ folder: { uid: string } }>()).folder.uid;
    const file = await createFile({ spaceId: newest.id, folderId: newest.rootFolderId, name: "terms.txt", content: "terms" });
    expect(await countWhere("select count(*) as n from spaces where owner_id = ? and over_plan_at is not null", owner.id)).toBe(0);

    const { over } = await changePlan(owner.client, { tier: "basic", confirm: true });
    expect(over.map((item) => item.text)).toEqual(["6 data rooms; Basic allows 5 data rooms"]);
    // The newest room beyond Basic's five; the older five stay as they were.
    expect(await isOverPlan(newest.id)).toBe(true);
    for (const room of rooms.slice(0, 5)) expect(await isOverPlan(room.id)).toBe(false);
    // "Needs your attention" says so, read with the plan.
    const attention = await loadAttention(testContext(), { userId: owner.id, now: new Date(), personalUsage: async () => ({ usedBytes: 0, quotaBytes: null }) as never });
    expect(attention.filter((item) => item.kind === "plan.over")).toEqual([
      expect.objectContaining({ title: "“Project Six” is read-only: over your plan", detail: "6 data rooms; Basic allows 5. Nothing is deleted; change your plan, or delete what is over.", href: `/dataroom/${newest.id}` }),
    ]);
    const summary = await (await get(`/api/datarooms/${newest.id}`, owner.client)).json<{ dataroom: { overPlan: boolean; overPlanReason: string } }>();
    expect(summary.dataroom).toMatchObject({ overPlan: true, overPlanReason: "6 data rooms; Basic allows 5" });

    for (const person of [owner, member]) {
      const page = await get(`/api/folders/${newest.rootFolderId}`, person.client);
      expect(page.status).toBe(200);
      expect((await page.json<{ role: string }>()).role).toBe("over_plan");
      const create = await postJson(person.client, "/api/folders", { parentId: newest.rootFolderId, label: "More" });
      expect(create.status).toBe(403);
      expect((await create.json<ErrorBody>()).message).toBe(OVER_PLAN);
      const upload = await postJson(person.client, "/api/uploads", {}, { "upload-length": "5", "upload-metadata": `folderId ${btoa(newest.rootFolderId)},filename ${btoa("a.txt")}`, "tus-resumable": "1.0.0" });
      expect(upload.status).toBe(403);
      expect((await send(person.client, "PATCH", `/folder/${folderId}`, { label: "Renamed" })).status).toBe(403);
      const comment = await send(person.client, "POST", `/api/files/${file.id}/comments`, { body: "Looks good" });
      expect(comment.status).toBe(409);
      expect((await comment.json<ErrorBody>()).message).toBe(OVER_PLAN);
      // Reading and downloading stay.
      expect((await get(`/api/files/${file.id}/comments`, person.client)).status).toBe(200);
    }
    for (const [method, path, body] of [
      ["PATCH", `/api/datarooms/${newest.id}`, { name: "Changed" }],
      ["POST", `/api/datarooms/${newest.id}/invitations`, { emails: "someone@example.com", role: "member" }],
    ] as const) {
      const refused = await send(owner.client, method, path, body);
      expect(refused.status, path).toBe(409);
      expect((await refused.json<ErrorBody>()).message).toBe(OVER_PLAN);
    }
    // An older room is as it was.
    expect((await postJson(owner.client, "/api/folders", { parentId: rooms[0]!.rootFolderId, label: "More" })).status).toBe(201);
    // Nothing was deleted: the room and its folder are all there.
    expect(await countWhere("select count(*) as n from folders where id = ? and trashed_at is null", folderId)).toBe(1);

    // Deleting a room (allowed: it is how it comes to fit) makes the sixth writable at once.
    expect((await send(owner.client, "DELETE", `/api/datarooms/${rooms[1]!.id}`)).status).toBe(200);
    expect(await isOverPlan(newest.id)).toBe(false);
    expect((await postJson(member.client, "/api/folders", { parentId: newest.rootFolderId, label: "More" })).status).toBe(201);
  });

  it("a trial's end leaves a space over the paid plan's folders read-only but deletable; deleting what is over for good makes it writable at once", async () => {
    const owner = await signedIn({ tier: "free" });
    expect((await send(owner.client, "POST", "/api/billing/trial", { tier: "pro" })).status).toBe(201);
    const room = await createRoom(owner.client, "Folders galore");
    // Free allows 50 folders per space (its top folder does not count): 51 is over it.
    const made: string[] = [];
    for (let index = 0; index < 51; index += 1) {
      const created = await postJson(owner.client, "/api/folders", { parentId: room.rootFolderId, label: `Folder ${index}` });
      expect(created.status).toBe(201);
      made.push((await created.json<{ folder: { uid: string } }>()).folder.uid);
    }
    const later = { ...testContext(() => new Date(Date.now() + 15 * DAY)), jobId: "test" };
    await trialsMorningJob.run(later, {});
    expect(await isOverPlan(room.id)).toBe(true);
    const reason = await (await get(`/api/billing/plan-limits`, owner.client)).json<{ readOnly: { id: string; reason: string }[] }>();
    expect(reason.readOnly, JSON.stringify(reason.readOnly)).toContainEqual(expect.objectContaining({ id: room.id, reason: "Folders galore: 51 folders; Free allows 50 folders per data room" }));
    expect((await postJson(owner.client, "/api/folders", { parentId: room.rootFolderId, label: "One more" })).status).toBe(403);

    // Deleting is allowed. The trash still counts (as for every limit): in the trash, still over;
    // deleted for good, two folders fewer fit, and the room is writable again at once.
    const trash = await postJson(owner.client, "/api/items/delete", { items: made.slice(0, 2).map((id) => ({ type: "folder", id })) });
    expect(trash.status, await trash.clone().text()).toBe(200);
    expect(await isOverPlan(room.id)).toBe(true);
    const purge = await postJson(owner.client, "/api/items/delete", { items: made.slice(0, 2).map((id) => ({ type: "folder", id })), permanent: true });
    expect(purge.status, await purge.clone().text()).toBe(200);
    expect(await isOverPlan(room.id)).toBe(false);
    expect((await postJson(owner.client, "/api/folders", { parentId: room.rootFolderId, label: "One more" })).status).toBe(201);
    // The nightly look finds nothing more to do for them; "check again" answers the same.
    await planLimitsJob.run(later, {});
    const again = await send(owner.client, "POST", "/api/billing/plan-limits", {});
    expect((await again.json<{ readOnly: unknown[] }>()).readOnly).toEqual([]);
  });
});
