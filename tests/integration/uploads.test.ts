import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MIN_PART_SIZE, UPLOAD_EXPIRY_MS } from "~/features/files/files.constants";
import { hashJobId } from "~/features/files/files.jobs";
import { sniffContentType } from "~/features/files/sniff.server";
import { abortExpiredUploads, receiveChunk, type UploadError } from "~/features/files/uploads.server";
import { AppError } from "~/lib/errors";
import { addSpaceMember, createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { createUser } from "~tests/factories/users";
import worker from "~workers/app";
import { loginJson, testEnv, type AuthClient } from "./helpers";
import { bytes, call, create, createOk, metadata, patch, sha256Hex, upload, type Call } from "./tus-helpers";

/**
 * The tus endpoint (/api/uploads) through the real Worker entry, local D1 and R2: the
 * authorization matrix, quotas, offsets, part sizes, sniffing, versions and completion.
 */

type Member = { id: string; client: AuthClient; space: Awaited<ReturnType<typeof personalSpaceOf>> };

async function member(tier = "free"): Promise<Member> {
  const user = await createUser();
  if (tier !== "free") await testEnv.DB.prepare("update users set tier = ? where id = ?").bind(tier, user.id).run();
  const { response, client } = await loginJson(user.email, user.password);
  expect(response.status).toBe(200);
  return { id: user.id, client, space: await personalSpaceOf(user.id) };
}

async function fileRow(id: string) {
  return testEnv.DB.prepare("select id, folder_id as folderId, name, size, content_type as contentType, sha256, r2_key as r2Key, version from files where id = ?")
    .bind(id)
    .first<{ id: string; folderId: string; name: string; size: number; contentType: string; sha256: string | null; r2Key: string; version: number }>();
}

/** Every row and object an upload could leave behind, to prove a refusal left nothing. */
async function snapshot() {
  const count = async (table: string) => (await testEnv.DB.prepare(`select count(*) as n from ${table}`).first<{ n: number }>())!.n;
  const objects = await testEnv.FILES.list({ prefix: "files/" });
  return {
    uploads: await count("uploads"),
    parts: await count("upload_parts"),
    files: await count("files"),
    folders: await count("folders"),
    versions: await count("file_versions"),
    objects: objects.objects.length,
  };
}

async function uploadRow(id: string) {
  return testEnv.DB.prepare("select offset, length, part_size as partSize, status, r2_key as r2Key, r2_upload_id as r2UploadId, file_id as fileId from uploads where id = ?")
    .bind(id)
    .first<{ offset: number; length: number; partSize: number; status: string; r2Key: string; r2UploadId: string | null; fileId: string | null }>();
}

const idOf = (location: string) => location.split("/").pop()!;

// Multipart completions enqueue files.hash jobs that the local queue delivers about a second
// later; let them finish before the file's storage is torn down.
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 2500));
});

