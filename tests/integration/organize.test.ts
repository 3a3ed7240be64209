import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { METADATA_KEY_MAX, METADATA_PER_FILE_MAX, METADATA_VALUE_MAX, PAGE_SIZE, TAG_MAX_LENGTH, TAGS_PER_FILE_MAX } from "~/features/files/files.constants";
import { favoritesPersonalData } from "~/features/files/organize.personal-data.server";
import { loadFileExtras } from "~/features/files/organize.server";
import { AppError } from "~/lib/errors";
import { addSpaceMember, createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { createUser } from "~tests/factories/users";
import { loginJson, newAuthClient, origin, testEnv, type AuthClient, type ErrorBody } from "./helpers";

/**
 * /api/organize: favorites, tags, metadata, document templates, duplicates and recent uploads.
 * The authorization matrix (S6) for every route, the rules of each feature, and the plan gates.
 */

type Member = { id: string; email: string; client: AuthClient; space: Awaited<ReturnType<typeof personalSpaceOf>> };

async function member(tier = "pro"): Promise<Member> {
  const user = await createUser();
  if (tier !== "free") await testEnv.DB.prepare("update users set tier = ? where id = ?").bind(tier, user.id).run();
  const { response, client } = await loginJson(user.email, user.password);
  expect(response.status).toBe(200);
  return { id: user.id, email: user.email, client, space: await personalSpaceOf(user.id) };
}

async function call(client: AuthClient | null, method: string, path: string, body?: unknown): Promise<Response> {
  const anonymous = client === null ? await newAuthClient() : null;
  const sender = client ?? anonymous!;
  const headers: Record<string, string> = {
    accept: "application/json",
    cookie: client ? client.jar.header() : sender.jar.header(),
    origin,
    "x-csrf-token": sender.csrfToken,
    "cf-connecting-ip": sender.ip,
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  return exports.default.fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return response.json<T>();
}

async function errorOf(response: Response, status: number): Promise<string> {
  const body = await json<ErrorBody>(response, status);
  return body.message;
}

/** Every row this module writes, and every R2 key: a refusal must leave all of it as it was. */
/**
 * Sets one limit of a tier for the current test and puts the old value back after it: the workerd
 * tests share one D1 across files (isolate: false), so no test may leave the tiers changed.
 */
async function withTierLimit(tier: string, column: "max_dataroom_storage_mb" | "max_dataroom_files", value: number) {
  const row = await testEnv.DB.prepare(`select ${column} as value from tiers where name = ?`).bind(tier).first<{ value: number }>();
  await testEnv.DB.prepare(`update tiers set ${column} = ? where name = ?`).bind(value, tier).run();
  onTestFinished(async () => {
    await testEnv.DB.prepare(`update tiers set ${column} = ? where name = ?`).bind(row!.value, tier).run();
  });
}

async function snapshot(): Promise<string> {
  const tables = await testEnv.DB.batch([
    testEnv.DB.prepare("select * from favorites order by user_id, item_type, item_id"),
    testEnv.DB.prepare("select * from file_tags order by file_id, tag"),
    testEnv.DB.prepare("select * from file_metadata order by file_id, key"),
    testEnv.DB.prepare("select id, folder_id, name, is_template, updated_at, r2_key from files order by id"),
  ]);
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const listed = await testEnv.FILES.list({ cursor });
    keys.push(...listed.objects.map((object) => object.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return JSON.stringify({ tables: tables.map((result) => result.results), keys: keys.sort() });
}

async function trash(fileId: string) {
  await testEnv.DB.prepare("update files set trashed_at = ?, trash_root_id = id where id = ?").bind(Date.now(), fileId).run();
}

async function markTemplate(fileId: string) {
  await testEnv.DB.prepare("update files set is_template = 1 where id = ?").bind(fileId).run();
}

type TagsBody = { tags: string[] };
type MetadataBody = { metadata: { key: string; value: string }[] };
type ListedFile = { id: string; name: string; size: number; createdAt: number; folder: { uid: string; label: string }; space: { id: string; name: string } };

// ---- the authorization matrix (S6) -------------------------------------------------------------

describe("the organize routes refuse callers who may not act, and change nothing when they do", () => {
  let owner: Member;
  let viewer: Member;
  let outsider: Member;
  let fileId: string;
  let templateId: string;

  beforeAll(async () => {
    [owner, viewer, outsider] = await Promise.all([member("pro"), member("pro"), member("pro")]);
    await addSpaceMember(owner.space.spaceId, viewer.id, "viewer");
    fileId = (await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, name: "contract.txt" })).id;
    const template = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, name: "letter.txt", content: "Dear ..." });
    await markTemplate(template.id);
    templateId = template.id;
  });

  const changes = () => [
    { method: "PUT", path: `/api/organize/favorites/file/${fileId}` },
    { method: "DELETE", path: `/api/organize/favorites/file/${fileId}` },
    { method: "PUT", path: `/api/organize/favorites/folder/${owner.space.inboxId}` },
    { method: "DELETE", path: `/api/organize/favorites/folder/${owner.space.inboxId}` },
    { method: "PUT", path: `/api/organize/files/${fileId}/tags`, body: { tags: ["secret"] } },
    { method: "PUT", path: `/api/organize/files/${fileId}/metadata`, body: { entries: [{ key: "k", value: "v" }] } },
    { method: "PUT", path: `/api/organize/files/${fileId}/template`, body: { isTemplate: true } },
    { method: "POST", path: `/api/organize/templates/${templateId}/copy`, body: { folderId: owner.space.rootId, name: "copy.txt" } },
  ];
  const reads = ["/api/organize/favorites", "/api/organize/tags", "/api/organize/tags?tag=secret", "/api/organize/templates", "/api/organize/recent", "/api/organize/duplicates"];

  it("answers 401 to an anonymous visitor on every route, writing nothing", async () => {
    const before = await snapshot();
    for (const route of changes()) {
      expect(await errorOf(await call(null, route.method, route.path, route.body), 401), route.path).toBe("Please sign in to continue.");
    }
    for (const path of reads) expect((await call(null, "GET", path)).status, path).toBe(401);
    expect(await snapshot()).toBe(before);
  });

  it("answers 404 to an outsider on every change, exactly as if nothing were there, and D1 and R2 stay unchanged", async () => {
    const before = await snapshot();
    for (const route of changes()) {
      const message = await errorOf(await call(outsider.client, route.method, route.path, route.body), 404);
      expect(message, route.path).toMatch(/does not exist or you don't have access to it/);
    }
    expect(await snapshot()).toBe(before);
  });

  it("never lists another member's files to an outsider", async () => {
    await call(owner.client, "PUT", `/api/organize/files/${fileId}/tags`, { tags: ["outsider-check"] });
    const tags = await json<{ tags: { tag: string }[]; files: unknown[] }>(await call(outsider.client, "GET", "/api/organize/tags?tag=outsider-check"));
    expect(tags.tags).toEqual([]);
    expect(tags.files).toEqual([]);
    const recent = await json<{ files: ListedFile[] }>(await call(outsider.client, "GET", "/api/organize/recent"));
    expect(recent.files.map((file) => file.id)).not.toContain(fileId);
    const templates = await json<{ templates: ListedFile[] }>(await call(outsider.client, "GET", "/api/organize/templates"));
    expect(templates.templates).toEqual([]);
  });

  it("lets a viewer star and unstar what they can see (favorites are personal), but refuses every shared change with 403", async () => {
    expect(await json(await call(viewer.client, "PUT", `/api/organize/favorites/file/${fileId}`))).toEqual({ type: "file", id: fileId, favorite: true });
    expect(await json(await call(viewer.client, "PUT", `/api/organize/favorites/folder/${owner.space.inboxId}`))).toMatchObject({ favorite: true });
    const favorites = await json<{ files: ListedFile[]; folders: { uid: string }[] }>(await call(viewer.client, "GET", "/api/organize/favorites"));
    expect(favorites.files.map((file) => file.id)).toEqual([fileId]);
    expect(favorites.folders.map((folder) => folder.uid)).toEqual([owner.space.inboxId]);
    expect(await json(await call(viewer.client, "DELETE", `/api/organize/favorites/file/${fileId}`))).toMatchObject({ favorite: false });

    const before = await snapshot();
    const refusals = changes().filter((route) => !route.path.includes("/favorites/"));
    for (const route of refusals) {
      const message = await errorOf(await call(viewer.client, route.method, route.path, route.body), 403);
      expect(message, route.path).toMatch(route.path.endsWith("/copy") ? /permission to upload here/ : /permission to change these files/);
    }
    expect(await snapshot()).toBe(before);
  });

  it("lets a viewer copy a template of a shared space into their own files", async () => {
    const body = await json<{ file: { folderId: string; name: string } }>(
      await call(viewer.client, "POST", `/api/organize/templates/${templateId}/copy`, { folderId: viewer.space.rootId, name: "my letter" }),
      201,
    );
    expect(body.file).toMatchObject({ folderId: viewer.space.rootId, name: "my letter.txt" });
  });

  it("lets the owner make every change", async () => {
    for (const route of changes()) {
      const response = await call(owner.client, route.method, route.path, route.body);
      expect(response.status, `${route.path}: ${await response.clone().text()}`).toBe(route.method === "POST" ? 201 : 200);
    }
    const extras = await loadFileExtras(testContext(), owner.id, fileId);
    expect(extras).toMatchObject({ favorite: false, isTemplate: true, tags: ["secret"], metadata: [{ key: "k", value: "v" }] });
  });

  it("keeps the details panel's data from an outsider (404) and from anyone once the file is trashed", async () => {
    await expect(loadFileExtras(testContext(), outsider.id, fileId)).rejects.toMatchObject({ status: 404 });
    const doomed = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId });
    await trash(doomed.id);
    await expect(loadFileExtras(testContext(), owner.id, doomed.id)).rejects.toBeInstanceOf(AppError);
    expect((await call(owner.client, "PUT", `/api/organize/favorites/file/${doomed.id}`)).status).toBe(404);
  });

  it("answers 400 with a message for a malformed favorite target", async () => {
    expect(await errorOf(await call(owner.client, "PUT", `/api/organize/favorites/page/${fileId}`), 400)).toBe("type: A favorite is a file or a folder.");
    expect(await errorOf(await call(owner.client, "PUT", "/api/organize/favorites/file/not-an-id"), 400)).toBe("id: That is not a valid id.");
  });
});

