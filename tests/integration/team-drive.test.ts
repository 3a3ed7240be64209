import { describe, expect, it } from "vitest";
import { copyItemRefs } from "~/features/files/copy.server";
import { getTemplates } from "~/features/files/organize.server";
import { getStorageOverview } from "~/features/files/storage.server";
import { purgeTrashJob } from "~/features/files/trash.jobs";
import { indexFileContent } from "~/features/search/search-index.server";
import { searchWorkspace } from "~/features/search/search.server";
import { createFile, makeFolder, personalSpaceOf, testContext } from "~tests/factories/files";
import { countWhere, get, send, signedIn, type Person } from "./dataroom-helpers";
import { testEnv } from "./helpers";
import { join, teamOfFour } from "./team-helpers";
import { bytes, create, upload } from "./tus-helpers";

/**
 * A team's drive (issue 42, ADR 042): the team's own folders, files and galleries outside its data
 * rooms, an ordinary file space whose members are the team's people by their place in it (owner
 * and admins own it, members edit, a custom role with "files.view" reads, billing people are not
 * in it), on the team owner's storage.
 */

const DAY = 24 * 3600_000;

type TeamPage = { drive: { rootId: string; canEdit: boolean } | null };
type FolderPage = { role: string; rights: string[]; canShare: boolean; folders: { uid: string; label: string }[]; files: { id: string; name: string }[] };

async function teamWithDrive() {
  const { owner, teamId, member, reviewer, billing, roleId } = await teamOfFour("Osprey team", ["dataroom.view", "dataroom.comment", "files.view"]);
  const rootId = (await drive(owner, teamId))!.rootId;
  return { owner, teamId, member, reviewer, billing, roleId, rootId };
}

async function drive(person: Person, teamId: string) {
  const response = await get(`/api/teams/${teamId}`, person.client);
  expect(response.status).toBe(200);
  return (await response.json<TeamPage>()).drive;
}

async function folderPage(person: Person, folderId: string) {
  const response = await get(`/api/folders/${folderId}`, person.client);
  return { status: response.status, body: response.status === 200 ? await response.json<FolderPage>() : null };
}

async function newFolder(person: Person, parentId: string, label: string) {
  return send(person.client, "POST", "/api/folders", { parentId, label });
}