describe("tus discovery and creation", () => {
  let owner: Member;
  beforeAll(async () => {
    owner = await member();
  });

  it("answers OPTIONS with the tus version, extensions and maximum size", async () => {
    const response = await call({ method: "OPTIONS", path: "/api/uploads", client: owner.client, tus: false });
    expect(response.status).toBe(204);
    expect(response.headers.get("tus-resumable")).toBe("1.0.0");
    expect(response.headers.get("tus-version")).toBe("1.0.0");
    expect(response.headers.get("tus-extension")).toBe("creation,termination");
    expect(Number(response.headers.get("tus-max-size"))).toBeGreaterThan(1024 ** 3);
  });

  it("creates an upload with a Location, an expiry and the part size", async () => {
    const response = await create(owner.client, { folderId: owner.space.inboxId, name: "report.pdf", length: 20 * 1024 * 1024 });
    expect(response.status).toBe(201);
    expect(response.headers.get("location")).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
    expect(response.headers.get("tus-resumable")).toBe("1.0.0");
    expect(response.headers.get("strongroom-part-size")).toBe(String(MIN_PART_SIZE));
    expect(Date.parse(response.headers.get("upload-expires")!)).toBeGreaterThan(Date.now() + UPLOAD_EXPIRY_MS - 60_000);
    const row = await uploadRow(idOf(response.headers.get("location")!));
    expect(row).toMatchObject({ offset: 0, length: 20 * 1024 * 1024, partSize: MIN_PART_SIZE, status: "active" });
    expect(row!.r2Key).toMatch(new RegExp(`^files/${owner.space.spaceId}/[0-9a-f-]{36}$`));
    expect(row!.r2Key).not.toContain("report");
    expect(row!.r2UploadId).toBeTruthy();
  });

  it("refuses a request without Tus-Resumable 1.0.0 with 412 and creates nothing", async () => {
    const before = await snapshot();
    const response = await call({
      method: "POST",
      path: "/api/uploads",
      client: owner.client,
      tus: false,
      headers: { "upload-length": "5", "upload-metadata": metadata({ filename: "a.txt", folderId: owner.space.inboxId }) },
    });
    expect(response.status).toBe(412);
    expect(response.headers.get("tus-version")).toBe("1.0.0");
    expect(await snapshot()).toEqual(before);
  });

  it("refuses deferred lengths, bad lengths, names and paths with a clear 400 and creates nothing", async () => {
    const before = await snapshot();
    const deferred = await call({
      method: "POST",
      path: "/api/uploads",
      client: owner.client,
      headers: { "upload-defer-length": "1", "upload-metadata": metadata({ filename: "a.txt", folderId: owner.space.inboxId }) },
    });
    expect(deferred.status).toBe(400);
    expect((await deferred.json<{ message: string }>()).message).toContain("unknown length are not supported");
    const missingLength = await call({ method: "POST", path: "/api/uploads", client: owner.client, headers: { "upload-metadata": metadata({ filename: "a.txt", folderId: owner.space.inboxId }) } });
    expect(missingLength.status).toBe(400);
    const cases: [Record<string, string>, string][] = [
      [{ filename: "a/b.txt", folderId: owner.space.inboxId }, "cannot contain"],
      [{ filename: "a\\b.txt", folderId: owner.space.inboxId }, "cannot contain"],
      [{ filename: "bell\u0007.txt", folderId: owner.space.inboxId }, "cannot contain"],
      [{ filename: "x".repeat(256), folderId: owner.space.inboxId }, "at most 255"],
      [{ filename: "", folderId: owner.space.inboxId }, "needs a name"],
      [{ filename: "a.txt" }, "Choose the folder"],
      [{ filename: "a.txt", folderId: "not-a-uuid" }, "Choose the folder"],
      [{ filename: "a.txt", folderId: owner.space.inboxId, relativePath: "../etc" }, "relativePath"],
      [{ filename: "a.txt", folderId: owner.space.inboxId, relativePath: "/abs/path" }, "relative"],
      [{ filename: "a.txt", folderId: owner.space.inboxId, relativePath: "a//b" }, "relativePath"],
      [{ filename: "a.txt", folderId: owner.space.inboxId, relativePath: "a/\u0000/b" }, "relativePath"],
    ];
    for (const [fields, message] of cases) {
      const response = await call({ method: "POST", path: "/api/uploads", client: owner.client, headers: { "upload-length": "5", "upload-metadata": metadata(fields) } });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect((await response.json<{ message: string }>()).message, JSON.stringify(fields)).toContain(message);
    }
    for (const header of ["-1", "1.5", "abc", "99999999999999999999"]) {
      const response = await call({
        method: "POST",
        path: "/api/uploads",
        client: owner.client,
        headers: { "upload-length": header, "upload-metadata": metadata({ filename: "a.txt", folderId: owner.space.inboxId }) },
      });
      expect(response.status, header).toBe(400);
    }
    const badMetadata = await call({ method: "POST", path: "/api/uploads", client: owner.client, headers: { "upload-length": "5", "upload-metadata": "filename !!!notbase64" } });
    expect(badMetadata.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a file larger than the largest upload with 413 before anything exists", async () => {
    const before = await snapshot();
    const response = await create(owner.client, { folderId: owner.space.inboxId, name: "huge.bin", length: 10 * 1024 ** 4 });
    expect(response.status).toBe(413);
    expect(await snapshot()).toEqual(before);
  });
});

describe("who may upload (authorization matrix, S6)", () => {
  let owner: Member;
  let viewer: Member;
  let outsider: Member;
  let location: string;
  beforeAll(async () => {
    [owner, viewer, outsider] = await Promise.all([member(), member(), member()]);
    await addSpaceMember(owner.space.spaceId, viewer.id, "viewer");
    location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "matrix.txt", length: 5 });
  });

  it("answers anonymous requests on every route with 401 and changes nothing", async () => {
    const before = await snapshot();
    const routes: Call[] = [
      { method: "OPTIONS", path: "/api/uploads", tus: false },
      { method: "POST", path: "/api/uploads", headers: { "upload-length": "5", "upload-metadata": metadata({ filename: "a.txt", folderId: owner.space.inboxId }) } },
      { method: "HEAD", path: location },
      { method: "GET", path: location },
      { method: "PATCH", path: location, headers: { "upload-offset": "0", "content-type": "application/offset+octet-stream" }, body: "hello" },
      { method: "DELETE", path: location },
    ];
    for (const route of routes) {
      // Same-origin but without a session: the CSRF cookie alone does not make a member.
      const response = await call(route);
      expect([401, 419], `${route.method} ${route.path}`).toContain(response.status);
      if (route.method === "GET" || route.method === "HEAD" || route.method === "OPTIONS") expect(response.status).toBe(401);
    }
    expect(await snapshot()).toEqual(before);
    expect(await uploadRow(idOf(location))).toMatchObject({ offset: 0, status: "active" });
  });

  it("answers an outsider with 404 on every route and changes nothing in D1 or R2", async () => {
    const before = await snapshot();
    const created = await create(outsider.client, { folderId: owner.space.inboxId, name: "intruder.txt", length: 5 });
    expect(created.status).toBe(404);
    expect((await call({ method: "HEAD", path: location, client: outsider.client })).status).toBe(404);
    const patched = await patch(outsider.client, location, 0, new TextEncoder().encode("hello"));
    expect(patched.status).toBe(404);
    expect((await call({ method: "DELETE", path: location, client: outsider.client })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
    expect(await uploadRow(idOf(location))).toMatchObject({ offset: 0, status: "active" });
  });

  it("refuses a viewer with 403 on creation and shows them nobody else's upload", async () => {
    const before = await snapshot();
    const created = await create(viewer.client, { folderId: owner.space.inboxId, name: "viewer.txt", length: 5 });
    expect(created.status).toBe(403);
    expect((await created.json<{ message: string }>()).message).toBe("You don't have permission to upload here.");
    expect((await call({ method: "HEAD", path: location, client: viewer.client })).status).toBe(404);
    expect((await patch(viewer.client, location, 0, new TextEncoder().encode("hello"))).status).toBe(404);
    expect((await call({ method: "DELETE", path: location, client: viewer.client })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses the uploader's next PATCH with 403 once they are only a viewer", async () => {
    const editor = await member();
    await addSpaceMember(owner.space.spaceId, editor.id, "editor");
    const own = await createOk(editor.client, { folderId: owner.space.inboxId, name: "demoted.txt", length: 5 });
    await testEnv.DB.prepare("update space_members set role = 'viewer' where space_id = ? and user_id = ?").bind(owner.space.spaceId, editor.id).run();
    const response = await patch(editor.client, own, 0, new TextEncoder().encode("hello"));
    expect(response.status).toBe(403);
    expect(await uploadRow(idOf(own))).toMatchObject({ offset: 0, status: "active" });
    // Withdrawing their own upload is still allowed.
    expect((await call({ method: "DELETE", path: own, client: editor.client })).status).toBe(204);
    expect(await uploadRow(idOf(own))).toBeNull();
  });

  it("lets the owner use every route", async () => {
    expect((await call({ method: "OPTIONS", path: "/api/uploads", client: owner.client, tus: false })).status).toBe(204);
    const head = await call({ method: "HEAD", path: location, client: owner.client });
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe("0");
    expect(head.headers.get("upload-length")).toBe("5");
    expect(head.headers.get("cache-control")).toBe("no-store");
    const patched = await patch(owner.client, location, 0, new TextEncoder().encode("hello"));
    expect(patched.status).toBe(204);
    expect(patched.headers.get("upload-offset")).toBe("5");
    const fileId = patched.headers.get("strongroom-file-id")!;
    expect(await fileRow(fileId)).toMatchObject({ name: "matrix.txt", size: 5, contentType: "text/plain", folderId: owner.space.inboxId });
    const other = await createOk(owner.client, { folderId: owner.space.inboxId, name: "gone.txt", length: 5 });
    expect((await call({ method: "DELETE", path: other, client: owner.client })).status).toBe(204);
  });
});

describe("quotas before an upload starts (S13)", () => {
  const setBasicLimit = (column: string, value: number) => testEnv.DB.prepare(`update tiers set ${column} = ? where name = 'basic'`).bind(value).run();
  let defaults: { storage: number; files: number; folders: number };
  beforeAll(async () => {
    const row = await testEnv.DB.prepare("select max_dataroom_storage_mb as storage, max_dataroom_files as files, max_dataroom_folders as folders from tiers where name = 'basic'").first<{
      storage: number;
      files: number;
      folders: number;
    }>();
    defaults = row!;
  });
  afterEach(async () => {
    await setBasicLimit("max_dataroom_storage_mb", defaults.storage);
    await setBasicLimit("max_dataroom_files", defaults.files);
    await setBasicLimit("max_dataroom_folders", defaults.folders);
  });

  it("refuses an upload that would pass the plan's storage with 413 naming the limit, and leaves no row or object", async () => {
    const owner = await member("basic");
    await setBasicLimit("max_dataroom_storage_mb", 1);
    await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, content: bytes(600 * 1024) });
    const before = await snapshot();
    const response = await create(owner.client, { folderId: owner.space.inboxId, name: "too-big.bin", length: 500 * 1024 });
    expect(response.status).toBe(413);
    const { message } = await response.json<{ message: string }>();
    expect(message).toContain("Your Basic plan allows 1 MB of storage per data room. Upgrade your plan or add extra storage.");
    expect(message).toContain('"too-big.bin"');
    expect(await snapshot()).toEqual(before);
    // What still fits is accepted.
    expect((await create(owner.client, { folderId: owner.space.inboxId, name: "fits.bin", length: 400 * 1024 })).status).toBe(201);
  });

  it("reserves in-progress uploads and counts earlier versions and the trash against the quota", async () => {
    const owner = await member("basic");
    await setBasicLimit("max_dataroom_storage_mb", 1);
    await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, content: bytes(200 * 1024) });
    const trashed = await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, content: bytes(200 * 1024) });
    await testEnv.DB.prepare("update files set trashed_at = ? where id = ?").bind(Date.now(), trashed.id).run();
    // 400 KB stored (one in the trash) + 400 KB reserved by an upload in progress.
    await createOk(owner.client, { folderId: owner.space.inboxId, name: "first.bin", length: 400 * 1024 });
    const second = await create(owner.client, { folderId: owner.space.inboxId, name: "second.bin", length: 300 * 1024 });
    expect(second.status).toBe(413);
  });

  it("raises the quota by 1024 MB per extra_storage unit", async () => {
    const owner = await member("basic");
    await setBasicLimit("max_dataroom_storage_mb", 1);
    expect((await create(owner.client, { folderId: owner.space.inboxId, name: "big.bin", length: 20 * 1024 * 1024 })).status).toBe(413);
    await testEnv.DB.prepare("insert into user_addons (user_id, addon, quantity, updated_at) values (?, 'extra_storage', 1, ?)").bind(owner.id, Date.now()).run();
    expect((await create(owner.client, { folderId: owner.space.inboxId, name: "big.bin", length: 20 * 1024 * 1024 })).status).toBe(201);
  });

  it("uses the space owner's plan, not the uploader's", async () => {
    const owner = await member("basic");
    const editor = await member("business");
    await addSpaceMember(owner.space.spaceId, editor.id, "editor");
    await setBasicLimit("max_dataroom_storage_mb", 1);
    expect((await create(editor.client, { folderId: owner.space.inboxId, name: "big.bin", length: 2 * 1024 * 1024 })).status).toBe(413);
  });

  it("refuses a new file past the files limit (uploads in progress count) but allows a new version of an existing one", async () => {
    const owner = await member("basic");
    await setBasicLimit("max_dataroom_files", 2);
    await createFile({ spaceId: owner.space.spaceId, folderId: owner.space.inboxId, name: "kept.txt" });
    await createOk(owner.client, { folderId: owner.space.inboxId, name: "pending.txt", length: 5 });
    const before = await snapshot();
    const refused = await create(owner.client, { folderId: owner.space.inboxId, name: "third.txt", length: 5 });
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toBe("Your Basic plan allows 2 files per data room. Upgrade your plan to raise it.");
    expect(await snapshot()).toEqual(before);
    expect((await create(owner.client, { folderId: owner.space.inboxId, name: "kept.txt", length: 5 })).status).toBe(201);
  });

  it("refuses a dropped folder that would pass the folders limit", async () => {
    const owner = await member("basic");
    await setBasicLimit("max_dataroom_folders", 3);
    // Inbox and outbox are two folders already; "A/B" would add two more.
    const before = await snapshot();
    const refused = await create(owner.client, { folderId: owner.space.inboxId, name: "deep.txt", length: 5, relativePath: "A/B" });
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toBe("Your Basic plan allows 3 folders per data room. Upgrade your plan to raise it.");
    expect(await snapshot()).toEqual(before);
    expect((await create(owner.client, { folderId: owner.space.inboxId, name: "deep.txt", length: 5, relativePath: "A" })).status).toBe(201);
  });

  it("keeps whole-folder uploads to plans with bulk_upload", async () => {
    const free = await member("free");
    const refused = await create(free.client, { folderId: free.space.inboxId, name: "a.txt", length: 5, relativePath: "Reports" });
    expect(refused.status).toBe(403);
    expect((await refused.json<{ message: string }>()).message).toContain("bulk_upload");
    expect((await create(free.client, { folderId: free.space.inboxId, name: "a.txt", length: 5 })).status).toBe(201);
  });
});