// ---- favorites ---------------------------------------------------------------------------------

describe("favorites", () => {
  it("are personal, idempotent, listed with their folders, and drop out when the item is trashed or access ends", async () => {
    const owner = await member("free");
    const guest = await member("free");
    await addSpaceMember(owner.space.spaceId, guest.id, "editor");
    const first = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, name: "first.txt" });
    const second = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.outboxId, name: "second.txt" });
    for (const id of [first.id, second.id, second.id]) {
      expect((await call(guest.client, "PUT", `/api/organize/favorites/file/${id}`)).status).toBe(200);
    }
    const listed = await json<{ files: ListedFile[] }>(await call(guest.client, "GET", "/api/organize/favorites"));
    expect(listed.files.map((file) => file.name).sort()).toEqual(["first.txt", "second.txt"]);
    expect(listed.files.find((file) => file.id === second.id)!.folder).toEqual({ uid: owner.space.outboxId, label: "Outbox", kind: "outbox" });
    // The owner's own favorites are separate.
    expect((await json<{ files: unknown[] }>(await call(owner.client, "GET", "/api/organize/favorites"))).files).toEqual([]);

    await trash(first.id);
    const afterTrash = await json<{ files: ListedFile[] }>(await call(guest.client, "GET", "/api/organize/favorites"));
    expect(afterTrash.files.map((file) => file.id)).toEqual([second.id]);

    await testEnv.DB.prepare("delete from space_members where space_id = ? and user_id = ?").bind(owner.space.spaceId, guest.id).run();
    expect((await json<{ files: unknown[] }>(await call(guest.client, "GET", "/api/organize/favorites"))).files).toEqual([]);
  });
});

