import { getSpaceRecentUploads, type SpaceRecentPage } from "~/features/files/organize.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { requireDataroom, type DataroomSummary } from "./datarooms.server";

/**
 * /dataroom/{id}/recent-uploads (spec §2 "recent uploads"): the room's newest files, who
 * uploaded each, 100 a page by keyset. Everyone in the room with `view` (every room check applies:
 * time-limited access, IP restrictions, 2FA); outsiders 404.
 */
export async function getRoomRecentUploads(ctx: ServiceContext, userId: string, roomId: unknown, rawQuery: unknown): Promise<SpaceRecentPage & { room: DataroomSummary }> {
  const room = await requireDataroom(ctx, userId, roomId, "view");
  return { room, ...(await getSpaceRecentUploads(ctx, room.id, rawQuery ?? {})) };
}