describe("a team's drive", () => {
  it("the team's people use its files by their place: members upload and organise, a Reviewer reads and downloads only, billing people and outsiders do not find it", async () => {
    const { owner, teamId, member, reviewer, billing, rootId } = await teamWithDrive();
    expect(await drive(member, teamId)).toEqual({ rootId, canEdit: true });
    expect(await drive(reviewer, teamId)).toEqual({ rootId, canEdit: false });
    expect(await drive(billing, teamId)).toBeNull();

    // The owner makes a folder; a member (on Free) uploads into it on the team owner's storage.
    const made = await newFolder(owner, rootId, "Contracts");
    expect(made.status, await made.clone().text()).toBe(201);
    const contracts = (await made.json<{ folder: { uid: string } }>()).folder.uid;
    const fileId = await upload(member.client, contracts, "nda.txt", bytes(2048));
    expect((await newFolder(member, contracts, "Signed")).status).toBe(201);
    const owners = (await folderPage(owner, contracts)).body!;
    expect(owners.files.map((file) => file.name)).toEqual(["nda.txt"]);
    expect(owners.canShare).toBe(true);
    expect((await folderPage(member, contracts)).body).toMatchObject({ role: "editor", canShare: false });

    // The Reviewer sees and downloads, and is refused every change by name.
    const reviewers = (await folderPage(reviewer, contracts)).body!;
    expect(reviewers.rights).toEqual(["files.view", "files.download"]);
    expect((await get(`/api/files/${fileId}/download`, reviewer.client)).status).toBe(200);
    const refusedFolder = await newFolder(reviewer, contracts, "Mine");
    expect(refusedFolder.status).toBe(403);
    expect((await refusedFolder.json<{ message: string }>()).message).toBe("You don't have permission to change these files and folders.");
    expect((await create(reviewer.client, { folderId: contracts, name: "mine.txt", length: 10 })).status).toBe(403);
    expect((await send(reviewer.client, "PATCH", `/api/files/${fileId}`, { name: "renamed.txt" })).status).toBe(403);
    expect((await send(reviewer.client, "POST", "/api/items/delete", { items: [{ type: "file", id: fileId }] })).status).toBe(403);

    // Billing people, outsiders and anonymous visitors cannot tell it exists.
    const outsider = await signedIn({ tier: "business" });
    for (const person of [billing, outsider]) {
      expect((await folderPage(person, rootId)).status).toBe(404);
      expect((await get(`/api/files/${fileId}/download`, person.client)).status).toBe(404);
      expect((await newFolder(person, contracts, "Sneaky")).status).toBe(404);
      expect((await send(person.client, "POST", "/api/items/delete", { items: [{ type: "file", id: fileId }] })).status).toBe(404);
    }
    expect((await get(`/api/folders/${rootId}`)).status).toBe(401);
    expect(await countWhere("select count(*) as n from files where id = ? and name = 'nda.txt' and trashed_at is null", fileId)).toBe(1);
    expect(await countWhere("select count(*) as n from folders where space_id = ? and label in ('Mine', 'Sneaky')", teamId)).toBe(0);

    // The drive's bytes count against the team owner's plan, on their storage page.
    const storage = await getStorageOverview(testContext(), owner.id);
    expect(storage.spaces.find((space) => space.spaceId === teamId)).toMatchObject({ kind: "team", name: "Osprey team", usedBytes: 2048 });
    expect((await getStorageOverview(testContext(), member.id)).spaces.map((space) => space.kind)).toEqual(["personal"]);

    // A member deletes (to the trash); the owner keeps everything else.
    expect((await send(member.client, "POST", "/api/items/delete", { items: [{ type: "file", id: fileId }] })).status).toBe(200);
    expect(await countWhere("select count(*) as n from files where id = ? and trashed_at is not null", fileId)).toBe(1);
  });

  it("whoever leaves or loses the right loses the drive at once; a new role and a changed custom role apply on the next request", async () => {
    const { owner, teamId, member, reviewer, billing, roleId, rootId } = await teamWithDrive();
    expect((await folderPage(member, rootId)).status).toBe(200);
    expect((await send(member.client, "POST", `/api/teams/${teamId}/leave`)).status).toBe(200);
    expect((await folderPage(member, rootId)).status).toBe(404);

    // The Reviewer's role loses "files.view": the drive is gone for them; given it back with "files.edit", they edit.
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}/roles/${roleId}`, { name: "Reviewer", permissions: ["dataroom.view", "dataroom.comment"] })).status).toBe(200);
    expect((await folderPage(reviewer, rootId)).status).toBe(404);
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}/roles/${roleId}`, { name: "Reviewer", permissions: ["files.view", "files.edit"] })).status).toBe(200);
    expect((await newFolder(reviewer, rootId, "Reviewed")).status).toBe(201);

    // Billing made a member finds it; removed, does not.
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}/members/${billing.id}`, { role: "member" })).status).toBe(200);
    expect((await folderPage(billing, rootId)).body?.role).toBe("editor");
    expect((await send(owner.client, "DELETE", `/api/teams/${teamId}/members/${billing.id}`)).status).toBe(200);
    expect((await folderPage(billing, rootId)).status).toBe(404);
    expect(await countWhere("select count(*) as n from space_members where space_id = ?", teamId)).toBe(2);
  });

  it("renaming the team renames its drive, handing it over moves the drive to the new owner's plan, and a legal hold keeps its trash", async () => {
    const { owner, teamId, member, rootId } = await teamWithDrive();
    expect((await send(owner.client, "PATCH", `/api/teams/${teamId}`, { name: "Osprey partners" })).status).toBe(200);
    expect(await countWhere("select count(*) as n from spaces where id = ? and kind = 'team' and name = 'Osprey partners'", teamId)).toBe(1);
    expect(await countWhere("select count(*) as n from folders where id = ? and label = 'Osprey partners'", rootId)).toBe(1);

    const heir = await signedIn({ tier: "business", name: "Hal Heir" });
    await join(owner, teamId, heir);
    expect((await send(owner.client, "POST", `/api/teams/${teamId}/transfer`, { userId: heir.id })).status).toBe(200);
    expect(await countWhere("select count(*) as n from spaces where id = ? and owner_id = ?", teamId, heir.id)).toBe(1);
    // The old owner is an admin now, and still owns the drive's files with the new owner.
    expect((await folderPage(owner, rootId)).body?.role).toBe("owner");
    expect((await folderPage(heir, rootId)).body?.role).toBe("owner");

    const file = await createFile({ spaceId: teamId, folderId: rootId, name: "board minutes.pdf", uploadedBy: member.id });
    expect((await send(member.client, "POST", "/api/items/delete", { items: [{ type: "file", id: file.id }] })).status).toBe(200);
    expect((await send(heir.client, "POST", `/api/teams/${teamId}/legal-hold`, { reason: "Audit" })).status).toBe(201);
    const purge = () => purgeTrashJob.run({ ...testContext(() => new Date(Date.now() + 31 * DAY)), jobId: "test-purge" }, {});
    await purge();
    expect(await countWhere("select count(*) as n from files where id = ?", file.id)).toBe(1);
    expect((await send(heir.client, "DELETE", `/api/teams/${teamId}/legal-hold`)).status).toBe(200);
    await purge();
    expect(await countWhere("select count(*) as n from files where id = ?", file.id)).toBe(0);
  });

  it("search finds the drive's files for the team's people, offers the drive as a place of its own (not Personal), and finds nothing of it for anyone else", async () => {
    const { owner, teamId, reviewer, billing, rootId } = await teamWithDrive();
    const file = await createFile({ spaceId: teamId, folderId: rootId, name: "osprey valuation.txt", content: "The merlin multiple is eight.", uploadedBy: owner.id });
    await indexFileContent(testContext(), file.id);
    const search = (person: Person, query: Record<string, string>) => searchWorkspace(testContext(), person.id, query);

    const found = await search(reviewer, { q: "merlin" });
    expect(found.hits).toMatchObject([{ id: file.id, place: "Osprey team" }]);
    expect(found.places).toContainEqual({ id: teamId, name: "Osprey team" });
    const ids = found.places.map((place) => place.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await search(reviewer, { q: "merlin", place: teamId })).hits.map((hit) => hit.id)).toEqual([file.id]);
    expect((await search(reviewer, { q: "merlin", place: "personal" })).hits).toEqual([]);
    for (const person of [billing, await signedIn()]) expect((await search(person, { q: "merlin" })).hits).toEqual([]);
  });

  it("the drive's document templates are listed in the team's workspace, not in anyone's own, and a member starts a new document from one in the drive", async () => {
    const { owner, teamId, member, billing, rootId } = await teamWithDrive();
    const template = await createFile({ spaceId: teamId, folderId: rootId, name: "NDA template.txt", content: "Mutual NDA", uploadedBy: owner.id });
    await testEnv.DB.prepare("update files set is_template = 1 where id = ?").bind(template.id).run();
    const names = async (person: Person, teamIdOrNull: string | null) => (await getTemplates(testContext(), person.id, {}, { teamId: teamIdOrNull, rootFolderId: null })).templates.map((file) => file.name);
    expect(await names(member, teamId)).toEqual(["NDA template.txt"]);
    expect(await names(member, null)).toEqual([]);
    expect(await names(owner, null)).toEqual([]);
    expect(await names(billing, teamId)).toEqual([]);

    const copied = await send(member.client, "POST", `/api/organize/templates/${template.id}/copy`, { folderId: rootId, name: "NDA Osprey.txt" });
    expect(copied.status, await copied.clone().text()).toBe(201);
    expect(await countWhere("select count(*) as n from files where space_id = ? and name = 'NDA Osprey.txt' and is_template = 0", teamId)).toBe(1);
  });

  it("a member copies their own folder into the team's files (new objects in the drive, on its storage); nothing is copied out of the drive, and a Reviewer may not add to it", async () => {
    const { owner, teamId, member, reviewer, rootId } = await teamWithDrive();
    const own = await personalSpaceOf(member.id);
    const proposals = await makeFolder(own.spaceId, own.rootId, "Proposals");
    const proposal = await createFile({ spaceId: own.spaceId, folderId: proposals, name: "proposal.txt", content: "Our offer" });
    const copy = (person: Person, items: { type: "file" | "folder"; id: string }[], targetFolderId: string) => copyItemRefs(testContext(), person.id, { items, targetFolderId, seed: crypto.randomUUID() });

    const result = await copy(member, [{ type: "folder", id: proposals }], rootId);
    expect(result).toMatchObject({ copied: 1, files: 1 });
    const copied = await testEnv.DB.prepare("select r2_key as key from files where space_id = ? and name = 'proposal.txt'").bind(teamId).first<{ key: string }>();
    expect(copied!.key.startsWith(`files/${teamId}/`)).toBe(true);
    expect(await countWhere("select count(*) as n from folders where space_id = ? and label = 'Proposals'", teamId)).toBe(1);
    expect(await countWhere("select count(*) as n from files where id = ? and space_id = ?", proposal.id, own.spaceId)).toBe(1);
    expect((await getStorageOverview(testContext(), owner.id)).spaces.find((space) => space.spaceId === teamId)?.usedBytes).toBe(9);

    // Out of the drive into one's own files: refused, naming the rule.
    const driveFile = (await testEnv.DB.prepare("select id from files where space_id = ? and name = 'proposal.txt'").bind(teamId).first<{ id: string }>())!.id;
    await expect(copy(member, [{ type: "file", id: driveFile }], own.rootId)).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      message: "“proposal.txt” is in another space. Items are copied within a data room, within your own files, or from your own files into another space.",
    });
    // The Reviewer reads the drive but may not add to it.
    const theirs = await personalSpaceOf(reviewer.id);
    const note = await createFile({ spaceId: theirs.spaceId, folderId: theirs.rootId, name: "note.txt" });
    await expect(copy(reviewer, [{ type: "file", id: note.id }], rootId)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await countWhere("select count(*) as n from files where space_id = ?", teamId)).toBe(1);
  });
});
