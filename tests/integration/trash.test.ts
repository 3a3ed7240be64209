import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { TRASH_RETENTION_MS } from "~/features/files/files.constants";
import { purgeTrashJob } from "~/features/files/trash.jobs";
import { deleteItems, drainR2Deletions, listTrash, purgeExpiredRows, purgeTrash, restoreItems, restoredName } from "~/features/files/trash.server";
import { addSpaceMember, createFile, personalSpaceOf, testContext, makeFolder } from "~tests/factories/files";
import { createUser } from "~tests/factories/users";
import worker from "~workers/app";
import { insertJobRow, jobStatus, loginJson, newAuthClient, origin, postJson, testEnv, type AuthClient, type ErrorBody } from "./helpers";

const DAY = 24 * 60 * 60 * 1000;

type Member = { id: string; client: AuthClient; spaceId: string; rootId: string; inboxId: string; outboxId: string };

async function signedInMember(): Promise<Member> {
  const user = await createUser();
  const { response, client } = await loginJson(user.email, user.password);
  expect(response.status).toBe(200);
  return { id: user.id, client, ...(await personalSpaceOf(user.id)) };
}

type FileState = { id: string; name: string; folderId: string; trashedAt: number | null; trashRootId: string | null; originalPath: string | null };
type FolderState = { id: string; label: string; parentId: string | null; trashedAt: number | null; trashRootId: string | null };

async function fileRow(id: string) {
  return testEnv.DB.prepare(
    "select id, name, folder_id as folderId, trashed_at as trashedAt, trash_root_id as trashRootId, original_path as originalPath from files where id = ?",
  )
    .bind(id)
    .first<FileState>();
}

async function folderRow(id: string) {
  return testEnv.DB.prepare("select id, label, parent_id as parentId, trashed_at as trashedAt, trash_root_id as trashRootId from folders where id = ?")
    .bind(id)
    .first<FolderState>();
}

async function liveChildFolders(parentId: string) {
  const { results } = await testEnv.DB.prepare("select id, label from folders where parent_id = ? and trashed_at is null order by label")
    .bind(parentId)
    .all<{ id: string; label: string }>();
  return results;
}

async function objectExists(key: string): Promise<boolean> {
  return (await testEnv.FILES.head(key)) !== null;
}

async function pendingDeletion(key: string): Promise<boolean> {
  return (await testEnv.DB.prepare("select 1 as x from r2_deletions where key = ?").bind(key).first()) !== null;
}

/** Everything a space holds in D1 and R2, to prove that a refused request changed nothing. */
async function snapshot(spaceId: string) {
  const files = await testEnv.DB.prepare("select * from files where space_id = ? order by id").bind(spaceId).all();
  const folders = await testEnv.DB.prepare("select * from folders where space_id = ? order by id").bind(spaceId).all();
  const favorites = await testEnv.DB.prepare("select * from favorites order by item_id").all();
  const pending = await testEnv.DB.prepare("select * from r2_deletions order by key").all();
  const objects = await testEnv.FILES.list({ prefix: `files/${spaceId}/` });
  return {
    files: files.results,
    folders: folders.results,
    favorites: favorites.results,
    pending: pending.results,
    objects: objects.objects.map((object) => object.key).sort(),
  };
}

async function folderFileNames(client: AuthClient, folderId: string): Promise<string[]> {
  const response = await exports.default.fetch(`${origin}/api/folders/${folderId}`, { headers: { accept: "application/json", cookie: client.jar.header() } });
  expect(response.status).toBe(200);
  const body = await response.json<{ files: { name: string }[] }>();
  return body.files.map((file) => file.name);
}

async function folderLabels(client: AuthClient, folderId: string): Promise<string[]> {
  const response = await exports.default.fetch(`${origin}/api/folders/${folderId}`, { headers: { accept: "application/json", cookie: client.jar.header() } });
  expect(response.status).toBe(200);
  const body = await response.json<{ folders: { label: string }[] }>();
  return body.folders.map((folder) => folder.label);
}

