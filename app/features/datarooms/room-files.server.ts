import { checkFeature } from "~/features/access/access-check";
import { loadMemberAccess } from "~/features/access/access.server";
import { getDuplicates, getMetadataIndex, getSpaceRecentUploads, getTagIndex, type DuplicatesPage, type MetadataIndex, type SpaceRecentPage, type TagIndex } from "~/features/files/organize.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";

/**
 * A room's views of the file manager's organising (recent uploads, tags, duplicates), kept to the room.
 *
 * /dataroom/{id}/recent-uploads (spec §2 "recent uploads"): the room's newest files, who
 * uploaded each, 100 a page by keyset. Everyone in the room with `view` (every room check applies:
 * time-limited access, IP restrictions, 2FA); outsiders 404.
 */
export async function getRoomRecentUploads(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<SpaceRecentPage & { room: DataroomSummary }> {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  return { room, ...(await getSpaceRecentUploads(ctx, room.id, rawQuery ?? {})) };
}

/**
 * /dataroom/{id}/tags (spec §2 "tags"): the file manager's tags, kept to this room: every tag of
 * its files with the count, and a tag's files. Everyone in the room with `view`; outsiders 404.
 */
export async function getRoomTagIndex(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<{ room: DataroomSummary; index: TagIndex }> {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  return { room, index: await getTagIndex(ctx, userId, rawQuery ?? {}, room.id) };
}

/**
 * /dataroom/{id}/duplicates (spec §2 "duplicates"): files of this room with the same content,
 * largest saving first. Everyone in the room with `view`; it needs `advanced_features` on the room
 * owner's plan (Pro and up), otherwise the page shows the feature locked (`page` null).
 */
export async function getRoomDuplicates(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<{ room: DataroomSummary; page: DuplicatesPage | null }> {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  if (!checkFeature(await loadMemberAccess(ctx, room.owner.id), "advanced_features")) return { room, page: null };
  return { room, page: await getDuplicates(ctx, userId, rawQuery ?? {}, { spaceId: room.id }) };
}

/**
 * /dataroom/{id}/metadata (spec §2 "metadata"): the key/value metadata of the room's files (set
 * in a file's details): every key with how many files carry it and how many values it has, and a
 * key's files with their value (narrowed to one value on request). Everyone in the room with
 * `view`; outsiders 404.
 */
export async function getRoomMetadataIndex(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<{ room: DataroomSummary; index: MetadataIndex }> {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  return { room, index: await getMetadataIndex(ctx, userId, room.id, rawQuery ?? {}) };
}
