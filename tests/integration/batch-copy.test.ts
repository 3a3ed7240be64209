import { beforeAll, describe, expect, it } from "vitest";
import { getBatchOperation, runBatchChunks, startBatchOperation } from "~/features/batch/batch.server";
import { readStoredObject } from "~/features/files/encryption.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { createFile, makeFolder, personalSpaceOf, testContext } from "~tests/factories/files";
import { capturing, deliver } from "./batch-helpers";
import { countWhere, createRoom, signedIn, type Person } from "./dataroom-helpers";
import { testEnv } from "./helpers";

/**
 * Batch copy, archive and permanent-delete (issue 22): copies are new files with their own R2
 * objects, folders with everything below them; delivering every message twice after a run that
 * crashed between writing objects and rows ends with the same rows and R2 keys as a clean run;
 * archive moves items into the space's "Archive" folder.
 */

type Row = { path: string; size: number | null; content: string | null };

/** What is below a folder, as paths, sizes and (for files) content read through the app's own storage. */
async function treeBelow(folderId: string): Promise<Row[]> {
  const { results } = await testEnv.DB.prepare(
    `with recursive tree(id, path) as (
       select id, label from folders where parent_id = ? and trashed_at is null
       union all select f.id, tree.path || '/' || f.label from folders f join tree on f.parent_id = tree.id where f.trashed_at is null)
     select path, null as size, null as r2Key from tree
     union all select coalesce(tree.path || '/', '') || files.name, files.size, files.r2_key from files left join tree on files.folder_id = tree.id
       where (files.folder_id = ? or tree.id is not null) and files.trashed_at is null
     order by 1`,
  )
    .bind(folderId, folderId)
    .all<{ path: string; size: number | null; r2Key: string | null }>();
  const ctx = testContext();
  const rows: Row[] = [];
  for (const row of results) {
    const body = row.r2Key ? await readStoredObject(ctx, row.r2Key, row.size!) : null;
    rows.push({ path: row.path, size: row.size, content: body ? await new Response(body).text() : null });
  }
  return rows;
}

/** Every R2 key under a space's files, and every key its file rows name: the same set when nothing is left behind. */
async function keysOf(spaceId: string) {
  const listed: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await testEnv.FILES.list({ prefix: `files/${spaceId}/`, cursor });
    listed.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const { results } = await testEnv.DB.prepare("select r2_key as key from files where space_id = ?").bind(spaceId).all<{ key: string }>();
  return { listed: listed.sort(), rows: results.map((row) => row.key).sort() };
}