const del = (client: AuthClient, body: unknown) => postJson(client, "/api/items/delete", body);
const restore = (client: AuthClient, body: unknown) => postJson(client, "/api/items/restore", body);
const file = (id: string) => ({ type: "file" as const, id });
const folder = (id: string) => ({ type: "folder" as const, id });

describe("moving items to the trash and restoring them", () => {
  let owner: Member;
  beforeAll(async () => {
    owner = await signedInMember();
  });

  it("a trashed file is gone from its folder, listed in the trash with its original path, and its object is kept", async () => {
    const reports = await makeFolder(owner.spaceId, owner.rootId, "Reports");
    const year = await makeFolder(owner.spaceId, reports, "2026");
    const report = await createFile({ spaceId: owner.spaceId, folderId: year, name: "q1.pdf", content: "quarter one" });

    const response = await del(owner.client, { items: [file(report.id)] });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: 1, permanent: false });
    expect(response.headers.get("cache-control")).toBe("no-store");

    expect(await folderFileNames(owner.client, year)).toEqual([]);
    const row = await fileRow(report.id);
    expect(row).toMatchObject({ folderId: year, trashRootId: report.id });
    expect(JSON.parse(row!.originalPath!)).toEqual(["Reports", "2026"]);
    expect(await objectExists(report.r2Key)).toBe(true);

    const trash = await listTrash(testContext(), owner.id, {});
    const entry = trash.items.find((item) => item.id === report.id);
    expect(entry).toMatchObject({ type: "file", name: "q1.pdf", location: ["My files", "Reports", "2026"], daysLeft: 30 });

    // Restoring puts it back where it was, under its own name.
    const restored = await restore(owner.client, { items: [file(report.id)] });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toEqual({ restored: 1, items: [{ type: "file", id: report.id, name: "q1.pdf", parentId: year }] });
    expect(await folderFileNames(owner.client, year)).toEqual(["q1.pdf"]);
    expect(await fileRow(report.id)).toMatchObject({ trashedAt: null, trashRootId: null, originalPath: null });
    expect((await listTrash(testContext(), owner.id, {})).items.some((item) => item.id === report.id)).toBe(false);
  });

  it("a trashed folder takes its files and subfolders with it, is the only trash entry, and brings them all back", async () => {
    const project = await makeFolder(owner.spaceId, owner.rootId, "Project");
    const drafts = await makeFolder(owner.spaceId, project, "Drafts");
    const plan = await createFile({ spaceId: owner.spaceId, folderId: project, name: "plan.txt" });
    const draft = await createFile({ spaceId: owner.spaceId, folderId: drafts, name: "draft.txt" });

    // Selecting a folder and a file inside it: the file simply goes with its folder.
    const response = await del(owner.client, { items: [folder(project), file(draft.id)] });
    expect(response.status).toBe(200);

    expect(await folderLabels(owner.client, owner.rootId)).not.toContain("Project");
    for (const id of [plan.id, draft.id]) expect(await fileRow(id)).toMatchObject({ trashRootId: project });
    expect(await folderRow(drafts)).toMatchObject({ trashRootId: project, parentId: project });
    const trash = await listTrash(testContext(), owner.id, {});
    const ids = trash.items.map((item) => item.id);
    expect(ids).toContain(project);
    expect(ids).not.toContain(drafts);
    expect(ids).not.toContain(plan.id);
    expect(ids).not.toContain(draft.id);

    // What went with the folder cannot be restored on its own.
    const alone = await restore(owner.client, { items: [file(draft.id)] });
    expect(alone.status).toBe(409);
    expect((await alone.json<ErrorBody>()).message).toBe("“draft.txt” was deleted together with its folder. Restore or delete that folder instead.");

    expect((await restore(owner.client, { items: [folder(project)] })).status).toBe(200);
    expect(await folderLabels(owner.client, owner.rootId)).toContain("Project");
    expect(await folderLabels(owner.client, project)).toEqual(["Drafts"]);
    expect(await folderFileNames(owner.client, project)).toEqual(["plan.txt"]);
    expect(await folderFileNames(owner.client, drafts)).toEqual(["draft.txt"]);
  });

  it("a file deleted on its own before its folder keeps its own trash entry", async () => {
    const box = await makeFolder(owner.spaceId, owner.rootId, "Box");
    const first = await createFile({ spaceId: owner.spaceId, folderId: box, name: "first.txt" });
    expect((await del(owner.client, { items: [file(first.id)] })).status).toBe(200);
    expect((await del(owner.client, { items: [folder(box)] })).status).toBe(200);
    expect(await fileRow(first.id)).toMatchObject({ trashRootId: first.id });
    const ids = (await listTrash(testContext(), owner.id, {})).items.map((item) => item.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, box]));
  });

  it("restoring a file whose folder is in the trash recreates the folder path; the folder itself comes back renamed", async () => {
    const clients = await makeFolder(owner.spaceId, owner.rootId, "Clients");
    const acme = await makeFolder(owner.spaceId, clients, "Acme");
    const contract = await createFile({ spaceId: owner.spaceId, folderId: acme, name: "contract.pdf" });
    expect((await del(owner.client, { items: [file(contract.id)] })).status).toBe(200);
    expect((await del(owner.client, { items: [folder(clients)] })).status).toBe(200);

    const response = await restore(owner.client, { items: [file(contract.id)] });
    expect(response.status).toBe(200);
    const [restored] = (await response.json<{ items: { parentId: string; name: string }[] }>()).items;
    const newClients = (await liveChildFolders(owner.rootId)).find((entry) => entry.label === "Clients");
    expect(newClients).toBeDefined();
    expect(newClients!.id).not.toBe(clients);
    const [newAcme] = await liveChildFolders(newClients!.id);
    expect(newAcme).toMatchObject({ label: "Acme" });
    expect(restored).toEqual({ type: "file", id: contract.id, name: "contract.pdf", parentId: newAcme!.id });
    expect(await folderFileNames(owner.client, newAcme!.id)).toEqual(["contract.pdf"]);

    // The original folder, restored later, meets the recreated one and gets " (restored)".
    const again = await restore(owner.client, { items: [folder(clients)] });
    expect(again.status).toBe(200);
    expect((await folderRow(clients))!.label).toBe("Clients (restored)");
    expect(await folderRow(acme)).toMatchObject({ parentId: clients, trashedAt: null });
  });

  it("restoring a file whose folder was deleted for good recreates the folder path from the space root", async () => {
    const archive = await makeFolder(owner.spaceId, owner.rootId, "Archive");
    const old = await makeFolder(owner.spaceId, archive, "2019");
    const ledger = await createFile({ spaceId: owner.spaceId, folderId: old, name: "ledger.csv" });
    expect((await del(owner.client, { items: [file(ledger.id)] })).status).toBe(200);
    expect((await del(owner.client, { items: [folder(archive)], permanent: true })).status).toBe(200);
    expect(await folderRow(archive)).toBeNull();
    expect(await folderRow(old)).toBeNull();

    const response = await restore(owner.client, { items: [file(ledger.id)] });
    expect(response.status).toBe(200);
    const recreated = (await liveChildFolders(owner.rootId)).find((entry) => entry.label === "Archive");
    expect(recreated).toBeDefined();
    const [year] = await liveChildFolders(recreated!.id);
    expect(year).toMatchObject({ label: "2019" });
    expect(await fileRow(ledger.id)).toMatchObject({ folderId: year!.id, trashedAt: null });
  });

  it("a name already taken in the original folder gets ' (restored)' before the extension, then a number", async () => {
    const notes = await makeFolder(owner.spaceId, owner.rootId, "Notes");
    const first = await createFile({ spaceId: owner.spaceId, folderId: notes, name: "todo.txt" });
    expect((await del(owner.client, { items: [file(first.id)] })).status).toBe(200);
    const second = await createFile({ spaceId: owner.spaceId, folderId: notes, name: "todo.txt" });
    expect((await del(owner.client, { items: [file(second.id)] })).status).toBe(200);
    await createFile({ spaceId: owner.spaceId, folderId: notes, name: "todo.txt" });

    const response = await restore(owner.client, { items: [file(first.id), file(second.id)] });
    expect(response.status).toBe(200);
    expect((await folderFileNames(owner.client, notes)).sort()).toEqual(["todo (restored 2).txt", "todo (restored).txt", "todo.txt"]);
    expect(restoredName("Reports", "folder", 1)).toBe("Reports (restored)");
    expect(restoredName(".env", "file", 1)).toBe(".env (restored)");
    expect(restoredName("x".repeat(255), "file", 1)).toHaveLength(255);
  });

  it("the root, the Inbox and the Outbox cannot be deleted, and nothing changes", async () => {
    const loose = await createFile({ spaceId: owner.spaceId, folderId: owner.inboxId, name: "loose.txt" });
    const before = await snapshot(owner.spaceId);
    for (const id of [owner.inboxId, owner.outboxId, owner.rootId]) {
      for (const permanent of [false, true]) {
        const response = await del(owner.client, { items: [file(loose.id), folder(id)], permanent });
        expect(response.status).toBe(403);
        expect((await response.json<ErrorBody>()).message).toBe("The Inbox, the Outbox and the top folder of a space cannot be deleted.");
      }
    }
    expect(await snapshot(owner.spaceId)).toEqual(before);
  });

  it("items already in the trash are only deleted for good, and live items cannot be 'restored'", async () => {
    const stray = await createFile({ spaceId: owner.spaceId, folderId: owner.rootId, name: "stray.txt" });
    const notTrashed = await restore(owner.client, { items: [file(stray.id)] });
    expect(notTrashed.status).toBe(409);
    expect((await notTrashed.json<ErrorBody>()).message).toBe("“stray.txt” is not in the trash.");
    expect((await del(owner.client, { items: [file(stray.id)] })).status).toBe(200);
    const twice = await del(owner.client, { items: [file(stray.id)] });
    expect(twice.status).toBe(409);
    expect((await twice.json<ErrorBody>()).message).toBe("“stray.txt” is already in the trash.");
  });
});

