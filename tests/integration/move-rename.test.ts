import { beforeAll, describe, expect, it } from "vitest";
import { FOLDER_DEPTH_MAX } from "~/features/files/files.constants";
import { movedName } from "~/features/files/move.server";
import { addDataroomMember } from "~tests/factories/datarooms";
import { addSpaceMember, createFile, personalSpaceOf, makeFolder } from "~tests/factories/files";
import { createRoom, get, send, signedIn, type Person } from "./dataroom-helpers";
import { newAuthClient, testEnv, type ErrorBody } from "./helpers";

/**
 * Moving files and folders (POST /api/items/move) and renaming files (PATCH /api/files/{id}):
 * within one space, never into itself, names kept apart, the authorization matrix (S6) with the
 * database unchanged after every refusal, and the room's permissions decided by its authority.
 */

type Space = Awaited<ReturnType<typeof personalSpaceOf>>;
type Owner = Person & { space: Space };
type MoveBody = { moved: number; targetFolderId: string; items: { type: string; id: string; name: string }[] };
type ValidationBody = ErrorBody & { fieldErrors?: Record<string, string[]> };

async function owner(options: { tier?: string } = {}): Promise<Owner> {
  const person = await signedIn(options);
  return { ...person, space: await personalSpaceOf(person.id) };
}

async function fileRow(id: string) {
  return testEnv.DB.prepare("select folder_id as folderId, name, updated_at as updatedAt from files where id = ?").bind(id).first<{ folderId: string; name: string; updatedAt: number }>();
}

async function folderRow(id: string) {
  return testEnv.DB.prepare("select parent_id as parentId, label, updated_at as updatedAt from folders where id = ?").bind(id).first<{ parentId: string; label: string; updatedAt: number }>();
}

/** The member's client, or a signed-out visitor's (a CSRF token and no session) for `null`. */
const clientOf = async (person: Person | null) => person?.client ?? (await newAuthClient());
const move = async (person: Person | null, items: { type: "file" | "folder"; id: string }[], targetFolderId: string) =>
  send(await clientOf(person), "POST", "/api/items/move", { items, targetFolderId });
const rename = async (person: Person | null, fileId: string, name: unknown) => send(await clientOf(person), "PATCH", `/api/files/${fileId}`, { name });

async function json<T>(response: Response, status: number): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return response.json<T>();
}

