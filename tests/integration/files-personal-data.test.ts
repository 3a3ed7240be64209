import { describe, expect, it } from "vitest";
import { filesPersonalData } from "~/features/files/personal-data.server";
import { deleteItems } from "~/features/files/trash.server";
import { personalDataSources, accountSource } from "~/features/personal-data/registry.server";
import { addSpaceMember, createFile, personalSpaceOf, testContext } from "~tests/factories/files";
import { createUser } from "~tests/factories/users";
import { testEnv } from "./helpers";

async function makeFolder(spaceId: string, parentId: string, label: string, createdBy: string | null = null): Promise<string> {
  const id = crypto.randomUUID();
  const now = Date.UTC(2026, 0, 2, 3, 4, 5);
  await testEnv.DB.prepare(
    "insert into folders (id, space_id, parent_id, kind, label, color, created_by, created_at, updated_at) values (?, ?, ?, 'regular', ?, '#336699', ?, ?, ?)",
  )
    .bind(id, spaceId, parentId, label, createdBy, now, now)
    .run();
  return id;
}

type ExportedFile = { name: string; size: number; type: string; space: string; folder: string; uploadedByYou: boolean; createdAt: string; trashedAt: string | null };
type ExportedFolder = { path: string; kind: string; color: string | null; createdByYou: boolean };

describe("the files personal data source", () => {
  it("is registered above accounts, so the users row still exists while it runs", () => {
    const index = personalDataSources.indexOf(filesPersonalData);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(index).toBeLessThan(personalDataSources.indexOf(accountSource));
  });

  it("exports nothing for a member who never used files", async () => {
    const user = await createUser();
    expect(await filesPersonalData.export(testContext(), user.id)).toEqual([]);
  });

  it("exports the member's files with their folder paths and dates, and their folders, trashed ones included", async () => {
    const user = await createUser();
    const space = await personalSpaceOf(user.id);
    const reports = await makeFolder(space.spaceId, space.rootId, "Reports", user.id);
    const year = await makeFolder(space.spaceId, reports, "2026", user.id);
    await createFile({ spaceId: space.spaceId, folderId: year, name: "q1.pdf", content: "%PDF-1.7 quarter", contentType: "application/pdf", uploadedBy: user.id, createdAt: new Date(Date.UTC(2026, 2, 1)) });
    const old = await createFile({ spaceId: space.spaceId, folderId: space.inboxId, name: "old.txt", uploadedBy: user.id });
    await deleteItems(testContext(), user.id, { items: [{ type: "file", id: old.id }] });

    // A file the member uploaded into someone else's space is theirs to see too (without that space's other files).
    const other = await createUser();
    const otherSpace = await personalSpaceOf(other.id);
    await addSpaceMember(otherSpace.spaceId, user.id, "editor");
    await createFile({ spaceId: otherSpace.spaceId, folderId: otherSpace.rootId, name: "contribution.txt", uploadedBy: user.id });
    await createFile({ spaceId: otherSpace.spaceId, folderId: otherSpace.rootId, name: "not-mine.txt", uploadedBy: other.id });

    const records = await filesPersonalData.export(testContext(), user.id);
    expect(records.map((record) => record.path)).toEqual(["files/files.json", "files/folders.json"]);
    for (const record of records) expect(record.description).toMatch(/^Your /);

    const files = records[0]!.data as ExportedFile[];
    expect(files.map((file) => file.name).sort()).toEqual(["contribution.txt", "old.txt", "q1.pdf"]);
    expect(files.find((file) => file.name === "q1.pdf")).toMatchObject({
      size: 16,
      type: "application/pdf",
      space: "My files",
      folder: "Reports/2026",
      uploadedByYou: true,
      createdAt: "2026-03-01T00:00:00.000Z",
      trashedAt: null,
    });
    expect(files.find((file) => file.name === "old.txt")).toMatchObject({ folder: "Inbox", trashedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect(files.find((file) => file.name === "contribution.txt")).toMatchObject({ folder: "", uploadedByYou: true });

    const folders = records[1]!.data as ExportedFolder[];
    expect(folders.filter((folder) => folder.createdByYou).map((folder) => folder.path)).toEqual(["Inbox", "Outbox", "Reports", "Reports/2026"]);
    expect(folders.find((folder) => folder.path === "Reports/2026")).toMatchObject({ kind: "regular", color: "#336699" });
    expect(JSON.stringify(records)).not.toContain("not-mine.txt");
    // No storage keys or internal ids leave in the export.
    const data = JSON.stringify(records.map((record) => record.data));
    expect(data).not.toContain(`files/${space.spaceId}`);
    expect(data).not.toContain(space.rootId);
  });

  it("erase returns the R2 keys of every file, version and upload in the spaces the member owns, and nothing of other spaces", async () => {
    const user = await createUser();
    const space = await personalSpaceOf(user.id);
    const kept = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "kept.txt", uploadedBy: user.id });
    const trashed = await createFile({ spaceId: space.spaceId, folderId: space.rootId, name: "trashed.txt", uploadedBy: user.id });
    await deleteItems(testContext(), user.id, { items: [{ type: "file", id: trashed.id }] });
    const versionKey = `files/${space.spaceId}/${crypto.randomUUID()}`;
    await testEnv.DB.prepare(
      "insert into file_versions (id, file_id, space_id, version, r2_key, size, content_type, created_at) values (?, ?, ?, 1, ?, 5, 'text/plain', ?)",
    )
      .bind(crypto.randomUUID(), kept.id, space.spaceId, versionKey, Date.now())
      .run();

    const other = await createUser();
    const otherSpace = await personalSpaceOf(other.id);
    await addSpaceMember(otherSpace.spaceId, user.id, "editor");
    const elsewhere = await createFile({ spaceId: otherSpace.spaceId, folderId: otherSpace.rootId, name: "room.txt", uploadedBy: user.id });

    const before = await testEnv.DB.prepare("select count(*) as n from files").first<{ n: number }>();
    const { r2Keys } = await filesPersonalData.erase(testContext(), user.id);
    expect([...r2Keys].sort()).toEqual([kept.r2Key, trashed.r2Key, versionKey].sort());
    expect(r2Keys).not.toContain(elsewhere.r2Key);
    // The rows go with the users row (by cascade), not here.
    expect(await testEnv.DB.prepare("select count(*) as n from files").first<{ n: number }>()).toEqual(before);

    await testEnv.DB.prepare("delete from users where id = ?").bind(user.id).run();
    const left = await testEnv.DB.prepare("select count(*) as n from files where space_id = ?").bind(space.spaceId).first<{ n: number }>();
    expect(left).toEqual({ n: 0 });
    expect(await testEnv.DB.prepare("select count(*) as n from file_versions where r2_key = ?").bind(versionKey).first<{ n: number }>()).toEqual({ n: 0 });
    expect(await testEnv.DB.prepare("select uploaded_by as uploadedBy from files where id = ?").bind(elsewhere.id).first()).toEqual({ uploadedBy: null });
  });
});
