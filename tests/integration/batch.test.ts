import { beforeAll, describe, expect, it } from "vitest";
import { consumeAttempt } from "~/features/auth/attempt-limits.server";
import { BATCH_OPERATIONS_PER_MINUTE, cancelBatchOperation, getBatchOperation, pauseBatchOperation, resumeBatchOperation, startBatchOperation } from "~/features/batch/batch.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, makeFolder, personalSpaceOf } from "~tests/factories/files";
import { countWhere, createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { capturing, deliver } from "./batch-helpers";
import { newAuthClient, testEnv } from "./helpers";

/**
 * Batch operations on the server (issue 22, step 2): the operation record and its items, one
 * queue message per 100 items carrying ids only, the consumer's chunks with the member's own
 * rights (refusals per item), idempotent delivery, and pause / resume / cancel.
 */

/** Everything a batch can change, to compare runs: the files' folders and trash state. */
async function filesOf(spaceId: string) {
  const { results } = await testEnv.DB.prepare("select name, folder_id as folderId, trashed_at is not null as trashed from files where space_id = ? order by name").bind(spaceId).all();
  return results;
}

describe("batch operations", () => {
  let owner: Person;
  let guest: Person;
  let room: { id: string; rootFolderId: string };
  let target: string;
  let fileIds: string[];
  beforeAll(async () => {
    owner = await signedIn({ tier: "business", name: "Bea Batch" });
    guest = await signedIn({ name: "Gil Guest" });
    room = await createRoom(owner.client, "Batch room");
    await addDataroomMember(room.id, guest.id, "guest");
    target = await makeFolder(room.id, room.rootFolderId, "Archive 2026");
    fileIds = [];
    for (let index = 0; index < 230; index++) fileIds.push((await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: `doc ${String(index).padStart(3, "0")}.txt`, content: `doc ${index}` })).id);
  });

  it("records a move of 230 items, sends 3 messages of ids only, and moves every item through the queue, answering its progress", async () => {
    const { ctx, sent } = capturing();
    const operation = await startBatchOperation(ctx, owner.id, room.id, "move", { items: fileIds, targetFolderId: target });
    expect(operation).toMatchObject({ type: "move", status: "pending", totalItems: 230, processedItems: 0, progress: 0, userId: owner.id });
    expect(sent.map((message) => message.body.payload.chunk)).toEqual([0, 1, 2]);
    expect(JSON.stringify(sent).length).toBeLessThan(1_000);

    const result = await deliver(sent);
    expect(result.explicitAcks).toHaveLength(3);
    expect(await getBatchOperation(ctx, owner.id, operation.id)).toMatchObject({ status: "completed", processedItems: 230, successCount: 230, failureCount: 0, progress: 100 });
    expect(await countWhere("select count(*) as n from files where folder_id = ?", target)).toBe(230);
  });

  it("ends in exactly the same rows when every message is delivered twice and one failed mid-batch", async () => {
    // Back where they were, by a clean run; then the same move, with a failing first delivery.
    const { ctx, sent } = capturing();
    const back = await startBatchOperation(ctx, owner.id, room.id, "move", { items: fileIds, targetFolderId: room.rootFolderId });
    await deliver(sent);
    expect((await getBatchOperation(ctx, owner.id, back.id)).status).toBe("completed");
    const clean = await filesOf(room.id);

    const again = capturing();
    const moved = await startBatchOperation(again.ctx, owner.id, room.id, "move", { items: fileIds, targetFolderId: target });
    // The target vanishes for a moment: the first chunk's items are refused...
    await testEnv.DB.prepare("update folders set trashed_at = 1 where id = ?").bind(target).run();
    await deliver([again.sent[0]!]);
    await testEnv.DB.prepare("update folders set trashed_at = null where id = ?").bind(target).run();
    expect((await getBatchOperation(again.ctx, owner.id, moved.id)).failureCount).toBe(100);
    // ...then every message arrives twice.
    await deliver([...again.sent, ...again.sent]);
    const view = await getBatchOperation(again.ctx, owner.id, moved.id);
    expect(view).toMatchObject({ status: "completed", processedItems: 230, successCount: 130, failureCount: 100 });
    expect(view.errors[0]).toMatchObject({ itemId: fileIds[0] });
    await deliver(again.sent);
    expect(await getBatchOperation(again.ctx, owner.id, moved.id)).toEqual(view);
    expect(await countWhere("select count(*) as n from files where folder_id = ?", target)).toBe(130);
    expect(clean).toHaveLength(230);
  });

  it("deletes to the trash and restores, and a second delivery deletes nothing for good", async () => {
    const some = fileIds.slice(200, 230);
    const { ctx, sent } = capturing();
    const deleted = await startBatchOperation(ctx, owner.id, room.id, "delete", { items: some });
    await deliver([...sent, ...sent]);
    expect(await getBatchOperation(ctx, owner.id, deleted.id)).toMatchObject({ status: "completed", successCount: 30 });
    expect(await countWhere("select count(*) as n from files where trashed_at is not null and space_id = ?", room.id)).toBe(30);
    expect(await countWhere("select count(*) as n from files where space_id = ?", room.id)).toBe(230);

    const restore = capturing();
    const restored = await startBatchOperation(restore.ctx, owner.id, room.id, "restore", { items: some });
    await deliver([...restore.sent, ...restore.sent]);
    expect(await getBatchOperation(restore.ctx, owner.id, restored.id)).toMatchObject({ status: "completed", successCount: 30 });
    expect(await countWhere("select count(*) as n from files where trashed_at is not null and space_id = ?", room.id)).toBe(0);
  });

  it("shares each item with one link of the given options, once however often the message arrives", async () => {
    const some = fileIds.slice(10, 13);
    const { ctx, sent } = capturing();
    const before = await countWhere("select count(*) as n from share_links where space_id = ?", room.id);
    const shared = await startBatchOperation(ctx, owner.id, room.id, "share", { items: some, options: { requireEmail: true, allowDownload: false } });
    await deliver([...sent, ...sent]);
    expect(await getBatchOperation(ctx, owner.id, shared.id)).toMatchObject({ status: "completed", successCount: 3, failureCount: 0 });
    expect(await countWhere("select count(*) as n from share_links where space_id = ?", room.id)).toBe(before + 3);
    for (const id of some) expect(await countWhere("select count(*) as n from share_links where target_id = ? and require_email = 1 and allow_download = 0", id)).toBe(1);
    // Options the link service refuses are refused per item, with its reason.
    const bad = capturing();
    const refused = await startBatchOperation(bad.ctx, owner.id, room.id, "share", { items: some.slice(0, 1), options: { allowList: ["@acme.vc"] } });
    await deliver(bad.sent);
    const view = await getBatchOperation(bad.ctx, owner.id, refused.id);
    expect(view).toMatchObject({ status: "completed", failureCount: 1 });
    expect(view.errors[0]!.message).toContain("Turn on “Ask for e-mail”");
  });

  it("reports per item what the member may not touch, and items outside the space as not found", async () => {
    const { spaceId, rootId } = await personalSpaceOf(owner.id);
    const mine = await createFile({ spaceId, folderId: rootId, name: "private.txt", content: "mine" });
    const { ctx, sent } = capturing();
    // A guest may not delete in the room.
    const refused = await startBatchOperation(ctx, guest.id, room.id, "delete", { items: [fileIds[0]!, fileIds[1]!, mine.id] });
    await deliver(sent);
    const view = await getBatchOperation(ctx, guest.id, refused.id);
    expect(view).toMatchObject({ status: "completed", successCount: 0, failureCount: 3 });
    expect(view.errors.map((error) => error.itemId)).toEqual([fileIds[0], fileIds[1], mine.id]);
    expect(view.errors[2]!.message).toBe("This item does not exist or you don't have access to it.");
    expect(await countWhere("select count(*) as n from files where trashed_at is not null and space_id = ?", room.id)).toBe(0);
  });

  it("answers the spec's refusals for unsupported and invalid types, and needs a target to move", async () => {
    const { ctx } = capturing();
    await expect(startBatchOperation(ctx, owner.id, room.id, "ocr", { items: fileIds.slice(0, 1) })).rejects.toMatchObject({ status: 400, message: "Unsupported operation type" });
    await expect(startBatchOperation(ctx, owner.id, room.id, "rename", { items: fileIds.slice(0, 1) })).rejects.toMatchObject({ status: 400, message: "Invalid operation type: rename" });
    await expect(startBatchOperation(ctx, owner.id, room.id, "move", { items: fileIds.slice(0, 1) })).rejects.toMatchObject({ status: 400 });
    await expect(startBatchOperation(ctx, owner.id, room.id, "move", { items: [] })).rejects.toMatchObject({ status: 400 });
  });

  it("pauses only while processing, resumes only while paused (sending what is left), cancels unless completed; the consumer honours each between chunks", async () => {
    const { ctx, sent } = capturing();
    const operation = await startBatchOperation(ctx, owner.id, room.id, "move", { items: fileIds, targetFolderId: room.rootFolderId });
    await expect(pauseBatchOperation(ctx, owner.id, operation.id)).rejects.toMatchObject({ status: 409, message: "Only a running operation can be paused." });
    await deliver([sent[0]!]);
    expect((await pauseBatchOperation(ctx, owner.id, operation.id)).status).toBe("paused");
    await deliver([sent[1]!]);
    expect((await getBatchOperation(ctx, owner.id, operation.id)).processedItems).toBe(100);
    await expect(pauseBatchOperation(ctx, owner.id, operation.id)).rejects.toMatchObject({ status: 409 });
    const before = sent.length;
    expect((await resumeBatchOperation(ctx, owner.id, operation.id)).status).toBe("pending");
    expect(sent.slice(before).map((message) => message.body.payload.chunk)).toEqual([1, 2]);
    await expect(resumeBatchOperation(ctx, owner.id, operation.id)).rejects.toMatchObject({ status: 409, message: "Only a paused operation can be resumed." });
    await deliver([sent[before]!]);
    expect((await cancelBatchOperation(ctx, owner.id, operation.id)).status).toBe("cancelled");
    await deliver([sent[before + 1]!]);
    expect(await getBatchOperation(ctx, owner.id, operation.id)).toMatchObject({ status: "cancelled", processedItems: 200, lastError: "Operation cancelled" });

    const done = capturing();
    const small = await startBatchOperation(done.ctx, owner.id, room.id, "move", { items: fileIds.slice(0, 2), targetFolderId: room.rootFolderId });
    await deliver(done.sent);
    await expect(cancelBatchOperation(done.ctx, owner.id, small.id)).rejects.toMatchObject({ status: 409, message: "A completed operation cannot be cancelled." });
  });

  it("limits how many operations a member starts in a minute (429 with the wait), before anything is recorded", async () => {
    const busy = await signedIn({ name: "Busy Bee" });
    await addDataroomMember(room.id, busy.id, "admin");
    for (let index = 0; index < BATCH_OPERATIONS_PER_MINUTE; index++) await consumeAttempt(testEnv, "batch", { account: busy.id }, { limit: BATCH_OPERATIONS_PER_MINUTE, windowMs: 60_000 });
    const { ctx, sent } = capturing();
    const before = await countWhere("select count(*) as n from jobs where user_id = ?", busy.id);
    await expect(startBatchOperation(ctx, busy.id, room.id, "delete", { items: fileIds.slice(0, 1) })).rejects.toMatchObject({ status: 429, message: `You started ${BATCH_OPERATIONS_PER_MINUTE} batch operations in the last minute, the most at a time. Please wait 1 minute and try again.` });
    expect(sent).toEqual([]);
    expect(await countWhere("select count(*) as n from jobs where user_id = ?", busy.id)).toBe(before);
  });

  it("answers anonymous 401, an outsider 404 for the room and 'Operation not found' for someone else's operation, and 202 to the member", async () => {
    const outsider = await signedIn();
    const body = { items: fileIds.slice(0, 1), targetFolderId: room.rootFolderId };
    expect((await send(await newAuthClient(), "POST", `/dataroom/${room.id}/batch/move`, body)).status).toBe(401);
    expect((await send(outsider.client, "POST", `/dataroom/${room.id}/batch/move`, body)).status).toBe(404);
    const accepted = await send(owner.client, "POST", `/dataroom/${room.id}/batch/move`, body);
    expect(accepted.status).toBe(202);
    const { operation } = await accepted.json<{ operation: { id: string; status: string } }>();
    const theirs = await get(`/api/batch-operations/${operation.id}`, outsider.client);
    expect(theirs.status).toBe(404);
    expect((await theirs.json<{ message: string }>()).message).toBe("Operation not found");
    expect((await get(`/api/batch-operations/${operation.id}`, owner.client)).status).toBe(200);
    expect((await send(outsider.client, "POST", `/api/batch-operations/${operation.id}/cancel`)).status).toBe(404);
  });
});