describe("moving files and folders within a space", () => {
  let me: Owner;
  beforeAll(async () => {
    me = await owner();
  });

  it("moves a file and a folder with everything in it into another folder", async () => {
    const archive = await makeFolder(me.space.spaceId, me.space.rootId, "Archive");
    const reports = await makeFolder(me.space.spaceId, me.space.rootId, "Reports");
    const q1 = await makeFolder(me.space.spaceId, reports, "Q1");
    const inside = await createFile({ spaceId: me.space.spaceId, folderId: q1, name: "q1.pdf" });
    const loose = await createFile({ spaceId: me.space.spaceId, folderId: me.space.rootId, name: "notes.txt", content: "my notes" });

    const body = await json<MoveBody>(
      await move(me, [
        { type: "folder", id: reports },
        { type: "file", id: loose.id },
      ], archive),
      200,
    );
    expect(body.moved).toBe(2);
    expect((await folderRow(reports))?.parentId).toBe(archive);
    expect((await fileRow(loose.id))?.folderId).toBe(archive);
    // The subtree came along untouched: the subfolder and its file are still where they were inside it.
    expect((await folderRow(q1))?.parentId).toBe(reports);
    expect((await fileRow(inside.id))?.folderId).toBe(q1);

    // The folder page lists what arrived, and the file's bytes are the same.
    const page = await json<{ folders: { label: string }[]; files: { name: string }[] }>(await get(`/api/folders/${archive}`, me.client), 200);
    expect(page.folders.map((folder) => folder.label)).toEqual(["Reports"]);
    expect(page.files.map((file) => file.name)).toEqual(["notes.txt"]);
    expect(await (await get(`/api/files/${loose.id}/download`, me.client)).text()).toBe("my notes");
  });

  it("keeps both when the name is taken in the target: “report (2).pdf”, then “report (3).pdf”", async () => {
    const target = await makeFolder(me.space.spaceId, me.space.rootId, "Target");
    const elsewhere = await makeFolder(me.space.spaceId, me.space.rootId, "Elsewhere");
    await createFile({ spaceId: me.space.spaceId, folderId: target, name: "report.pdf" });
    const first = await createFile({ spaceId: me.space.spaceId, folderId: me.space.rootId, name: "report.pdf" });
    const second = await createFile({ spaceId: me.space.spaceId, folderId: elsewhere, name: "report.pdf" });
    await makeFolder(me.space.spaceId, target, "Plans");
    const plans = await makeFolder(me.space.spaceId, me.space.rootId, "Plans");

    const body = await json<MoveBody>(
      await move(me, [
        { type: "file", id: first.id },
        { type: "file", id: second.id },
        { type: "folder", id: plans },
      ], target),
      200,
    );
    expect(body.items.map((item) => item.name).sort()).toEqual(["Plans (2)", "report (2).pdf", "report (3).pdf"]);
    expect((await fileRow(first.id))?.name).toBe("report (2).pdf");
    expect((await fileRow(second.id))?.name).toBe("report (3).pdf");
    expect((await folderRow(plans))?.label).toBe("Plans (2)");
  });

  it("names a moved copy within the length limit, before the extension", () => {
    expect(movedName("report.pdf", "file", 0)).toBe("report.pdf");
    expect(movedName("report.pdf", "file", 1)).toBe("report (2).pdf");
    expect(movedName("Reports", "folder", 2)).toBe("Reports (3)");
    expect(movedName("x".repeat(255), "file", 1)).toHaveLength(255);
  });

  it("does nothing for items already in the target folder", async () => {
    const folder = await makeFolder(me.space.spaceId, me.space.rootId, "Already here");
    const file = await createFile({ spaceId: me.space.spaceId, folderId: folder, name: "stay.txt" });
    const before = await fileRow(file.id);
    const body = await json<MoveBody>(await move(me, [{ type: "file", id: file.id }], folder), 200);
    expect(body.moved).toBe(0);
    expect(await fileRow(file.id)).toEqual(before);
  });

  it("refuses to put a folder into itself or one of its own subfolders, and changes nothing", async () => {
    const parent = await makeFolder(me.space.spaceId, me.space.rootId, "Parent");
    const child = await makeFolder(me.space.spaceId, parent, "Child");
    const grandchild = await makeFolder(me.space.spaceId, child, "Grandchild");
    const file = await createFile({ spaceId: me.space.spaceId, folderId: me.space.rootId, name: "goes-nowhere.txt" });
    for (const target of [parent, grandchild]) {
      const refused = await json<ErrorBody>(await move(me, [{ type: "file", id: file.id }, { type: "folder", id: parent }], target), 400);
      expect(refused.message).toBe("“Parent” cannot be moved into itself or one of its own subfolders.");
    }
    expect((await folderRow(parent))?.parentId).toBe(me.space.rootId);
    expect((await fileRow(file.id))?.folderId).toBe(me.space.rootId);
  });

  it(`refuses a move that would nest folders more than ${FOLDER_DEPTH_MAX} deep`, async () => {
    let deepest = me.space.rootId;
    for (let level = 1; level <= FOLDER_DEPTH_MAX - 1; level++) deepest = await makeFolder(me.space.spaceId, deepest, `Level ${level}`);
    const shallow = await makeFolder(me.space.spaceId, me.space.rootId, "Two levels");
    await makeFolder(me.space.spaceId, shallow, "Below");
    const refused = await json<ErrorBody>(await move(me, [{ type: "folder", id: shallow }], deepest), 400);
    expect(refused.message).toBe(`“Two levels” would be more than ${FOLDER_DEPTH_MAX} folders deep there. Choose a folder nearer the top.`);
    expect((await folderRow(shallow))?.parentId).toBe(me.space.rootId);
    // One level fewer fits exactly.
    const leaf = await makeFolder(me.space.spaceId, me.space.rootId, "Leaf");
    expect((await move(me, [{ type: "folder", id: leaf }], deepest)).status).toBe(200);
  });

  it("keeps the Inbox, the Outbox and the top folder where they are", async () => {
    const target = await makeFolder(me.space.spaceId, me.space.rootId, "Not for the inbox");
    for (const id of [me.space.inboxId, me.space.outboxId, me.space.rootId]) {
      const refused = await json<ErrorBody>(await move(me, [{ type: "folder", id }], target), 403);
      expect(refused.message).toBe("The Inbox, the Outbox and the top folder of a space cannot be moved.");
    }
    expect((await folderRow(me.space.inboxId))?.parentId).toBe(me.space.rootId);
  });

  it("refuses items of another space and items in the trash, with what to do instead", async () => {
    const room = await createRoom((await owner({ tier: "pro" })).client, "Other space");
    const roomOwner = await testEnv.DB.prepare("select owner_id as id from datarooms where id = ?").bind(room.id).first<{ id: string }>();
    await addDataroomMember(room.id, me.id, "member");
    const roomFile = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "room-only.pdf", uploadedBy: roomOwner!.id });
    const across = await json<ErrorBody>(await move(me, [{ type: "file", id: roomFile.id }], me.space.rootId), 400);
    expect(across.message).toBe(
      "“room-only.pdf” is in another space. Items move within a data room or within your own files; to put a copy there, download it and upload it there.",
    );
    expect((await fileRow(roomFile.id))?.folderId).toBe(room.rootFolderId);

    const trashed = await createFile({ spaceId: me.space.spaceId, folderId: me.space.rootId, name: "binned.txt" });
    expect((await send(me.client, "POST", "/api/items/delete", { items: [{ type: "file", id: trashed.id }] })).status).toBe(200);
    const target = await makeFolder(me.space.spaceId, me.space.rootId, "Bin target");
    const inTrash = await json<ErrorBody>(await move(me, [{ type: "file", id: trashed.id }], target), 400);
    expect(inTrash.message).toBe("“binned.txt” is in the trash. Restore it first.");
  });

  it("explains a malformed request", async () => {
    const noTarget = await json<ValidationBody>(await send(me.client, "POST", "/api/items/move", { items: [{ type: "file", id: crypto.randomUUID() }] }), 400);
    expect(noTarget.fieldErrors?.targetFolderId).toEqual(["That is not a valid id."]);
    const tooMany = Array.from({ length: 101 }, () => ({ type: "file" as const, id: crypto.randomUUID() }));
    const many = await json<ValidationBody>(await move(me, tooMany, me.space.rootId), 400);
    expect(many.fieldErrors?.items).toEqual(["At most 100 items can be changed at a time."]);
  });
});

