import { z } from "zod";
import { readConfig } from "~/lib/config.server";
import { hmacSign, timingSafeEqualString } from "~/lib/crypto.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { requireDataroom } from "./datarooms.server";

/**
 * Realtime channel authorisation (spec §7 "POST /broadcasting/auth", §9 "Realtime connection"):
 * a member of a room gets a short-lived signed token for the room's private channel; the socket
 * upgrade (workers/realtime.ts) checks the session, the token (room, person, expiry) and the room's
 * authority checks membership once more. A removed person's sockets are closed by the authority.
 */
export const REALTIME_TOKEN_TTL_MS = 60_000;
export const CHANNEL_PREFIX = "private-dataroom.";
/** A member's own channel (notices outside rooms): private-member.{user id}, for that member only. */
export const MEMBER_CHANNEL_PREFIX = "private-member.";

const CHANNEL_MESSAGE = "channel_name is required, like private-dataroom.{room id} or private-member.{your id}.";
const authSchema = z.object({
  channel_name: z
    .string({ error: CHANNEL_MESSAGE })
    .trim()
    .refine((value) => value.startsWith(CHANNEL_PREFIX) || value.startsWith(MEMBER_CHANNEL_PREFIX), CHANNEL_MESSAGE),
  socket_id: z.string().max(200).optional(),
});

/** What a token names: a room's channel (its id) or a member's own ("member:{id}"). */
function payload(channelKey: string, userId: string, expiresAt: number): string {
  return `realtime:${channelKey}:${userId}:${expiresAt}`;
}

export type ChannelAuthorization = { auth: string; channel: string; dataroom_id?: string; url: string; expires_at: string };

async function sign(ctx: ServiceContext, channelKey: string, userId: string): Promise<{ auth: string; expiresAt: number }> {
  const expiresAt = ctx.now().getTime() + REALTIME_TOKEN_TTL_MS;
  const signature = await hmacSign(readConfig(ctx.env).SESSION_SECRET, payload(channelKey, userId, expiresAt));
  return { auth: `${expiresAt}.${signature}`, expiresAt };
}

/**
 * POST /broadcasting/auth: a member of the room (the `view` permission) gets a token for its
 * channel; a member gets one for their own channel (anyone else's is 404, like a room they are not in).
 */
export async function authorizeChannel(ctx: ServiceContext, userId: string, input: unknown): Promise<ChannelAuthorization> {
  const { channel_name } = parseInput(authSchema, input);
  if (channel_name.startsWith(MEMBER_CHANNEL_PREFIX)) {
    if (channel_name.slice(MEMBER_CHANNEL_PREFIX.length) !== userId) throw new AppError("NOT_FOUND", "This channel does not exist or you don't have access to it.");
    const { auth, expiresAt } = await sign(ctx, `member:${userId}`, userId);
    return { auth, channel: channel_name, url: `/parties/member-channel/${userId}?token=${encodeURIComponent(auth)}`, expires_at: new Date(expiresAt).toISOString() };
  }
  const room = await requireDataroom(ctx, userId, channel_name.slice(CHANNEL_PREFIX.length));
  const { auth, expiresAt } = await sign(ctx, room.id, userId);
  return {
    auth,
    channel: `${CHANNEL_PREFIX}${room.id}`,
    dataroom_id: room.id,
    url: `/parties/data-room/${room.id}?token=${encodeURIComponent(auth)}`,
    expires_at: new Date(expiresAt).toISOString(),
  };
}

/** Whether a socket's token was issued to this person for this channel (a room's id, or "member:{id}") and has not expired. */
export async function verifyChannelToken(env: Env, input: { roomId: string; userId: string; token: string | null; now: number }): Promise<boolean> {
  const [expires, signature] = (input.token ?? "").split(".");
  const expiresAt = Number(expires);
  if (!signature || !Number.isSafeInteger(expiresAt) || expiresAt <= input.now) return false;
  const expected = await hmacSign(readConfig(env).SESSION_SECRET, payload(input.roomId, input.userId, expiresAt));
  return timingSafeEqualString(expected, signature);
}

export function refuseSocket(message: string): AppError {
  return new AppError("FORBIDDEN", message);
}