describe("PATCH: offsets, part sizes and resuming", () => {
  let owner: Member;
  beforeAll(async () => {
    owner = await member("basic");
  });

  it("refuses a wrong Upload-Offset with 409 and the stored offset", async () => {
    const location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "offset.txt", length: 10 });
    const response = await patch(owner.client, location, 5, new TextEncoder().encode("12345"));
    expect(response.status).toBe(409);
    expect(response.headers.get("upload-offset")).toBe("0");
    expect(await uploadRow(idOf(location))).toMatchObject({ offset: 0 });
  });

  it("refuses another content type with 415 and a missing offset with 400", async () => {
    const location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "type.txt", length: 5 });
    const wrongType = await patch(owner.client, location, 0, new TextEncoder().encode("hello"), { "content-type": "application/octet-stream" });
    expect(wrongType.status).toBe(415);
    const noOffset = await call({ method: "PATCH", path: location, client: owner.client, headers: { "content-type": "application/offset+octet-stream" }, body: "hello" });
    expect(noOffset.status).toBe(400);
    expect(await uploadRow(idOf(location))).toMatchObject({ offset: 0, status: "active" });
  });

  it("refuses a chunk that is not whole parts, or longer than what remains, with 413 and the part size", async () => {
    const length = 2 * MIN_PART_SIZE + 1000;
    const location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "aligned.bin", length });
    const misaligned = await patch(owner.client, location, 0, bytes(1000));
    expect(misaligned.status).toBe(413);
    expect(misaligned.headers.get("strongroom-part-size")).toBe(String(MIN_PART_SIZE));
    expect((await misaligned.json<{ message: string }>()).message).toContain(`chunks of exactly ${MIN_PART_SIZE} bytes`);
    const tooLong = await patch(owner.client, location, 0, bytes(1), { "content-length": String(length + 1) }).catch(() => null);
    if (tooLong) expect(tooLong.status).toBe(413);
    expect(await uploadRow(idOf(location))).toMatchObject({ offset: 0, status: "active" });
    const parts = await testEnv.DB.prepare("select count(*) as n from upload_parts where upload_id = ?").bind(idOf(location)).first<{ n: number }>();
    expect(parts!.n).toBe(0);
  });

  it("refuses an oversize or misaligned chunk before reading a byte of its body", async () => {
    const length = 2 * MIN_PART_SIZE;
    const location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "never-read.bin", length });
    let pulls = 0;
    const watched = () =>
      new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulls++;
            controller.enqueue(new Uint8Array(1024));
          },
        },
        { highWaterMark: 0 },
      );
    const attempt = (contentLength: number) =>
      receiveChunk(testContext(), owner.id, idOf(location), {
        offset: "0",
        contentLength: String(contentLength),
        contentType: "application/offset+octet-stream",
        body: watched(),
      }).then(
        () => null,
        (error: unknown) => error,
      );
    const tooLong = await attempt(length + MIN_PART_SIZE);
    expect(tooLong).toBeInstanceOf(AppError);
    expect((tooLong as AppError).status).toBe(413);
    const misaligned = await attempt(MIN_PART_SIZE + 1);
    expect((misaligned as AppError).status).toBe(413);
    expect((misaligned as UploadError).headers["Strongroom-Part-Size"]).toBe(String(MIN_PART_SIZE));
    expect(pulls).toBe(0);
    expect(await uploadRow(idOf(location))).toMatchObject({ offset: 0, status: "active" });
  });

  it("resumes: after two PATCHes HEAD reports the offset, and the last part completes a file of equal parts", async () => {
    const length = 2 * MIN_PART_SIZE + 12_345;
    const content = bytes(length, 7);
    const location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "resume.bin", length });
    expect((await patch(owner.client, location, 0, content.slice(0, MIN_PART_SIZE))).status).toBe(204);
    const second = await patch(owner.client, location, MIN_PART_SIZE, content.slice(MIN_PART_SIZE, 2 * MIN_PART_SIZE));
    expect(second.status).toBe(204);
    expect(second.headers.get("upload-offset")).toBe(String(2 * MIN_PART_SIZE));
    expect(second.headers.get("strongroom-file-id")).toBeNull();

    const head = await call({ method: "HEAD", path: location, client: owner.client });
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe(String(2 * MIN_PART_SIZE));
    expect(head.headers.get("upload-length")).toBe(String(length));

    // A retried PATCH of bytes already stored does not count them twice.
    const replay = await patch(owner.client, location, MIN_PART_SIZE, content.slice(MIN_PART_SIZE, 2 * MIN_PART_SIZE));
    expect(replay.status).toBe(409);
    expect(replay.headers.get("upload-offset")).toBe(String(2 * MIN_PART_SIZE));

    const last = await patch(owner.client, location, 2 * MIN_PART_SIZE, content.slice(2 * MIN_PART_SIZE));
    expect(last.status).toBe(204);
    expect(last.headers.get("upload-offset")).toBe(String(length));
    const fileId = last.headers.get("strongroom-file-id")!;
    const parts = await testEnv.DB.prepare("select part_number as n, size from upload_parts where upload_id = ? order by part_number").bind(idOf(location)).all<{ n: number; size: number }>();
    expect(parts.results).toEqual([
      { n: 1, size: MIN_PART_SIZE },
      { n: 2, size: MIN_PART_SIZE },
      { n: 3, size: 12_345 },
    ]);
    const file = await fileRow(fileId);
    expect(file).toMatchObject({ name: "resume.bin", size: length, contentType: "application/octet-stream", sha256: null });
    const stored = await testEnv.FILES.get(file!.r2Key);
    const storedBytes = new Uint8Array(await stored!.arrayBuffer());
    expect(storedBytes.byteLength).toBe(length);
    expect(await sha256Hex(storedBytes)).toBe(await sha256Hex(content));
  });

  it("answers a PATCH whose connection breaks mid-part with 409 and the stored offset, keeps nothing of that part, and the client resumes from there", async () => {
    const length = 2 * MIN_PART_SIZE + 10;
    const content = bytes(length, 5);
    const location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "broken.bin", length });
    expect((await patch(owner.client, location, 0, content.slice(0, MIN_PART_SIZE))).status).toBe(204);
    // The second part's body: half of it arrives, then the network fails (what workerd raises when a client goes away).
    let sent = 0;
    const breaking = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= MIN_PART_SIZE / 2) return controller.error(new Error("Network connection lost."));
        const chunk = content.slice(MIN_PART_SIZE + sent, MIN_PART_SIZE + sent + 256 * 1024);
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const broken = await call({
      method: "PATCH",
      path: location,
      client: owner.client,
      headers: { "upload-offset": String(MIN_PART_SIZE), "content-type": "application/offset+octet-stream", "content-length": String(MIN_PART_SIZE) },
      body: breaking,
    });
    expect(broken.status).toBe(409);
    expect(broken.headers.get("upload-offset")).toBe(String(MIN_PART_SIZE));
    expect((await broken.json<{ message: string }>()).message).toBe(`The upload was interrupted at byte ${MIN_PART_SIZE}. It resumes from there.`);
    expect(await uploadRow(idOf(location))).toMatchObject({ offset: MIN_PART_SIZE, status: "active" });
    // The client resumes from there and the file is whole.
    expect((await patch(owner.client, location, MIN_PART_SIZE, content.slice(MIN_PART_SIZE, 2 * MIN_PART_SIZE))).status).toBe(204);
    const last = await patch(owner.client, location, 2 * MIN_PART_SIZE, content.slice(2 * MIN_PART_SIZE));
    expect(last.status).toBe(204);
    const file = await fileRow(last.headers.get("strongroom-file-id")!);
    expect(await sha256Hex(new Uint8Array(await (await testEnv.FILES.get(file!.r2Key))!.arrayBuffer()))).toBe(await sha256Hex(content));
  });

  it("splits one PATCH of several parts at the part boundaries", async () => {
    const length = 2 * MIN_PART_SIZE + 10;
    const content = bytes(length, 3);
    const location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "multi.bin", length });
    const response = await patch(owner.client, location, 0, content);
    expect(response.status, await response.clone().text()).toBe(204);
    const parts = await testEnv.DB.prepare("select part_number as n, size from upload_parts where upload_id = ? order by part_number").bind(idOf(location)).all<{ n: number; size: number }>();
    expect(parts.results.map((part) => part.size)).toEqual([MIN_PART_SIZE, MIN_PART_SIZE, 10]);
    const file = await fileRow(response.headers.get("strongroom-file-id")!);
    const stored = new Uint8Array(await (await testEnv.FILES.get(file!.r2Key))!.arrayBuffer());
    expect(await sha256Hex(stored)).toBe(await sha256Hex(content));
  });

  it("hashes a multipart upload in the files.hash job, idempotently", async () => {
    const length = MIN_PART_SIZE + 99;
    const content = bytes(length, 11);
    const fileId = await upload(owner.client, owner.space.inboxId, "hash-me.bin", content);
    const file = await fileRow(fileId);
    expect(file!.sha256).toBeNull();
    const job = await testEnv.DB.prepare("select type, status from jobs where id = ?").bind(hashJobId(file!.r2Key)).first<{ type: string; status: string }>();
    expect(job?.type).toBe("files.hash");
    const message = { jobId: hashJobId(file!.r2Key), type: "files.hash", version: 1, payload: { fileId, r2Key: file!.r2Key } };
    for (let delivery = 0; delivery < 2; delivery++) {
      const batch = createMessageBatch("batch-jobs", [{ id: `hash-${delivery}`, timestamp: new Date(), attempts: 1, body: message }]);
      const ctx = createExecutionContext();
      await worker.queue(batch, testEnv, ctx);
      await waitOnExecutionContext(ctx);
      expect((await getQueueResult(batch, ctx)).retryMessages).toHaveLength(0);
    }
    expect((await fileRow(fileId))!.sha256).toBe(await sha256Hex(content));
  });

  it("tells the uploader the digest of a finished upload", async () => {
    const content = new TextEncoder().encode("digest me");
    const location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "digest.txt", length: content.byteLength });
    expect((await patch(owner.client, location, 0, content)).status).toBe(204);
    const response = await call({ method: "GET", path: location, client: owner.client });
    expect(response.status).toBe(200);
    const body = await response.json<{ offset: number; length: number; fileId: string; sha256: string }>();
    expect(body).toMatchObject({ offset: content.byteLength, length: content.byteLength, sha256: await sha256Hex(content) });
    expect(body.fileId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("hashes a single-part upload while it streams in", async () => {
    const content = bytes(70_000, 5);
    const fileId = await upload(owner.client, owner.space.inboxId, "small.bin", content);
    expect((await fileRow(fileId))!.sha256).toBe(await sha256Hex(content));
  });
});