describe("who may move", () => {
  let host: Owner;
  let outsider: Owner;
  let viewer: Person;
  let editor: Person;
  let source: string;
  let target: string;
  let fileId: string;
  beforeAll(async () => {
    [host, outsider, viewer, editor] = await Promise.all([owner(), owner(), signedIn(), signedIn()]);
    await addSpaceMember(host.space.spaceId, viewer.id, "viewer");
    await addSpaceMember(host.space.spaceId, editor.id, "editor");
    source = await makeFolder(host.space.spaceId, host.space.rootId, "Source");
    target = await makeFolder(host.space.spaceId, host.space.rootId, "Destination");
    fileId = (await createFile({ spaceId: host.space.spaceId, folderId: source, name: "contract.pdf" })).id;
  });

  it("answers a signed-out visitor 401, an outsider 404 and a viewer 403, and nothing moves", async () => {
    const before = await fileRow(fileId);
    expect((await move(null, [{ type: "file", id: fileId }], target)).status).toBe(401);
    // An outsider learns nothing: the target, the item, or both in someone else's space.
    const ownTarget = await makeFolder(outsider.space.spaceId, outsider.space.rootId, "Mine");
    expect((await move(outsider, [{ type: "file", id: fileId }], target)).status).toBe(404);
    expect((await move(outsider, [{ type: "file", id: fileId }], ownTarget)).status).toBe(404);
    const viewerRefused = await json<ErrorBody>(await move(viewer, [{ type: "file", id: fileId }], target), 403);
    expect(viewerRefused.message).toBe("You don't have permission to change these files and folders.");
    expect(await fileRow(fileId)).toEqual(before);
  });

  it("lets an editor and the owner move", async () => {
    expect((await move(editor, [{ type: "file", id: fileId }], target)).status).toBe(200);
    expect((await fileRow(fileId))?.folderId).toBe(target);
    expect((await move(host, [{ type: "file", id: fileId }], source)).status).toBe(200);
    expect((await fileRow(fileId))?.folderId).toBe(source);
  });

  it("in a data room: a guest is refused, a member with edit moves, and losing edit refuses the very next move", async () => {
    const roomOwner = await signedIn({ tier: "pro" });
    const [guest, member] = await Promise.all([signedIn(), signedIn()]);
    const room = await createRoom(roomOwner.client, "Move room");
    await addDataroomMember(room.id, guest.id, "guest");
    await addDataroomMember(room.id, member.id, "member");
    const folder = await makeFolder(room.id, room.rootFolderId, "Due diligence");
    const file = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "term-sheet.pdf" });

    expect((await move(guest, [{ type: "file", id: file.id }], folder)).status).toBe(403);
    expect((await fileRow(file.id))?.folderId).toBe(room.rootFolderId);
    expect((await move(member, [{ type: "file", id: file.id }], folder)).status).toBe(200);
    expect((await fileRow(file.id))?.folderId).toBe(folder);

    const revoked = await send(roomOwner.client, "DELETE", `/api/datarooms/${room.id}/permissions`, { user_id: member.id, permission: "edit" });
    expect(revoked.status).toBe(200);
    expect((await move(member, [{ type: "file", id: file.id }], room.rootFolderId)).status).toBe(403);
    expect((await fileRow(file.id))?.folderId).toBe(folder);
  });
});

