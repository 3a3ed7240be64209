import { describe, expect, it } from "vitest";
import { categoryOf, getStorageOverview, spaceUsage } from "~/features/files/storage.server";
import { createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { createUser } from "~tests/factories/users";
import { testEnv } from "./helpers";

/** Storage usage and quotas of a space (the upload checks and the storage settings page). */

const MB = 1024 * 1024;

async function memberOn(tier: string) {
  const user = await createUser();
  await testEnv.DB.prepare("update users set tier = ? where id = ?").bind(tier, user.id).run();
  return { user, space: await personalSpaceOf(user.id) };
}

async function addVersion(fileId: string, spaceId: string, size: number) {
  await testEnv.DB.prepare(
    "insert into file_versions (id, file_id, space_id, version, r2_key, size, content_type, created_at) values (?, ?, ?, 1, ?, ?, 'text/plain', ?)",
  )
    .bind(crypto.randomUUID(), fileId, spaceId, `files/${spaceId}/${crypto.randomUUID()}`, size, Date.now())
    .run();
}

async function addActiveUpload(spaceId: string, folderId: string, userId: string, length: number, status = "active") {
  await testEnv.DB.prepare(
    `insert into uploads (id, space_id, folder_id, user_id, name, length, part_size, r2_key, status, created_at, updated_at, expires_at)
     values (?, ?, ?, ?, 'pending.bin', ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(crypto.randomUUID(), spaceId, folderId, userId, length, 8 * MB, `files/${spaceId}/${crypto.randomUUID()}`, status, Date.now(), Date.now(), Date.now() + 60_000)
    .run();
}

describe("a space's storage usage", () => {
  it("counts live files, earlier versions, the trash and uploads in progress, but not finished uploads", async () => {
    const { user, space } = await memberOn("basic");
    const live = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, content: new Uint8Array(1000), contentType: "application/pdf" });
    const trashed = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, content: new Uint8Array(300), contentType: "image/png" });
    await testEnv.DB.prepare("update files set trashed_at = ? where id = ?").bind(Date.now(), trashed.id).run();
    await addVersion(live.id, space.spaceId, 200);
    await addActiveUpload(space.spaceId, space.inboxId, user.id, 5000);
    await addActiveUpload(space.spaceId, space.inboxId, user.id, 7000, "completed");

    const usage = await spaceUsage(testContext(), space.spaceId);
    expect(usage).toMatchObject({ fileBytes: 1300, trashedBytes: 300, versionBytes: 200, reservedBytes: 5000, fileCount: 2, activeUploads: 1, folderCount: 2 });
    expect(usage.usedBytes).toBe(1300 + 200 + 5000);
    expect(usage.quotaBytes).toBe(10240 * MB);
    expect(usage.tier).toBe("basic");
  });

  it("takes the quota from the owner's plan plus 1024 MB per extra_storage unit, and -1 as unlimited", async () => {
    const { user, space } = await memberOn("free");
    expect((await spaceUsage(testContext(), space.spaceId)).quotaBytes).toBe(1024 * MB);
    await testEnv.DB.prepare("insert into user_addons (user_id, addon, quantity, updated_at) values (?, 'extra_storage', 2, ?)").bind(user.id, Date.now()).run();
    expect((await spaceUsage(testContext(), space.spaceId)).quotaBytes).toBe(3 * 1024 * MB);
    const custom = await memberOn("custom");
    expect((await spaceUsage(testContext(), custom.space.spaceId)).quotaBytes).toBeNull();
  });
});

describe("the storage settings overview", () => {
  it("breaks usage down by type, with versions, trash and uploads apart, adding up to what is used", async () => {
    const { user, space } = await memberOn("pro");
    await createFile({ spaceId: space.spaceId, folderId: space.inboxId, content: new Uint8Array(4000), contentType: "application/pdf" });
    await createFile({ spaceId: space.spaceId, folderId: space.inboxId, content: new Uint8Array(1000), contentType: "text/csv" });
    await createFile({ spaceId: space.spaceId, folderId: space.outboxId, content: new Uint8Array(2500), contentType: "image/jpeg" });
    await createFile({ spaceId: space.spaceId, folderId: space.outboxId, content: new Uint8Array(600), contentType: "video/mp4" });
    await createFile({ spaceId: space.spaceId, folderId: space.outboxId, content: new Uint8Array(50), contentType: "application/zip" });
    await createFile({ spaceId: space.spaceId, folderId: space.outboxId, content: new Uint8Array(70), contentType: "application/octet-stream" });
    const trashed = await createFile({ spaceId: space.spaceId, folderId: space.outboxId, content: new Uint8Array(900), contentType: "image/png" });
    await testEnv.DB.prepare("update files set trashed_at = ? where id = ?").bind(Date.now(), trashed.id).run();
    await addActiveUpload(space.spaceId, space.inboxId, user.id, 333);

    const overview = await getStorageOverview(testContext(), user.id);
    expect(overview.tier).toBe("pro");
    expect(overview.tierLabel).toBe("Pro");
    expect(overview.spaces).toHaveLength(1);
    const [personal] = overview.spaces;
    expect(personal!.kind).toBe("personal");
    const byKey = Object.fromEntries(personal!.breakdown.map((item) => [item.key, { bytes: item.bytes, files: item.files }]));
    expect(byKey).toEqual({
      documents: { bytes: 5000, files: 2 },
      images: { bytes: 2500, files: 1 },
      videos: { bytes: 600, files: 1 },
      audio: { bytes: 0, files: 0 },
      archives: { bytes: 50, files: 1 },
      other: { bytes: 70, files: 1 },
      versions: { bytes: 0, files: null },
      trash: { bytes: 900, files: null },
      uploads: { bytes: 333, files: null },
    });
    const sum = personal!.breakdown.reduce((total, item) => total + item.bytes, 0);
    expect(sum).toBe(personal!.usedBytes);
    expect(personal!.quotaBytes).toBe(51200 * MB);
    expect(personal!.fileLimit).toBe(10000);
  });

  it("lists only the spaces the member owns", async () => {
    const { user } = await memberOn("free");
    const other = await memberOn("free");
    await testEnv.DB.prepare("insert into space_members (space_id, user_id, role, created_at) values (?, ?, 'editor', ?)").bind(other.space.spaceId, user.id, Date.now()).run();
    const overview = await getStorageOverview(testContext(), user.id);
    expect(overview.spaces.map((space) => space.kind)).toEqual(["personal"]);
    expect(overview.spaces[0]!.spaceId).not.toBe(other.space.spaceId);
  });

  it("sorts sniffed types into the page's categories", () => {
    expect(categoryOf("application/pdf")).toBe("documents");
    expect(categoryOf("application/vnd.openxmlformats-officedocument.wordprocessingml.document")).toBe("documents");
    expect(categoryOf("text/markdown")).toBe("documents");
    expect(categoryOf("image/svg+xml")).toBe("images");
    expect(categoryOf("audio/mpeg")).toBe("audio");
    expect(categoryOf("application/x-7z-compressed")).toBe("archives");
    expect(categoryOf("application/x-msdownload")).toBe("other");
  });
});