describe("the trash list", () => {
  it("shows the newest first, 100 a page, across files and folders, without gaps or repeats", async () => {
    const member = await signedInMember();
    const base = Date.now() - DAY;
    const made: string[] = [];
    for (let batch = 0; batch < 3; batch++) {
      const items: { type: "file" | "folder"; id: string }[] = [];
      for (let index = 0; index < 40; index++) {
        const row = await createFile({ spaceId: member.spaceId, folderId: member.rootId, name: `f-${batch}-${index}.txt` });
        items.push(file(row.id));
      }
      const box = await makeFolder(member.spaceId, member.rootId, `Box ${batch}`);
      items.push(folder(box));
      // Each call trashes its items at one instant: ties on trashed_at are ordered by id.
      await deleteItems(testContext(() => new Date(base + batch * 1000)), member.id, { items });
      made.push(...items.map((item) => item.id));
    }

    const first = await listTrash(testContext(), member.id, {});
    expect(first.items).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listTrash(testContext(), member.id, { cursor: first.nextCursor });
    expect(second.items).toHaveLength(23);
    expect(second.nextCursor).toBeNull();

    const all = [...first.items, ...second.items];
    expect(new Set(all.map((item) => item.id))).toEqual(new Set(made));
    for (let index = 1; index < all.length; index++) {
      const [previous, current] = [all[index - 1]!, all[index]!];
      expect(previous.trashedAt > current.trashedAt || (previous.trashedAt === current.trashedAt && previous.id > current.id)).toBe(true);
    }
    expect(all[0]!.trashedAt).toBe(base + 2000);
    expect(all.filter((item) => item.type === "folder")).toHaveLength(3);
    // A malformed cursor starts from the first page rather than failing.
    expect((await listTrash(testContext(), member.id, { cursor: "%%%" })).items[0]!.id).toBe(first.items[0]!.id);
  });
});

