import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ensurePersonalSpace } from "~/features/files/spaces.server";
import { addSpaceMember, createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { createUser } from "~tests/factories/users";
import { loginJson, origin, postJson, testEnv, type AuthClient } from "./helpers";

type FolderPageBody = {
  folder: { uid: string; label: string; kind: string; spaceId: string };
  role: string;
  crumbs: { uid: string; label: string; kind: string }[];
  folders: { uid: string; label: string }[];
  files: { id: string; name: string; size: number; type: string; createdAt: number }[];
  nextCursor: string | null;
};

async function member() {
  const user = await createUser();
  const { response, client } = await loginJson(user.email, user.password);
  expect(response.status).toBe(200);
  return { id: user.id, client, space: await personalSpaceOf(user.id) };
}

function get(path: string, client?: AuthClient) {
  return exports.default.fetch(`${origin}${path}`, { headers: { accept: "application/json", ...(client ? { cookie: client.jar.header() } : {}) } });
}

async function page(path: string, client: AuthClient): Promise<FolderPageBody> {
  const response = await get(path, client);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<FolderPageBody>();
}

async function newFolder(client: AuthClient, parentId: string, label: string) {
  const response = await postJson(client, "/api/folders", { parentId, label });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ folder: { uid: string } }>()).folder.uid;
}

describe("a folder page (GET /api/folders/:uid)", () => {
  let owner: Awaited<ReturnType<typeof member>>;
  let reports: string;
  beforeAll(async () => {
    owner = await member();
    reports = await newFolder(owner.client, owner.space.rootId, "Reports");
    await newFolder(owner.client, reports, "2026");
    for (let i = 0; i < 250; i++) {
      await createFile({ spaceId: owner.space.spaceId, folderId: reports, name: `doc-${String(i).padStart(3, "0")}.txt`, content: "x".repeat(i + 1), createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) });
    }
  });

  it("lists subfolders first and the breadcrumbs from the top of the space", async () => {
    const body = await page(`/api/folders/${reports}`, owner.client);
    expect(body.folder).toMatchObject({ uid: reports, label: "Reports", kind: "regular" });
    expect(body.role).toBe("owner");
    expect(body.crumbs.map((crumb) => crumb.kind)).toEqual(["root", "regular"]);
    expect(body.folders.map((folder) => folder.label)).toEqual(["2026"]);
    expect(body.files).toHaveLength(100);
  });

  it("walks 250 files in pages of 100 by name with a keyset cursor, without repeats or gaps", async () => {
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const body: FolderPageBody = await page(`/api/folders/${reports}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`, owner.client);
      names.push(...body.files.map((file) => file.name));
      cursor = body.nextCursor;
    } while (cursor);
    expect(names).toHaveLength(250);
    expect(new Set(names).size).toBe(250);
    expect(names).toEqual([...names].sort());
  });

  it("sorts by size descending and by date added, across pages", async () => {
    const first = await page(`/api/folders/${reports}?sort=size&dir=desc`, owner.client);
    expect(first.files[0]!.size).toBe(250);
    const second = await page(`/api/folders/${reports}?sort=size&dir=desc&cursor=${encodeURIComponent(first.nextCursor!)}`, owner.client);
    expect(second.files[0]!.size).toBe(150);
    const byDate = await page(`/api/folders/${reports}?sort=created&dir=asc`, owner.client);
    expect(byDate.files[0]!.name).toBe("doc-000.txt");
  });

  it("searches file and folder names across the space", async () => {
    const body = await page(`/api/folders/${owner.space.rootId}?q=doc-24`, owner.client);
    expect(body.files.map((file) => file.name)).toEqual(Array.from({ length: 10 }, (_, i) => `doc-24${i}.txt`));
    const folders = await page(`/api/folders/${owner.space.rootId}?q=202`, owner.client);
    expect(folders.folders.map((folder) => folder.label)).toEqual(["2026"]);
  });

  it("treats a malformed cursor as the first page and unknown sort values as the default", async () => {
    const body = await page(`/api/folders/${reports}?cursor=%%%garbage&sort=nonsense&dir=sideways`, owner.client);
    expect(body.files[0]!.name).toBe("doc-000.txt");
  });
});