describe("favorites as personal data", () => {
  it("are exported by name with when they were starred, and erased with the account data", async () => {
    const owner = await member("free");
    const file = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, name: "starred.txt" });
    await json(await call(owner.client, "PUT", `/api/organize/favorites/file/${file.id}`));
    await json(await call(owner.client, "PUT", `/api/organize/favorites/folder/${owner.space.inboxId}`));
    const records = await favoritesPersonalData.export(testContext(), owner.id);
    expect(records.map((record) => record.path)).toEqual(["files/favorites.json"]);
    const data = records[0]!.data as { type: string; name: string; favoritedAt: string }[];
    expect(data.map((row) => [row.type, row.name]).sort()).toEqual([
      ["file", "starred.txt"],
      ["folder", "Inbox"],
    ]);
    expect(data.every((row) => !Number.isNaN(Date.parse(row.favoritedAt)))).toBe(true);
    expect(await favoritesPersonalData.erase(testContext(), owner.id)).toEqual({ r2Keys: [] });
    expect(await favoritesPersonalData.export(testContext(), owner.id)).toEqual([]);
  });
});

// ---- tags --------------------------------------------------------------------------------------

describe("tags", () => {
  let owner: Member;
  let fileId: string;
  beforeAll(async () => {
    owner = await member("basic");
    fileId = (await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, name: "report.pdf" })).id;
  });

  const setTags = (tags: unknown) => call(owner.client, "PUT", `/api/organize/files/${fileId}/tags`, { tags });

  it("are trimmed, lower-cased, have inner whitespace collapsed, and merge when they become equal", async () => {
    const body = await json<TagsBody>(await setTags(["  Q3   Report ", "q3 report", "Draft", "v1.2_final-b", "Ünïcode 2026"]));
    expect(body.tags).toEqual(["draft", "q3 report", "v1.2_final-b", "ünïcode 2026"]);
    expect((await loadFileExtras(testContext(), owner.id, fileId)).tags).toEqual(body.tags);
  });

  it("replace the whole set each time, and an empty list removes them all", async () => {
    await json(await setTags(["alpha", "beta"]));
    expect((await json<TagsBody>(await setTags(["beta", "gamma"]))).tags).toEqual(["beta", "gamma"]);
    expect((await loadFileExtras(testContext(), owner.id, fileId)).tags).toEqual(["beta", "gamma"]);
    expect((await json<TagsBody>(await setTags([]))).tags).toEqual([]);
    expect((await loadFileExtras(testContext(), owner.id, fileId)).tags).toEqual([]);
  });

  it("are refused with a clear 400 when a character, the length or the count is wrong, and nothing changes", async () => {
    await json(await setTags(["kept"]));
    const before = await snapshot();
    expect(await errorOf(await setTags(["bad/tag"]), 400)).toBe("tags.0: Tags can only contain letters, digits, spaces and - _ . (starting with a letter or digit).");
    expect(await errorOf(await setTags(["ok", "-leading"]), 400)).toMatch(/^tags\.1: Tags can only contain/);
    expect(await errorOf(await setTags(["x".repeat(TAG_MAX_LENGTH + 1)]), 400)).toBe(`tags.0: A tag is at most ${TAG_MAX_LENGTH} characters.`);
    expect(await errorOf(await setTags(["   "]), 400)).toBe("tags.0: A tag cannot be empty.");
    const tooMany = Array.from({ length: TAGS_PER_FILE_MAX + 1 }, (_, index) => `tag ${index}`);
    expect(await errorOf(await setTags(tooMany), 400)).toBe(`tags: A file can have at most ${TAGS_PER_FILE_MAX} tags.`);
    expect(await errorOf(await setTags("one,two"), 400)).toBe("tags: tags must be a list of tags.");
    expect(await errorOf(await setTags([42]), 400)).toBe("tags.0: A tag must be text.");
    expect(await errorOf(await call(owner.client, "PUT", `/api/organize/files/${fileId}/tags`, "not json at all"), 400)).toMatch(/must be a list|must be JSON|expected object/i);
    expect(await snapshot()).toBe(before);
  });

  it("accept exactly the maximum number, each at the maximum length", async () => {
    const tags = Array.from({ length: TAGS_PER_FILE_MAX }, (_, index) => `${String(index).padStart(2, "0")}${"t".repeat(TAG_MAX_LENGTH - 2)}`);
    expect((await json<TagsBody>(await setTags(tags))).tags).toHaveLength(TAGS_PER_FILE_MAX);
  });

  it("are counted per tag on the tags overview and list their live files page by page", async () => {
    const extra = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, name: "a-first.txt" });
    const gone = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, name: "b-trashed.txt" });
    await json(await setTags(["contracts", "urgent"]));
    await json(await call(owner.client, "PUT", `/api/organize/files/${extra.id}/tags`, { tags: ["Contracts"] }));
    await json(await call(owner.client, "PUT", `/api/organize/files/${gone.id}/tags`, { tags: ["contracts"] }));
    await trash(gone.id);

    const overview = await json<{ tags: { tag: string; count: number }[]; tag: null; files: unknown[] }>(await call(owner.client, "GET", "/api/organize/tags"));
    expect(overview.tags).toEqual([
      { tag: "contracts", count: 2 },
      { tag: "urgent", count: 1 },
    ]);
    expect(overview.tag).toBeNull();
    const listed = await json<{ tag: string; files: ListedFile[]; nextCursor: string | null }>(await call(owner.client, "GET", "/api/organize/tags?tag=%20CONTRACTS"));
    expect(listed.tag).toBe("contracts");
    expect(listed.files.map((file) => file.name)).toEqual(["a-first.txt", "report.pdf"]);
    expect(listed.nextCursor).toBeNull();
    expect(await errorOf(await call(owner.client, "GET", "/api/organize/tags?tag=%2F%2F"), 400)).toBe("tag: That is not a valid tag.");
    expect((await json<{ tag: string | null }>(await call(owner.client, "GET", "/api/organize/tags?tag=%20"))).tag).toBeNull();
  });

  it("page through more files than fit on one page without repeating or skipping any", async () => {
    const heavy = await member("basic");
    const ids: string[] = [];
    for (let index = 0; index < PAGE_SIZE + 3; index++) {
      const file = await createFile({ spaceId: heavy.space.spaceId, folderId: heavy.space.rootId, name: `doc-${String(index).padStart(3, "0")}.txt` });
      ids.push(file.id);
    }
    const rows = ids.map((id) => `('${id}', '${heavy.space.spaceId}', 'bulk', 0)`).join(", ");
    await testEnv.DB.prepare(`insert into file_tags (file_id, space_id, tag, created_at) values ${rows}`).run();
    const first = await json<{ files: ListedFile[]; nextCursor: string }>(await call(heavy.client, "GET", "/api/organize/tags?tag=bulk"));
    expect(first.files).toHaveLength(PAGE_SIZE);
    const second = await json<{ files: ListedFile[]; nextCursor: string | null }>(
      await call(heavy.client, "GET", `/api/organize/tags?tag=bulk&cursor=${first.nextCursor}`),
    );
    expect(second.files).toHaveLength(3);
    expect(second.nextCursor).toBeNull();
    const names = [...first.files, ...second.files].map((file) => file.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(PAGE_SIZE + 3);
  }, 60_000);
});

