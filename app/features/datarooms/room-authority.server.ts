import type { RoomDecision } from "~durable-objects/data-room.protocol";
import { ipAllowed } from "~/lib/ip-ranges";
import { NO_PROTECTION, protectionAppliesTo, type RoomProtection } from "./protection";
import type { ServiceContext } from "~/lib/service-context.server";

/**
 * The way into a room's authority (its Durable Object, ADR 018). A permission decision costs at
 * most ONE call to the object per request and person (G10): the answer is kept for the rest of
 * the request (never longer: the next request asks again, so a change applies at once), and a
 * change made in this request forgets it.
 */
export function roomAuthority(ctx: ServiceContext, roomId: string) {
  return ctx.env.DATA_ROOM.getByName(roomId);
}

const decisions = new WeakMap<ServiceContext, Map<string, Promise<RoomDecision | null>>>();

/** The person's role and permissions in the room according to its authority, or null when they are not in it. */
export function decideInRoom(ctx: ServiceContext, roomId: string, userId: string): Promise<RoomDecision | null> {
  let perRequest = decisions.get(ctx);
  if (!perRequest) decisions.set(ctx, (perRequest = new Map()));
  const key = `${roomId}:${userId}`;
  let pending = perRequest.get(key);
  if (!pending) {
    pending = roomAuthority(ctx, roomId).decide(roomId, userId) as Promise<RoomDecision | null>;
    perRequest.set(key, pending);
    // A failed call is not remembered: the next check in this request asks again.
    pending.catch(() => perRequest.delete(key));
  }
  return pending;
}

const endFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

/** Whether the caller's account has a second factor and their session passed one (none without a session). */
export function sessionSecondFactor(ctx: ServiceContext): { enrolled: boolean; passed: boolean } {
  return { enrolled: ctx.actor?.secondFactor?.enrolled ?? false, passed: ctx.actor?.secondFactor?.passed ?? false };
}

/** A refusal at the room's door: what the person is told, and the page that explains it (if any). */
export type RoomGateRefusal = { message: string; location?: string };

export const TWO_FACTOR_ENROL_MESSAGE = "This data room requires two-factor sign-in. Turn it on for your account, then sign in again with it.";
export const TWO_FACTOR_SESSION_MESSAGE = "This data room requires two-factor sign-in, and this session did not pass a second factor. Sign in again with your code.";

/**
 * The room's rules on who gets in beyond membership, checked on every entry point of the room
 * (issue 20): time-limited access (compared with the request's clock, which tests control), IP
 * restrictions (the request's CF-Connecting-IP against the room's ranges) and the 2FA requirement
 * (the session passed a second factor). Work without a request, such as a queued job a member
 * started, is not a visit. The refusal, or null.
 */
export function roomGate(ctx: ServiceContext, roomId: string, decision: RoomDecision): RoomGateRefusal | null {
  if (decision.accessEndsAt !== null && decision.accessEndsAt <= ctx.now().getTime()) {
    return { message: `Your access to this data room ended on ${endFormat.format(new Date(decision.accessEndsAt))}. Ask its owner if you need it again.` };
  }
  if (!ctx.client.fromRequest) return null;
  if (!ipAllowed(ctx.client.ip, decision.ipRanges)) {
    return { message: `This data room can only be opened from the network addresses its owner approved, and ${ctx.client.ip ?? "your address"} is not one of them.` };
  }
  const secondFactor = sessionSecondFactor(ctx);
  if (decision.twoFactorRequired && !secondFactor.passed) {
    return { message: secondFactor.enrolled ? TWO_FACTOR_SESSION_MESSAGE : TWO_FACTOR_ENROL_MESSAGE, location: `/dataroom/${roomId}/two-factor` };
  }
  return null;
}

/** After a change in this request, the room's decisions are asked for again. */
export function forgetRoomDecisions(ctx: ServiceContext, roomId: string): void {
  const perRequest = decisions.get(ctx);
  if (!perRequest) return;
  for (const key of perRequest.keys()) if (key.startsWith(`${roomId}:`)) perRequest.delete(key);
}

/**
 * The room's protection as it applies to this person (none for the room's managers), from the
 * decision this request already has (no extra call to the object).
 */
export async function protectionFor(ctx: ServiceContext, roomId: string, userId: string): Promise<RoomProtection> {
  const decision = await decideInRoom(ctx, roomId, userId);
  if (!decision || !protectionAppliesTo(decision.permissions)) return NO_PROTECTION;
  return decision.protection;
}