describe("deleting for good", () => {
  let owner: Member;
  beforeAll(async () => {
    owner = await signedInMember();
  });

  async function fileWithExtras(folderId: string, name: string) {
    const made = await createFile({ spaceId: owner.spaceId, folderId, name });
    const versionKey = `files/${owner.spaceId}/${crypto.randomUUID()}`;
    await testEnv.FILES.put(versionKey, "older content");
    const now = Date.now();
    await testEnv.DB.batch([
      testEnv.DB.prepare("insert into file_versions (id, file_id, space_id, version, r2_key, size, content_type, created_at) values (?, ?, ?, 1, ?, 13, 'text/plain', ?)").bind(
        crypto.randomUUID(),
        made.id,
        owner.spaceId,
        versionKey,
        now,
      ),
      testEnv.DB.prepare("insert into file_tags (file_id, space_id, tag, created_at) values (?, ?, 'urgent', ?)").bind(made.id, owner.spaceId, now),
      testEnv.DB.prepare("insert into file_metadata (file_id, key, value, updated_at) values (?, 'client', 'Acme', ?)").bind(made.id, now),
      testEnv.DB.prepare("insert into favorites (user_id, item_type, item_id, created_at) values (?, 'file', ?, ?)").bind(owner.id, made.id, now),
    ]);
    return { ...made, versionKey };
  }

  async function rowsFor(fileId: string) {
    const count = async (table: string, column: string) =>
      (await testEnv.DB.prepare(`select count(*) as n from ${table} where ${column} = ?`).bind(fileId).first<{ n: number }>())!.n;
    return {
      files: await count("files", "id"),
      versions: await count("file_versions", "file_id"),
      tags: await count("file_tags", "file_id"),
      metadata: await count("file_metadata", "file_id"),
      favorites: await count("favorites", "item_id"),
    };
  }

  it("from the trash removes the rows (with versions, tags, metadata, favorites) and then the objects", async () => {
    const doomed = await fileWithExtras(owner.rootId, "doomed.txt");
    expect((await del(owner.client, { items: [file(doomed.id)] })).status).toBe(200);
    expect(await rowsFor(doomed.id)).toEqual({ files: 1, versions: 1, tags: 1, metadata: 1, favorites: 1 });

    const response = await del(owner.client, { items: [file(doomed.id)], permanent: true });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: 1, permanent: true });
    expect(await rowsFor(doomed.id)).toEqual({ files: 0, versions: 0, tags: 0, metadata: 0, favorites: 0 });
    for (const key of [doomed.r2Key, doomed.versionKey]) {
      expect(await objectExists(key)).toBe(false);
      expect(await pendingDeletion(key)).toBe(false);
    }
  });

  it("straight from a folder deletes a whole live tree with the box ticked, favorites of folders included", async () => {
    const tree = await makeFolder(owner.spaceId, owner.rootId, "Tree");
    const branch = await makeFolder(owner.spaceId, tree, "Branch");
    const leaf = await fileWithExtras(branch, "leaf.txt");
    await testEnv.DB.prepare("insert into favorites (user_id, item_type, item_id, created_at) values (?, 'folder', ?, ?)").bind(owner.id, branch, Date.now()).run();

    expect((await del(owner.client, { items: [folder(tree)], permanent: true })).status).toBe(200);
    expect(await folderRow(tree)).toBeNull();
    expect(await folderRow(branch)).toBeNull();
    expect(await rowsFor(leaf.id)).toEqual({ files: 0, versions: 0, tags: 0, metadata: 0, favorites: 0 });
    expect(await testEnv.DB.prepare("select count(*) as n from favorites where item_id = ?").bind(branch).first<{ n: number }>()).toEqual({ n: 0 });
    expect(await objectExists(leaf.r2Key)).toBe(false);
    expect(await objectExists(leaf.versionKey)).toBe(false);
    expect((await listTrash(testContext(), owner.id, {})).items.some((item) => item.id === tree)).toBe(false);
  });
});