// ---- metadata ----------------------------------------------------------------------------------

describe("metadata", () => {
  let owner: Member;
  let fileId: string;
  beforeAll(async () => {
    owner = await member("business");
    fileId = (await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId })).id;
  });
  const setEntries = (entries: unknown) => call(owner.client, "PUT", `/api/organize/files/${fileId}/metadata`, { entries });

  it("is replaced as a whole set: keys left out are removed, values are trimmed", async () => {
    await json(await setEntries([{ key: "Client", value: "Acme" }, { key: "Year", value: "2025" }]));
    const body = await json<MetadataBody>(await setEntries([{ key: " Year ", value: " 2026 " }, { key: "Owner", value: "Legal\nteam" }]));
    expect(body.metadata).toEqual([
      { key: "Owner", value: "Legal\nteam" },
      { key: "Year", value: "2026" },
    ]);
    expect((await loadFileExtras(testContext(), owner.id, fileId)).metadata).toEqual(body.metadata);
    await json(await setEntries([]));
    expect((await loadFileExtras(testContext(), owner.id, fileId)).metadata).toEqual([]);
  });

  it("stores the maximum number of fields at full length (more than one D1 statement's worth of parameters)", async () => {
    const entries = Array.from({ length: METADATA_PER_FILE_MAX }, (_, index) => ({
      key: `${String(index).padStart(2, "0")}${"k".repeat(METADATA_KEY_MAX - 2)}`,
      value: "v".repeat(METADATA_VALUE_MAX),
    }));
    expect((await json<MetadataBody>(await setEntries(entries))).metadata).toHaveLength(METADATA_PER_FILE_MAX);
    expect((await loadFileExtras(testContext(), owner.id, fileId)).metadata).toHaveLength(METADATA_PER_FILE_MAX);
  });

  it("is refused with a clear 400 for duplicate, empty or oversized keys and values, or too many fields, and nothing changes", async () => {
    await json(await setEntries([{ key: "kept", value: "yes" }]));
    const before = await snapshot();
    expect(await errorOf(await setEntries([{ key: "Year", value: "1" }, { key: "year", value: "2" }]), 400)).toBe('entries.1.key: The key "year" is used twice.');
    expect(await errorOf(await setEntries([{ key: " ", value: "1" }]), 400)).toBe("entries.0.key: A metadata key cannot be empty.");
    expect(await errorOf(await setEntries([{ key: "k".repeat(METADATA_KEY_MAX + 1), value: "1" }]), 400)).toBe(
      `entries.0.key: A metadata key is at most ${METADATA_KEY_MAX} characters.`,
    );
    expect(await errorOf(await setEntries([{ key: "k", value: "v".repeat(METADATA_VALUE_MAX + 1) }]), 400)).toBe(
      `entries.0.value: A metadata value is at most ${METADATA_VALUE_MAX} characters.`,
    );
    expect(await errorOf(await setEntries([{ key: "bell\u0007", value: "1" }]), 400)).toBe("entries.0.key: A metadata key cannot contain control characters.");
    const tooMany = Array.from({ length: METADATA_PER_FILE_MAX + 1 }, (_, index) => ({ key: `k${index}`, value: "v" }));
    expect(await errorOf(await setEntries(tooMany), 400)).toBe(`entries: A file can have at most ${METADATA_PER_FILE_MAX} metadata fields.`);
    expect(await errorOf(await setEntries([{ key: "k" }]), 400)).toBe("entries.0.value: A metadata value must be text.");
    expect(await errorOf(await call(owner.client, "PUT", `/api/organize/files/${fileId}/metadata`, {}), 400)).toBe("entries: entries must be a list of { key, value } pairs.");
    expect(await snapshot()).toBe(before);
  });
});