describe("batch copy, archive and permanent-delete", () => {
  let owner: Person;
  let viewer: Person;
  let room: { id: string; rootFolderId: string };
  let deals: string;
  let loose: string[];
  beforeAll(async () => {
    owner = await signedIn({ tier: "business", name: "Cora Copy" });
    viewer = await signedIn({ name: "Vic Viewer" });
    room = await createRoom(owner.client, "Copy room");
    await addDataroomMember(room.id, viewer.id, "guest");
    deals = await makeFolder(room.id, room.rootFolderId, "Deals");
    const q1 = await makeFolder(room.id, deals, "Q1");
    await createFile({ spaceId: room.id, folderId: deals, name: "terms.txt", content: "the terms" });
    await createFile({ spaceId: room.id, folderId: q1, name: "model.csv", content: "a,b\n1,2" });
    loose = [];
    for (let index = 0; index < 5; index++) loose.push((await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: `memo ${index}.txt`, content: `memo number ${index}` })).id);
  });

  it("copies files and a folder with everything below it into another folder, each copy with its own object, the originals untouched", async () => {
    const target = await makeFolder(room.id, room.rootFolderId, "Copies");
    const { ctx, sent } = capturing();
    const operation = await startBatchOperation(ctx, owner.id, room.id, "copy", { items: [...loose, deals], targetFolderId: target });
    expect(operation).toMatchObject({ type: "copy", totalItems: 6 });
    await deliver(sent);
    expect(await getBatchOperation(ctx, owner.id, operation.id)).toMatchObject({ status: "completed", successCount: 6, failureCount: 0 });
    expect(await treeBelow(target)).toEqual([
      { path: "Deals", size: null, content: null },
      { path: "Deals/Q1", size: null, content: null },
      { path: "Deals/Q1/model.csv", size: 7, content: "a,b\n1,2" },
      { path: "Deals/terms.txt", size: 9, content: "the terms" },
      ...loose.map((_, index) => ({ path: `memo ${index}.txt`, size: 13, content: `memo number ${index}` })),
    ]);
    expect((await treeBelow(deals)).map((row) => row.path)).toEqual(["Q1", "Q1/model.csv", "terms.txt"]);
    const keys = await keysOf(room.id);
    expect(keys.listed).toEqual(keys.rows);
    expect(new Set(keys.rows).size).toBe(keys.rows.length);
    // Copying again into the same folder keeps both: the new copies get " (2)".
    const again = capturing();
    await startBatchOperation(again.ctx, owner.id, room.id, "copy", { items: [loose[0]!, deals], targetFolderId: target });
    await deliver(again.sent);
    const paths = (await treeBelow(target)).map((row) => row.path);
    expect(paths).toContain("Deals (2)/Q1/model.csv");
    expect(paths).toContain("memo 0 (2).txt");
  });

  it("ends with the same rows and R2 keys as a clean run when a run crashes after writing objects and every message then arrives twice", async () => {
    const clean = await makeFolder(room.id, room.rootFolderId, "Clean run");
    const first = capturing();
    await startBatchOperation(first.ctx, owner.id, room.id, "copy", { items: [...loose, deals], targetFolderId: clean });
    await deliver([...first.sent, ...first.sent]);

    const faulty = await makeFolder(room.id, room.rootFolderId, "Faulty run");
    const second = capturing();
    const operation = await startBatchOperation(second.ctx, owner.id, room.id, "copy", { items: [...loose, deals], targetFolderId: faulty });
    // The consumer dies after its third object is written: no rows yet, and the message is retried.
    let puts = 0;
    const files = testEnv.FILES;
    const crashing = new Proxy(files, {
      get(bucket, key) {
        if (key === "put") {
          return async (...args: Parameters<R2Bucket["put"]>) => {
            if (++puts > 3) throw new Error("the Worker was evicted");
            return bucket.put(...args);
          };
        }
        const value = Reflect.get(bucket, key) as unknown;
        return typeof value === "function" ? value.bind(bucket) : value;
      },
    });
    await expect(runBatchChunks({ ...second.ctx, env: { ...second.ctx.env, FILES: crashing } }, second.sent.map((message) => message.body.payload))).rejects.toThrow("evicted");
    expect(puts).toBeGreaterThan(3);
    expect(await countWhere("select count(*) as n from files where folder_id = ?", faulty)).toBe(0);

    await deliver([...second.sent, ...second.sent], 2);
    expect(await getBatchOperation(second.ctx, owner.id, operation.id)).toMatchObject({ status: "completed", successCount: 6, failureCount: 0 });
    expect(await treeBelow(faulty)).toEqual(await treeBelow(clean));
    const keys = await keysOf(room.id);
    expect(keys.listed).toEqual(keys.rows);
  });

  it("refuses per item what the member may not copy: a guest may not upload, and a folder does not go into itself", async () => {
    const { ctx, sent } = capturing();
    const refused = await startBatchOperation(ctx, viewer.id, room.id, "copy", { items: loose.slice(0, 2), targetFolderId: room.rootFolderId });
    await deliver(sent);
    const view = await getBatchOperation(ctx, viewer.id, refused.id);
    expect(view).toMatchObject({ status: "completed", successCount: 0, failureCount: 2 });
    const before = await countWhere("select count(*) as n from files where space_id = ?", room.id);

    const inside = capturing();
    const q1 = await testEnv.DB.prepare("select id from folders where parent_id = ? and label = 'Q1'").bind(deals).first<{ id: string }>();
    const mixed = await startBatchOperation(inside.ctx, owner.id, room.id, "copy", { items: [deals, loose[1]!], targetFolderId: q1!.id });
    await deliver(inside.sent);
    const result = await getBatchOperation(inside.ctx, owner.id, mixed.id);
    expect(result).toMatchObject({ status: "completed", successCount: 1, failureCount: 1 });
    expect(result.errors).toEqual([{ itemId: deals, message: "“Deals” cannot be copied into itself or one of its own subfolders." }]);
    expect(await countWhere("select count(*) as n from files where space_id = ?", room.id)).toBe(before + 1);
  });

  it("deletes for good once however often the message arrives: the rows and their objects go, nothing else does", async () => {
    const doomed: { id: string; r2Key: string }[] = [];
    for (let index = 0; index < 4; index++) doomed.push(await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: `shred ${index}.txt`, content: `shred ${index}` }));
    const before = await keysOf(room.id);
    const { ctx, sent } = capturing();
    const operation = await startBatchOperation(ctx, owner.id, room.id, "permanent-delete", { items: doomed.map((file) => file.id) });
    await deliver([...sent, ...sent]);
    await deliver(sent, 2);
    expect(await getBatchOperation(ctx, owner.id, operation.id)).toMatchObject({ status: "completed", successCount: 4 });
    const after = await keysOf(room.id);
    const gone = new Set(doomed.map((file) => file.r2Key));
    expect(after.listed).toEqual(before.listed.filter((key) => !gone.has(key)));
    expect(after.rows).toEqual(after.listed);
  });

  it("archives items into the space's Archive folder, made at the top on first use and reused after", async () => {
    const member = await signedIn({ name: "Ari Archive" });
    const { spaceId, rootId, inboxId } = await personalSpaceOf(member.id);
    const mail = [];
    for (let index = 0; index < 3; index++) mail.push((await createFile({ spaceId, folderId: inboxId, name: `statement ${index}.pdf`, content: `statement ${index}` })).id);
    const first = capturing();
    const operation = await startBatchOperation(first.ctx, member.id, null, "archive", { items: mail.slice(0, 2) });
    const archive = await testEnv.DB.prepare("select id, parent_id as parentId from folders where space_id = ? and label = 'Archive'").bind(spaceId).first<{ id: string; parentId: string }>();
    expect(archive).toEqual({ id: operation.metadata.targetFolderId, parentId: rootId });
    await deliver(first.sent);
    expect(await countWhere("select count(*) as n from files where folder_id = ?", archive!.id)).toBe(2);

    const second = capturing();
    const again = await startBatchOperation(second.ctx, member.id, null, "archive", { items: mail });
    expect(again.metadata.targetFolderId).toBe(archive!.id);
    await deliver(second.sent);
    expect(await getBatchOperation(second.ctx, member.id, again.id)).toMatchObject({ status: "completed", successCount: 3, failureCount: 0 });
    expect(await countWhere("select count(*) as n from folders where space_id = ? and label = 'Archive'", spaceId)).toBe(1);
    expect(await countWhere("select count(*) as n from files where folder_id = ?", archive!.id)).toBe(3);
    expect(await countWhere("select count(*) as n from files where folder_id = ?", inboxId)).toBe(0);
  });
});
