import type { RoomDecision } from "~durable-objects/data-room.protocol";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { auditRefusal } from "./audit-record.server";
import { decideInRoom, roomGate } from "./room-authority.server";

/**
 * The one way into a room for every entry point (the room's own checks and the file layer's):
 * the authority's decision (null: not in the room, the caller answers 404), with the room's
 * gate applied (time-limited access, IP restrictions, the 2FA requirement): a person it stops gets 403 saying why, and
 * the refusal is recorded.
 */
export async function enterRoom(ctx: ServiceContext, roomId: string, userId: string): Promise<RoomDecision | null> {
  const decision = await decideInRoom(ctx, roomId, userId);
  if (!decision) return null;
  const stopped = roomGate(ctx, roomId, decision);
  if (stopped) {
    await auditRefusal(ctx, roomId, userId, stopped.message);
    throw new AppError("FORBIDDEN", stopped.message, { location: stopped.location });
  }
  return decision;
}