// ---- plan gates --------------------------------------------------------------------------------

describe("plan gates", () => {
  it("refuses tags and metadata on the Free plan with a 403 naming the Basic plan, and writes nothing", async () => {
    const free = await member("free");
    const file = await createFile({ spaceId: free.space.spaceId, folderId: free.space.rootId });
    const before = await snapshot();
    for (const [path, body] of [
      [`/api/organize/files/${file.id}/tags`, { tags: ["x"] }],
      [`/api/organize/files/${file.id}/metadata`, { entries: [{ key: "k", value: "v" }] }],
    ] as const) {
      expect(await errorOf(await call(free.client, "PUT", path, body), 403)).toBe(
        "You don't have the required feature: basic_editing. It is part of the Basic plan and above.",
      );
    }
    expect(await snapshot()).toBe(before);
    // Favorites and templates are core: every plan has them.
    expect((await call(free.client, "PUT", `/api/organize/favorites/file/${file.id}`)).status).toBe(200);
    expect((await call(free.client, "PUT", `/api/organize/files/${file.id}/template`, { isTemplate: true })).status).toBe(200);
    expect((await call(free.client, "GET", "/api/organize/recent")).status).toBe(200);
    expect((await call(free.client, "GET", "/api/organize/templates")).status).toBe(200);
  });

  it("refuses duplicates below the Pro plan, naming it", async () => {
    for (const tier of ["free", "basic"]) {
      const refused = await member(tier);
      expect(await errorOf(await call(refused.client, "GET", "/api/organize/duplicates"), 403)).toBe(
        "You don't have the required feature: advanced_features. It is part of the Pro plan and above.",
      );
    }
    const pro = await member("pro");
    expect((await call(pro.client, "GET", "/api/organize/duplicates")).status).toBe(200);
  });
});

