import { unreadCountFor } from "~/features/notifications/notifications.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { requireDataroom } from "./datarooms.server";
import type { DataroomPermission } from "./datarooms.permissions";

export type RoomHeader = {
  id: string;
  name: string;
  description: string;
  owner: { name: string };
  role: "owner" | "admin" | "member" | "guest";
  isOwner: boolean;
  archived: boolean;
  /** Read-only over its owner's plan (issue 43), with what is over. */
  overPlan: boolean;
  overPlanReason: string | null;
  logoUrl: string | null;
  permissions: Record<DataroomPermission, boolean>;
  /** The caller's unread notices of this room (the Activity tab shows it). */
  unread: number;
};

/**
 * What every page of a room shows above its own content (issue 36): name, role, owner, logo and
 * the tabs the caller may open. The room's authority decides (the same one call per request the
 * page's own loader makes); the unread count is the caller's own, asked in parallel.
 */
export async function getRoomHeader(ctx: ServiceContext, userId: string, rawId: unknown): Promise<RoomHeader> {
  const [room, unread] = await Promise.all([
    requireDataroom(ctx, userId, rawId, "view"),
    // Only the caller's own notices are counted, so an id that is not a room simply counts none.
    unreadCountFor(ctx, userId, typeof rawId === "string" ? rawId.toLowerCase() : ""),
  ]);
  return {
    id: room.id,
    name: room.name,
    description: room.description,
    owner: { name: room.owner.name },
    role: room.role,
    isOwner: room.isOwner,
    archived: room.archived,
    overPlan: room.overPlan,
    overPlanReason: room.overPlanReason,
    logoUrl: room.logoUrl,
    permissions: room.permissions,
    unread,
  };
}