describe("the 30-day purge", () => {
  let owner: Member;
  beforeAll(async () => {
    owner = await signedInMember();
  });

  /** A folder with two files and a lone file, trashed at `at` (a controlled clock). */
  async function trashedAt(at: number) {
    const box = await makeFolder(owner.spaceId, owner.rootId, `Old ${at}`);
    const inside = await createFile({ spaceId: owner.spaceId, folderId: box, name: "inside.txt" });
    const also = await createFile({ spaceId: owner.spaceId, folderId: box, name: "also.txt" });
    const lone = await createFile({ spaceId: owner.spaceId, folderId: owner.rootId, name: `lone-${at}.txt` });
    await deleteItems(testContext(() => new Date(at)), owner.id, { items: [folder(box), file(lone.id)] });
    return { box, files: [inside, also, lone] };
  }

  const at = (ms: number) => testContext(() => new Date(ms));

  it("keeps items for 29 days and removes them after 30: D1 rows first, then the R2 objects", async () => {
    const t0 = Date.now() - 200 * DAY;
    const { box, files } = await trashedAt(t0);

    expect(await purgeTrash(at(t0 + 29 * DAY))).toMatchObject({ groups: 0 });
    expect(await folderRow(box)).not.toBeNull();
    for (const made of files) {
      expect(await fileRow(made.id)).not.toBeNull();
      expect(await objectExists(made.r2Key)).toBe(true);
    }
    expect((await listTrash(at(t0 + 29 * DAY), owner.id, {})).items.find((item) => item.id === box)?.daysLeft).toBe(1);

    // Step 1 alone (as if the Worker stopped right after the D1 batch): rows gone, objects still there, owed in r2_deletions.
    const rows = await purgeExpiredRows(at(t0 + TRASH_RETENTION_MS + 60_000));
    expect(rows).toEqual({ groups: 2, keys: 3 });
    expect(await folderRow(box)).toBeNull();
    for (const made of files) {
      expect(await fileRow(made.id)).toBeNull();
      expect(await objectExists(made.r2Key)).toBe(true);
      expect(await pendingDeletion(made.r2Key)).toBe(true);
    }

    // The next run finishes the job from r2_deletions.
    const drained = await purgeTrash(at(t0 + TRASH_RETENTION_MS + 120_000));
    expect(drained.groups).toBe(0);
    expect(drained.objects).toBeGreaterThanOrEqual(3);
    for (const made of files) {
      expect(await objectExists(made.r2Key)).toBe(false);
      expect(await pendingDeletion(made.r2Key)).toBe(false);
    }
  });

  it("running the purge twice is harmless: the second run finds nothing and changes nothing", async () => {
    const t0 = Date.now() - 150 * DAY;
    const { files } = await trashedAt(t0);
    const keeper = await createFile({ spaceId: owner.spaceId, folderId: owner.rootId, name: "keeper.txt" });
    const ctx = at(t0 + 31 * DAY);

    const first = await purgeTrash(ctx);
    expect(first.groups).toBeGreaterThanOrEqual(2);
    const after = await snapshot(owner.spaceId);
    const second = await purgeTrash(ctx);
    expect(second).toMatchObject({ groups: 0, objects: 0 });
    expect(await snapshot(owner.spaceId)).toEqual(after);
    for (const made of files) expect(await objectExists(made.r2Key)).toBe(false);
    expect(await objectExists(keeper.r2Key)).toBe(true);
    expect(await fileRow(keeper.id)).not.toBeNull();
  });

  it("never deletes an object that a live file still uses, even if it is recorded as owed", async () => {
    const live = await createFile({ spaceId: owner.spaceId, folderId: owner.rootId, name: "live.txt" });
    await testEnv.DB.prepare("insert into r2_deletions (key, created_at) values (?, ?)").bind(live.r2Key, Date.now()).run();
    await drainR2Deletions(testContext());
    expect(await objectExists(live.r2Key)).toBe(true);
    expect(await pendingDeletion(live.r2Key)).toBe(false);
  });

  it("the files.purge-trash job purges expired trash, and the same message delivered twice gives the same rows and keys", async () => {
    const t0 = Date.now() - 45 * DAY;
    const { box, files } = await trashedAt(t0);
    const jobId = `purge-${crypto.randomUUID()}`;
    const now = Date.now();
    await insertJobRow({ id: jobId, type: purgeTrashJob.type, status: "pending", createdAt: now, updatedAt: now });
    const message = { jobId, type: purgeTrashJob.type, version: purgeTrashJob.version, payload: {} };

    const deliver = async () => {
      const batch = createMessageBatch("batch-jobs", [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: message }]);
      const ctx = createExecutionContext();
      await worker.queue(batch, testEnv, ctx);
      await waitOnExecutionContext(ctx);
      return getQueueResult(batch, ctx);
    };
    expect((await deliver()).explicitAcks).toHaveLength(1);
    expect(await jobStatus(jobId)).toMatchObject({ status: "completed" });
    const after = await snapshot(owner.spaceId);
    expect(await folderRow(box)).toBeNull();
    for (const made of files) expect(await objectExists(made.r2Key)).toBe(false);

    expect((await deliver()).explicitAcks).toHaveLength(1);
    expect(await snapshot(owner.spaceId)).toEqual(after);
  });
});