// ---- duplicates --------------------------------------------------------------------------------

type DuplicatesBody = {
  summary: { groups: number; files: number; reclaimable: number };
  groups: { sha256: string; space: { id: string; name: string }; copies: number; size: number; reclaimable: number; files: ListedFile[] }[];
  nextCursor: string | null;
};

describe("duplicates", () => {
  it("groups live, hashed files by SHA-256 within each space, ignoring trashed and unhashed files", async () => {
    const pro = await member("pro");
    const partner = await member("pro");
    const stranger = await member("pro");
    await addSpaceMember(partner.space.spaceId, pro.id, "viewer");
    const { spaceId, rootId, inboxId, outboxId } = pro.space;
    const big = "B".repeat(3000);
    await createFile({ spaceId, folderId: rootId, name: "big-1.bin", content: big });
    await createFile({ spaceId, folderId: inboxId, name: "big-2.bin", content: big });
    await createFile({ spaceId, folderId: outboxId, name: "big-3.bin", content: big });
    await createFile({ spaceId, folderId: rootId, name: "small-1.txt", content: "small" });
    await createFile({ spaceId, folderId: inboxId, name: "small-2.txt", content: "small" });
    // Only one live copy: the other is in the trash.
    await createFile({ spaceId, folderId: rootId, name: "gone-1.txt", content: "gone" });
    await trash((await createFile({ spaceId, folderId: rootId, name: "gone-2.txt", content: "gone" })).id);
    // Not hashed yet: never grouped, even with equal bytes.
    await createFile({ spaceId, folderId: rootId, name: "pending-1.txt", content: "pending", sha256: null });
    await createFile({ spaceId, folderId: rootId, name: "pending-2.txt", content: "pending", sha256: null });
    await createFile({ spaceId, folderId: rootId, name: "unique.txt", content: "unique" });
    // The same bytes in another space the member belongs to are a separate group…
    await createFile({ spaceId: partner.space.spaceId, folderId: partner.space.rootId, name: "shared-1.txt", content: "small" });
    await createFile({ spaceId: partner.space.spaceId, folderId: partner.space.inboxId, name: "shared-2.txt", content: "small" });
    // …and a single copy in a second space is not a duplicate of the first space's files.
    await createFile({ spaceId: partner.space.spaceId, folderId: partner.space.rootId, name: "lonely.bin", content: big });
    // A space the member does not belong to never shows up.
    await createFile({ spaceId: stranger.space.spaceId, folderId: stranger.space.rootId, name: "x-1.txt", content: "small" });
    await createFile({ spaceId: stranger.space.spaceId, folderId: stranger.space.rootId, name: "x-2.txt", content: "small" });

    const body = await json<DuplicatesBody>(await call(pro.client, "GET", "/api/organize/duplicates"));
    expect(body.summary).toEqual({ groups: 3, files: 7, reclaimable: 2 * 3000 + 5 + 5 });
    expect(body.groups.map((group) => [group.space.id, group.copies, group.size, group.reclaimable])).toEqual([
      [spaceId, 3, 3000, 6000],
      ...[
        [spaceId, 2, 5, 5],
        [partner.space.spaceId, 2, 5, 5],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ]);
    const bigGroup = body.groups[0]!;
    expect(bigGroup.files.map((file) => [file.name, file.folder.label])).toEqual([
      ["big-1.bin", "My files"],
      ["big-2.bin", "Inbox"],
      ["big-3.bin", "Outbox"],
    ]);
    const smallGroups = body.groups.slice(1).map((group) => group.files.map((file) => file.name).sort());
    expect(smallGroups).toEqual(expect.arrayContaining([["small-1.txt", "small-2.txt"], ["shared-1.txt", "shared-2.txt"]]));
    expect(body.nextCursor).toBeNull();
  }, 60_000);

  it("pages through many groups with a keyset cursor", async () => {
    const pro = await member("pro");
    for (let index = 0; index < 52; index++) {
      for (const copy of [1, 2]) {
        await createFile({ spaceId: pro.space.spaceId, folderId: pro.space.rootId, name: `g${index}-${copy}.txt`, content: `group ${index} ${"x".repeat(index)}` });
      }
    }
    const first = await json<DuplicatesBody>(await call(pro.client, "GET", "/api/organize/duplicates"));
    expect(first.summary.groups).toBe(52);
    expect(first.groups).toHaveLength(50);
    expect(first.nextCursor).not.toBeNull();
    const second = await json<DuplicatesBody>(await call(pro.client, "GET", `/api/organize/duplicates?cursor=${encodeURIComponent(first.nextCursor!)}`));
    expect(second.groups).toHaveLength(2);
    const sizes = [...first.groups, ...second.groups].map((group) => group.reclaimable);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(new Set([...first.groups, ...second.groups].map((group) => group.sha256)).size).toBe(52);
  }, 60_000);
});

// ---- recent uploads ----------------------------------------------------------------------------

describe("recent uploads", () => {
  it("lists the newest live files of every space the member belongs to, newest first, page by page", async () => {
    const owner = await member("free");
    const partner = await member("free");
    await addSpaceMember(partner.space.spaceId, owner.id, "viewer");
    const base = Date.UTC(2026, 0, 1);
    const ids: string[] = [];
    for (let index = 0; index < PAGE_SIZE + 4; index++) {
      // Pairs share a timestamp, so the id breaks the tie.
      const createdAt = new Date(base + Math.floor(index / 2) * 1000);
      const space = index % 3 === 0 ? partner.space : owner.space;
      ids.push((await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: `r${index}.txt`, createdAt })).id);
    }
    const trashed = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, createdAt: new Date(base + 999_999) });
    await trash(trashed.id);
    const outside = await member("free");
    await createFile({ spaceId: outside.space.spaceId, folderId: outside.space.rootId, createdAt: new Date(base + 999_999) });

    const first = await json<{ files: ListedFile[]; nextCursor: string }>(await call(owner.client, "GET", "/api/organize/recent"));
    expect(first.files).toHaveLength(PAGE_SIZE);
    const second = await json<{ files: ListedFile[]; nextCursor: string | null }>(await call(owner.client, "GET", `/api/organize/recent?cursor=${first.nextCursor}`));
    expect(second.files).toHaveLength(4);
    expect(second.nextCursor).toBeNull();
    const listed = [...first.files, ...second.files];
    const expected = ids
      .map((id, index) => ({ id, at: base + Math.floor(index / 2) * 1000 }))
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map((row) => row.id);
    expect(listed.map((file) => file.id)).toEqual(expected);
    expect(listed.some((file) => file.space.id === partner.space.spaceId)).toBe(true);
  }, 60_000);
});