const PNG_1X1 = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (char) => char.charCodeAt(0),
);

describe("completion: sniffing, versions, folders and retries", () => {
  let owner: Member;
  beforeAll(async () => {
    owner = await member("basic");
  });

  it("sniffs the type from the bytes and ignores the name: a PNG named .pdf is image/png", async () => {
    const fileId = await upload(owner.client, owner.space.inboxId, "invoice.pdf", PNG_1X1);
    expect(await fileRow(fileId)).toMatchObject({ name: "invoice.pdf", contentType: "image/png" });
  });

  it("runs file-type inside workerd for common binary formats", async () => {
    const withHeader = (header: number[]) => {
      const sample = new Uint8Array(64);
      sample.set(header);
      return sample;
    };
    expect(await sniffContentType(new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"), "a.png")).toBe("application/pdf");
    expect(await sniffContentType(withHeader([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]), "a.pdf")).toBe("image/jpeg");
    expect(await sniffContentType(withHeader([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), "a.pdf")).toBe("image/gif");
    expect(await sniffContentType(withHeader([0x1f, 0x8b, 0x08]), "a.txt")).toBe("application/gzip");
  });

  it("recognises HTML and SVG by content whatever the name", async () => {
    const html = await upload(owner.client, owner.space.inboxId, "notes.txt", new TextEncoder().encode("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>"));
    expect((await fileRow(html))!.contentType).toBe("text/html");
    const svg = await upload(
      owner.client,
      owner.space.inboxId,
      "picture.png",
      new TextEncoder().encode('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>'),
    );
    expect((await fileRow(svg))!.contentType).toBe("image/svg+xml");
    const csv = await upload(owner.client, owner.space.inboxId, "table.csv", new TextEncoder().encode("a,b\n1,2\n"));
    expect((await fileRow(csv))!.contentType).toBe("text/csv");
    const binary = await upload(owner.client, owner.space.inboxId, "mystery.txt", bytes(3000, 9));
    expect((await fileRow(binary))!.contentType).toBe("application/octet-stream");
  });

  it("stores an empty file at creation", async () => {
    const response = await create(owner.client, { folderId: owner.space.inboxId, name: "empty.txt", length: 0 });
    expect(response.status).toBe(201);
    const fileId = response.headers.get("strongroom-file-id")!;
    expect(await fileRow(fileId)).toMatchObject({ size: 0, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" });
    const replay = await patch(owner.client, response.headers.get("location")!, 0, new Uint8Array(0));
    expect(replay.status).toBe(204);
    expect(replay.headers.get("strongroom-file-id")).toBe(fileId);
  });

  it("turns a second upload with the same name in the same folder into a new version", async () => {
    const first = await upload(owner.client, owner.space.outboxId, "plan.txt", new TextEncoder().encode("version one"));
    const firstKey = (await fileRow(first))!.r2Key;
    const second = await upload(owner.client, owner.space.outboxId, "plan.txt", new TextEncoder().encode("version two, longer"));
    expect(second).toBe(first);
    const file = await fileRow(first);
    expect(file).toMatchObject({ version: 2, size: 19 });
    expect(file!.r2Key).not.toBe(firstKey);
    const versions = await testEnv.DB.prepare("select version, r2_key as r2Key, size from file_versions where file_id = ?").bind(first).all();
    expect(versions.results).toEqual([{ version: 1, r2Key: firstKey, size: 11 }]);
    expect(await (await testEnv.FILES.get(firstKey))!.text()).toBe("version one");
    const live = await testEnv.DB.prepare("select count(*) as n from files where folder_id = ? and name = 'plan.txt'").bind(owner.space.outboxId).first<{ n: number }>();
    expect(live!.n).toBe(1);
  });

  it("creates the folders of a dropped folder once, even for uploads completing together", async () => {
    const before = await snapshot();
    const [a, b] = await Promise.all([
      upload(owner.client, owner.space.inboxId, "a.txt", new TextEncoder().encode("a"), "Reports/2026"),
      upload(owner.client, owner.space.inboxId, "b.txt", new TextEncoder().encode("b"), "Reports/2026"),
    ]);
    const c = await upload(owner.client, owner.space.inboxId, "c.txt", new TextEncoder().encode("c"), "Reports");
    expect((await snapshot()).folders).toBe(before.folders + 2);
    const reports = await testEnv.DB.prepare("select id from folders where parent_id = ? and label = 'Reports'").bind(owner.space.inboxId).all<{ id: string }>();
    expect(reports.results).toHaveLength(1);
    const year = await testEnv.DB.prepare("select id from folders where parent_id = ? and label = '2026'").bind(reports.results[0]!.id).first<{ id: string }>();
    expect((await fileRow(a))!.folderId).toBe(year!.id);
    expect((await fileRow(b))!.folderId).toBe(year!.id);
    expect((await fileRow(c))!.folderId).toBe(reports.results[0]!.id);
  });

  it("completes an interrupted completion when the client asks again, exactly once", async () => {
    const folder = await testEnv.DB.prepare("insert into folders (id, space_id, parent_id, kind, label, created_at, updated_at) values (?, ?, ?, 'regular', 'Later', ?, ?) returning id")
      .bind(crypto.randomUUID(), owner.space.spaceId, owner.space.rootId, Date.now(), Date.now())
      .first<{ id: string }>();
    const location = await createOk(owner.client, { folderId: folder!.id, name: "retry.txt", length: 5 });
    // The folder goes to the trash while the bytes are on their way: completion cannot finish.
    await testEnv.DB.prepare("update folders set trashed_at = ? where id = ?").bind(Date.now(), folder!.id).run();
    const failed = await patch(owner.client, location, 0, new TextEncoder().encode("hello"));
    expect(failed.status).toBe(404);
    expect(await uploadRow(idOf(location))).toMatchObject({ offset: 5, status: "completing", fileId: null });
    // Restored: the client's resume (HEAD) completes it, and every later ask names the same file.
    await testEnv.DB.prepare("update folders set trashed_at = null where id = ?").bind(folder!.id).run();
    const before = await snapshot();
    const head = await call({ method: "HEAD", path: location, client: owner.client });
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe("5");
    const fileId = head.headers.get("strongroom-file-id")!;
    expect(fileId).toBeTruthy();
    const again = await patch(owner.client, location, 5, new Uint8Array(0));
    expect(again.status).toBe(204);
    expect(again.headers.get("strongroom-file-id")).toBe(fileId);
    const headAgain = await call({ method: "HEAD", path: location, client: owner.client });
    expect(headAgain.headers.get("strongroom-file-id")).toBe(fileId);
    expect(await snapshot()).toEqual({ ...before, files: before.files + 1 });
    expect(await fileRow(fileId)).toMatchObject({ name: "retry.txt", folderId: folder!.id, size: 5 });
  });
});

describe("termination and expiry", () => {
  let owner: Member;
  beforeAll(async () => {
    owner = await member("basic");
  });

  it("DELETE aborts the R2 multipart upload and removes the upload and its parts", async () => {
    const length = MIN_PART_SIZE + 10;
    const location = await createOk(owner.client, { folderId: owner.space.inboxId, name: "abort.bin", length });
    expect((await patch(owner.client, location, 0, bytes(MIN_PART_SIZE))).status).toBe(204);
    const row = await uploadRow(idOf(location));
    const response = await call({ method: "DELETE", path: location, client: owner.client });
    expect(response.status).toBe(204);
    expect(await uploadRow(idOf(location))).toBeNull();
    const parts = await testEnv.DB.prepare("select count(*) as n from upload_parts where upload_id = ?").bind(idOf(location)).first<{ n: number }>();
    expect(parts!.n).toBe(0);
    const multipart = testEnv.FILES.resumeMultipartUpload(row!.r2Key, row!.r2UploadId!);
    await expect(multipart.uploadPart(2, new Uint8Array(10))).rejects.toThrow();
    expect(await testEnv.FILES.head(row!.r2Key)).toBeNull();
    expect((await call({ method: "HEAD", path: location, client: owner.client })).status).toBe(404);
  });

  it("abortExpiredUploads aborts unfinished uploads past their expiry, forgets finished ones, and can run twice", async () => {
    const stale = await createOk(owner.client, { folderId: owner.space.inboxId, name: "stale.bin", length: MIN_PART_SIZE + 1 });
    expect((await patch(owner.client, stale, 0, bytes(MIN_PART_SIZE))).status).toBe(204);
    const fresh = await createOk(owner.client, { folderId: owner.space.inboxId, name: "fresh.bin", length: 5 });
    const done = await createOk(owner.client, { folderId: owner.space.inboxId, name: "done.txt", length: 5 });
    const doneFile = (await patch(owner.client, done, 0, new TextEncoder().encode("hello"))).headers.get("strongroom-file-id")!;
    const staleRow = await uploadRow(idOf(stale));

    const later = new Date(Date.now() + UPLOAD_EXPIRY_MS + 60_000);
    await testEnv.DB.prepare("update uploads set expires_at = ? where id = ?").bind(Date.now() + 2 * UPLOAD_EXPIRY_MS, idOf(fresh)).run();
    const first = await abortExpiredUploads(testContext(), later);
    expect(first.aborted).toBeGreaterThanOrEqual(1);
    expect(first.forgotten).toBeGreaterThanOrEqual(1);
    expect(await uploadRow(idOf(stale))).toBeNull();
    expect(await uploadRow(idOf(done))).toBeNull();
    expect(await uploadRow(idOf(fresh))).not.toBeNull();
    expect(await fileRow(doneFile)).not.toBeNull();
    await expect(testEnv.FILES.resumeMultipartUpload(staleRow!.r2Key, staleRow!.r2UploadId!).uploadPart(2, new Uint8Array(1))).rejects.toThrow();
    expect(await abortExpiredUploads(testContext(), later)).toEqual({ aborted: 0, forgotten: 0, hasMore: false });
    // The client of an expired upload learns it is gone.
    expect((await call({ method: "HEAD", path: stale, client: owner.client })).status).toBe(404);
  });
});