describe("who may delete and restore", () => {
  let owner: Member;
  let outsider: Member;
  let viewer: Member;
  let target: { id: string; r2Key: string };
  beforeAll(async () => {
    owner = await signedInMember();
    outsider = await signedInMember();
    viewer = await signedInMember();
    await addSpaceMember(owner.spaceId, viewer.id, "viewer");
    target = await createFile({ spaceId: owner.spaceId, folderId: owner.rootId, name: "target.txt" });
  });

  for (const path of ["/api/items/delete", "/api/items/restore"]) {
    it(`${path}: anonymous gets 401, an outsider 404, a viewer 403, and none of them changes D1 or R2`, async () => {
      if (path.endsWith("restore")) await deleteItems(testContext(), owner.id, { items: [file(target.id)] });
      const body = { items: [file(target.id)], permanent: true };
      const before = await snapshot(owner.spaceId);

      const anonymous = await postJson(await newAuthClient(), path, body);
      expect(anonymous.status).toBe(401);

      const foreign = await postJson(outsider.client, path, body);
      expect(foreign.status).toBe(404);
      expect((await foreign.json<ErrorBody>()).message).toBe("This file does not exist or you don't have access to it.");

      // A request mixing the outsider's own item with someone else's is refused whole.
      const own = await createFile({ spaceId: outsider.spaceId, folderId: outsider.rootId, name: "own.txt" });
      if (path.endsWith("restore")) await deleteItems(testContext(), outsider.id, { items: [file(own.id)] });
      const ownBefore = await snapshot(outsider.spaceId);
      expect((await postJson(outsider.client, path, { items: [file(own.id), file(target.id)] })).status).toBe(404);
      expect(await snapshot(outsider.spaceId)).toEqual(ownBefore);

      const readOnly = await postJson(viewer.client, path, body);
      expect(readOnly.status).toBe(403);
      expect((await readOnly.json<ErrorBody>()).message).toBe("You don't have permission to delete these files and folders.");

      expect(await snapshot(owner.spaceId)).toEqual(before);
    });
  }

  it("the owner may delete and restore (200), and a viewer does not see the owner's trash", async () => {
    const mine = await createFile({ spaceId: owner.spaceId, folderId: owner.rootId, name: "mine.txt" });
    expect((await del(owner.client, { items: [file(mine.id)] })).status).toBe(200);
    expect((await listTrash(testContext(), viewer.id, {})).items.some((item) => item.id === mine.id)).toBe(false);
    expect((await listTrash(testContext(), outsider.id, {})).items.some((item) => item.id === mine.id)).toBe(false);
    expect((await restore(owner.client, { items: [file(mine.id)] })).status).toBe(200);
  });

  it("an editor of the space may delete, and sees what they deleted in their trash", async () => {
    const editor = await signedInMember();
    await addSpaceMember(owner.spaceId, editor.id, "editor");
    const shared = await createFile({ spaceId: owner.spaceId, folderId: owner.rootId, name: "shared.txt" });
    expect((await del(editor.client, { items: [file(shared.id)] })).status).toBe(200);
    const trash = await listTrash(testContext(), editor.id, {});
    expect(trash.items.find((item) => item.id === shared.id)).toMatchObject({ location: ["My files"] });
  });
});