describe("recent uploads for a member of many spaces", () => {
  it("still come newest first, page by page, when the member belongs to more spaces than are merged one by one", async () => {
    const reader = await member("free");
    const base = Date.UTC(2026, 5, 1);
    const expected: { id: string; at: number }[] = [];
    for (let index = 0; index < 24; index++) {
      const owner = await createUser();
      const space = await personalSpaceOf(owner.id);
      await addSpaceMember(space.spaceId, reader.id, "viewer");
      for (const offset of [0, 1, 2, 3, 4]) {
        const at = base + (offset * 24 + index) * 1000;
        const file = await createFile({ spaceId: space.spaceId, folderId: space.rootId, createdAt: new Date(at) });
        expected.push({ id: file.id, at });
      }
    }
    const first = await json<{ files: ListedFile[]; nextCursor: string }>(await call(reader.client, "GET", "/api/organize/recent"));
    const second = await json<{ files: ListedFile[]; nextCursor: string | null }>(await call(reader.client, "GET", `/api/organize/recent?cursor=${first.nextCursor}`));
    expect(first.files).toHaveLength(PAGE_SIZE);
    expect(second.files).toHaveLength(20);
    expect([...first.files, ...second.files].map((file) => file.id)).toEqual(expected.sort((a, b) => b.at - a.at).map((row) => row.id));
  }, 60_000);
});

// ---- document templates ------------------------------------------------------------------------

type CopyBody = { file: { id: string; name: string; size: number; type: string; folderId: string } };

async function fileRow(id: string) {
  return testEnv.DB.prepare("select * from files where id = ?").bind(id).first<{ r2_key: string; sha256: string | null; size: number; is_template: number; folder_id: string; space_id: string; uploaded_by: string }>();
}

