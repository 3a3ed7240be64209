import { expect } from "vitest";
import { createFile, personalSpaceOf } from "~tests/factories/files";
import { send, type Person } from "./dataroom-helpers";

/** A gallery folder in the member's own files, with the given files in it (`name`, `contentType`, `content`). */
export async function galleryWith(member: Person, label: string, entries: { name: string; contentType?: string; content: string }[]) {
  const { spaceId, rootId } = await personalSpaceOf(member.id);
  const gallery = await send(member.client, "POST", "/api/folders", { parentId: rootId, label, kind: "gallery" });
  expect(gallery.status, await gallery.clone().text()).toBe(201);
  const folderId = (await gallery.json<{ folder: { uid: string } }>()).folder.uid;
  const created = [];
  for (const entry of entries) created.push(await createFile({ spaceId, folderId, ...entry }));
  return { spaceId, folderId, files: created };
}