describe("bad requests", () => {
  let owner: Member;
  let some: { id: string };
  beforeAll(async () => {
    owner = await signedInMember();
    some = await createFile({ spaceId: owner.spaceId, folderId: owner.rootId, name: "some.txt" });
  });

  const cases: [string, unknown, string][] = [
    ["a body that is not JSON", "{not json", "The request body must be JSON."],
    ["a body without items", {}, "items: items must be a list of { type, id }."],
    ["an empty list", { items: [] }, "items: Choose at least one item."],
    ["an unknown type", { items: [{ type: "drive", id: crypto.randomUUID() }] }, 'items.0.type: type must be "file" or "folder".'],
    ["an id that is not a UUID", { items: [{ type: "file", id: "../../etc/passwd" }] }, "items.0.id: That is not a valid id."],
    ["an item that is not an object", { items: ["file"] }, "items.0: Each item must be an object with a type and an id."],
    ["101 items", { items: Array.from({ length: 101 }, () => ({ type: "file", id: crypto.randomUUID() })) }, "items: At most 100 items can be changed at a time."],
    ["permanent that is not a boolean", { items: [{ type: "file", id: crypto.randomUUID() }], permanent: "yes" }, "permanent: permanent must be true or false."],
    ["a list instead of an object", [1, 2], "The request body must be an object with items."],
  ];

  for (const [what, body, message] of cases) {
    it(`${what} gets 400 with a clear message and changes nothing`, async () => {
      const before = await snapshot(owner.spaceId);
      for (const path of ["/api/items/delete", "/api/items/restore"]) {
        if (path.endsWith("restore") && what.startsWith("permanent")) continue;
        const response = await postJson(owner.client, path, body);
        expect(response.status, path).toBe(400);
        expect((await response.json<ErrorBody>()).message).toBe(message);
      }
      expect(await snapshot(owner.spaceId)).toEqual(before);
      expect(await fileRow(some.id)).toMatchObject({ trashedAt: null });
    });
  }

  it("an unknown id is a 404 for the whole call", async () => {
    const response = await del(owner.client, { items: [file(some.id), folder(crypto.randomUUID())] });
    expect(response.status).toBe(404);
    expect((await response.json<ErrorBody>()).message).toBe("This folder does not exist or you don't have access to it.");
    expect(await fileRow(some.id)).toMatchObject({ trashedAt: null });
  });

  it("restoring through the service without a member's role is refused the same way", async () => {
    await expect(restoreItems(testContext(), crypto.randomUUID(), { items: [file(some.id)] })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