describe("document templates", () => {
  it("are marked and unmarked by an editor and listed with the destinations for a new document", async () => {
    const owner = await member("free");
    const file = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, name: "invoice.odt" });
    expect(await json(await call(owner.client, "PUT", `/api/organize/files/${file.id}/template`, { isTemplate: true }))).toEqual({ isTemplate: true });
    const listed = await json<{ templates: ListedFile[]; destinations: { uid: string; label: string }[]; defaultFolderId: string }>(
      await call(owner.client, "GET", "/api/organize/templates"),
    );
    expect(listed.templates.map((template) => template.name)).toEqual(["invoice.odt"]);
    expect(listed.defaultFolderId).toBe(owner.space.rootId);
    expect(listed.destinations[0]).toEqual({ uid: owner.space.rootId, label: "My files (top level)", spaceName: "My files" });
    expect(listed.destinations.map((destination) => destination.label)).toEqual(expect.arrayContaining(["Inbox", "Outbox"]));
    expect(await errorOf(await call(owner.client, "PUT", `/api/organize/files/${file.id}/template`, { isTemplate: "yes" }), 400)).toBe(
      "isTemplate: isTemplate must be true or false.",
    );
    await json(await call(owner.client, "PUT", `/api/organize/files/${file.id}/template`, { isTemplate: false }));
    expect((await json<{ templates: unknown[] }>(await call(owner.client, "GET", "/api/organize/templates"))).templates).toEqual([]);
  });

  it("are copied into an independent document: a new key with the same bytes, in the chosen folder", async () => {
    const owner = await member("free");
    const bytes = new Uint8Array(70_000).map((_, index) => index % 251);
    const template = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, name: "deck.pptx", content: bytes, contentType: "application/zip" });
    await markTemplate(template.id);
    const body = await json<CopyBody>(
      await call(owner.client, "POST", `/api/organize/templates/${template.id}/copy`, { folderId: owner.space.outboxId, name: "  Board meeting  " }),
      201,
    );
    expect(body.file).toMatchObject({ name: "Board meeting.pptx", size: bytes.byteLength, type: "application/zip", folderId: owner.space.outboxId });
    const copy = (await fileRow(body.file.id))!;
    expect(copy.r2_key).not.toBe(template.r2Key);
    expect(copy.r2_key).toMatch(new RegExp(`^files/${owner.space.spaceId}/[0-9a-f-]{36}$`));
    expect(copy).toMatchObject({ sha256: template.sha256, size: bytes.byteLength, is_template: 0, folder_id: owner.space.outboxId, uploaded_by: owner.id });
    const stored = await testEnv.FILES.get(copy.r2_key);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes);

    // Independent: removing the template's object leaves the copy whole.
    await testEnv.FILES.delete(template.r2Key);
    expect((await testEnv.FILES.head(copy.r2_key))?.size).toBe(bytes.byteLength);
  });

  it("refuse a name already in the folder, a file that is not a template, and a bad request, leaving nothing behind", async () => {
    const owner = await member("free");
    const template = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, name: "memo.txt" });
    await markTemplate(template.id);
    const plain = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, name: "plain.txt" });
    await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, name: "taken.txt" });
    const before = await snapshot();
    const copy = (id: string, body: unknown) => call(owner.client, "POST", `/api/organize/templates/${id}/copy`, body);
    expect(await errorOf(await copy(template.id, { folderId: owner.space.inboxId, name: "taken" }), 400)).toBe(
      'name: A file named "taken.txt" is already in that folder. Choose another name.',
    );
    expect(await errorOf(await copy(plain.id, { folderId: owner.space.inboxId, name: "new" }), 404)).toBe(
      "This document template does not exist or you don't have access to it.",
    );
    expect(await errorOf(await copy(template.id, { folderId: owner.space.inboxId, name: "  " }), 400)).toBe("name: Name is required.");
    expect(await errorOf(await copy(template.id, { folderId: owner.space.inboxId, name: "a/b" }), 400)).toBe("name: Name cannot contain / or \\.");
    expect(await errorOf(await copy(template.id, { folderId: "nope", name: "x" }), 400)).toBe("folderId: That is not a valid id.");
    expect(await errorOf(await copy(template.id, { folderId: crypto.randomUUID(), name: "x" }), 404)).toBe(
      "This folder does not exist or you don't have access to it.",
    );
    expect(await snapshot()).toBe(before);
  });

  it("respect the destination space's storage quota, counting trashed files, and leave nothing behind when refused", async () => {
    await withTierLimit("business", "max_dataroom_storage_mb", 1);
    const owner = await member("business");
    const content = new Uint8Array(300 * 1024).fill(7);
    const template = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, name: "form.bin", content });
    await markTemplate(template.id);
    await trash((await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, name: "old.bin", content })).id);
    const copy = (name: string) => call(owner.client, "POST", `/api/organize/templates/${template.id}/copy`, { folderId: owner.space.inboxId, name });
    // 600 KiB used; one more copy makes 900 KiB (fits in 1 MB), the next would make 1200 KiB.
    await json(await copy("first"), 201);
    const before = await snapshot();
    expect(await errorOf(await copy("second"), 413)).toMatch(
      /^Not enough storage for "second\.bin" \(300 KB\): .* Your Business plan allows 1 MB of storage per data room\. Upgrade your plan or add extra storage\.$/,
    );
    expect(await snapshot()).toBe(before);
  });

  it("respect the destination space's file-count limit", async () => {
    await withTierLimit("custom", "max_dataroom_files", 2);
    const owner = await member("custom");
    const template = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.rootId, name: "t.txt" });
    await markTemplate(template.id);
    const copy = (name: string) => call(owner.client, "POST", `/api/organize/templates/${template.id}/copy`, { folderId: owner.space.rootId, name });
    await json(await copy("one"), 201);
    const before = await snapshot();
    expect(await errorOf(await copy("two"), 403)).toBe("Your Enterprise plan allows 2 files per data room. Upgrade your plan to raise it.");
    expect(await snapshot()).toBe(before);
  });
});