describe("renaming a file", () => {
  let host: Owner;
  let outsider: Owner;
  let viewer: Person;
  let editor: Person;
  beforeAll(async () => {
    [host, outsider, viewer, editor] = await Promise.all([owner(), owner(), signedIn(), signedIn()]);
    await addSpaceMember(host.space.spaceId, viewer.id, "viewer");
    await addSpaceMember(host.space.spaceId, editor.id, "editor");
  });

  it("gives the file its new name, and downloads carry it", async () => {
    const file = await createFile({ spaceId: host.space.spaceId, folderId: host.space.rootId, name: "scan0001.pdf", content: "%PDF-1.4" });
    const body = await json<{ message: string; file: { id: string; name: string } }>(await rename(host, file.id, "  Signed lease.pdf "), 200);
    expect(body).toMatchObject({ message: "File renamed", file: { id: file.id, name: "Signed lease.pdf" } });
    expect((await fileRow(file.id))?.name).toBe("Signed lease.pdf");
    const download = await get(`/api/files/${file.id}/download`, host.client);
    expect(download.headers.get("content-disposition")).toContain("Signed%20lease.pdf");
  });

  it("refuses a name another file in the folder has, and says so on the field", async () => {
    await createFile({ spaceId: host.space.spaceId, folderId: host.space.rootId, name: "budget.xlsx" });
    const file = await createFile({ spaceId: host.space.spaceId, folderId: host.space.rootId, name: "budget-draft.xlsx" });
    const refused = await json<ValidationBody>(await rename(host, file.id, "budget.xlsx"), 400);
    expect(refused.message).toBe("A file named “budget.xlsx” is already in this folder. Choose another name.");
    expect(refused.fieldErrors?.name).toEqual(["A file named “budget.xlsx” is already in this folder. Choose another name."]);
    expect((await fileRow(file.id))?.name).toBe("budget-draft.xlsx");
    // Its own name again is not a conflict.
    expect((await rename(host, file.id, "budget-draft.xlsx")).status).toBe(200);
  });

  it("explains names it cannot take", async () => {
    const file = await createFile({ spaceId: host.space.spaceId, folderId: host.space.rootId, name: "keep.txt" });
    const cases: [unknown, string][] = [
      ["   ", "The file needs a name."],
      ["a/b.txt", "A file name cannot contain / or \\ or control characters."],
      ["..", "That is not a valid file name."],
      ["x".repeat(256), "A file name is at most 255 characters."],
      [42, "The file needs a name."],
    ];
    for (const [name, message] of cases) {
      const refused = await json<ValidationBody>(await rename(host, file.id, name), 400);
      expect(refused.fieldErrors?.name).toEqual([message]);
    }
    expect((await fileRow(file.id))?.name).toBe("keep.txt");
  });

  it("answers a signed-out visitor 401, an outsider 404 and a viewer 403, lets an editor rename, and a trashed file is not found", async () => {
    const file = await createFile({ spaceId: host.space.spaceId, folderId: host.space.rootId, name: "private.txt" });
    expect((await rename(null, file.id, "hacked.txt")).status).toBe(401);
    expect((await rename(outsider, file.id, "hacked.txt")).status).toBe(404);
    expect((await rename(viewer, file.id, "hacked.txt")).status).toBe(403);
    expect((await fileRow(file.id))?.name).toBe("private.txt");
    expect((await rename(editor, file.id, "shared.txt")).status).toBe(200);
    expect((await fileRow(file.id))?.name).toBe("shared.txt");

    expect((await send(host.client, "POST", "/api/items/delete", { items: [{ type: "file", id: file.id }] })).status).toBe(200);
    expect((await rename(host, file.id, "from-the-trash.txt")).status).toBe(404);
  });

  it("in a data room: a guest is refused and a member renames", async () => {
    const roomOwner = await signedIn({ tier: "pro" });
    const [guest, member] = await Promise.all([signedIn(), signedIn()]);
    const room = await createRoom(roomOwner.client, "Rename room");
    await addDataroomMember(room.id, guest.id, "guest");
    await addDataroomMember(room.id, member.id, "member");
    const file = await createFile({ spaceId: room.id, folderId: room.rootFolderId, name: "cim.pdf" });
    expect((await rename(guest, file.id, "guest.pdf")).status).toBe(403);
    expect((await rename(member, file.id, "Confidential memorandum.pdf")).status).toBe(200);
    expect((await fileRow(file.id))?.name).toBe("Confidential memorandum.pdf");
  });
});