describe("folder routes: who may see and create", () => {
  it("answers anonymous 401, an outsider 404, a viewer 200 (read) but 403 (create), the owner 200; refusals change nothing", async () => {
    const owner = await member();
    const outsider = await member();
    const viewer = await member();
    await addSpaceMember(owner.space.spaceId, viewer.id, "viewer");
    const path = `/api/folders/${owner.space.inboxId}`;

    expect((await get(path)).status).toBe(401);
    const outsiderResponse = await get(path, outsider.client);
    expect(outsiderResponse.status).toBe(404);
    expect((await outsiderResponse.json<{ message: string }>()).message).toBe("This folder does not exist or you don't have access to it.");
    expect((await get(path, viewer.client)).status).toBe(200);
    expect((await get(path, owner.client)).status).toBe(200);

    const before = await testEnv.DB.prepare("select count(*) as n from folders where space_id = ?").bind(owner.space.spaceId).first<{ n: number }>();
    expect((await postJson(outsider.client, "/api/folders", { parentId: owner.space.rootId, label: "Sneaky" })).status).toBe(404);
    expect((await postJson(viewer.client, "/api/folders", { parentId: owner.space.rootId, label: "Sneaky" })).status).toBe(403);
    const after = await testEnv.DB.prepare("select count(*) as n from folders where space_id = ?").bind(owner.space.spaceId).first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
    expect((await postJson(owner.client, "/api/folders", { parentId: owner.space.rootId, label: "Mine" })).status).toBe(201);
  });

  it("answers 404 for a folder id that does not exist or is not an id", async () => {
    const owner = await member();
    expect((await get(`/api/folders/${crypto.randomUUID()}`, owner.client)).status).toBe(404);
    expect((await get(`/api/folders/not-an-id`, owner.client)).status).toBe(404);
  });
});

describe("the global inbox", () => {
  it("lists the newest files of every inbox the member can open, across spaces", async () => {
    const ann = await member();
    const ben = await member();
    await addSpaceMember(ben.space.spaceId, ann.id, "viewer");
    await createFile({ spaceId: ann.space.spaceId, folderId: ann.space.inboxId, name: "from-ann.txt", createdAt: new Date(Date.UTC(2026, 1, 1)) });
    await createFile({ spaceId: ben.space.spaceId, folderId: ben.space.inboxId, name: "from-ben.txt", createdAt: new Date(Date.UTC(2026, 1, 2)) });
    await createFile({ spaceId: ben.space.spaceId, folderId: ben.space.outboxId, name: "ben-outbox.txt" });
    const response = await get("/api/folders/global/inbox", ann.client);
    expect(response.status).toBe(200);
    const body = await response.json<{ sources: unknown[]; files: { name: string }[] }>();
    expect(body.sources).toHaveLength(2);
    expect(body.files.map((file) => file.name)).toEqual(["from-ben.txt", "from-ann.txt"]);
    const benView = await (await get("/api/folders/global/inbox", ben.client)).json<{ files: { name: string }[] }>();
    expect(benView.files.map((file) => file.name)).toEqual(["from-ben.txt"]);
  });
});

describe("the personal space", () => {
  it("is created once even when a member's first two requests arrive together", async () => {
    const user = await createUser();
    const ctx = testContext();
    const [first, second] = await Promise.all([ensurePersonalSpace(ctx, user.id), ensurePersonalSpace(testContext(), user.id)]);
    expect(first.id).toBe(second.id);
    const folders = await testEnv.DB.prepare("select kind from folders where space_id = ? order by kind").bind(first.id).all<{ kind: string }>();
    expect(folders.results.map((row) => row.kind)).toEqual(["inbox", "outbox", "root"]);
  });
});
