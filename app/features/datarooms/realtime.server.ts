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

const authSchema = z.object({
  channel_name: z
    .string({ error: "channel_name is required, like private-dataroom.{room id}." })
    .trim()
    .refine((value) => value.startsWith(CHANNEL_PREFIX), "channel_name is required, like private-dataroom.{room id}."),
  socket_id: z.string().max(200).optional(),
});

function payload(roomId: string, userId: string, expiresAt: number): string {
  return `realtime:${roomId}:${userId}:${expiresAt}`;
}

export type ChannelAuthorization = { auth: string; channel: string; dataroom_id: string; url: string; expires_at: string };

/** POST /broadcasting/auth: a member of the room (the `view` permission) gets a token for its channel. */
export async function authorizeChannel(ctx: ServiceContext, userId: string, input: unknown): Promise<ChannelAuthorization> {
  const { channel_name } = parseInput(authSchema, input);
  const room = await requireDataroom(ctx, userId, channel_name.slice(CHANNEL_PREFIX.length));
  const expiresAt = ctx.now().getTime() + REALTIME_TOKEN_TTL_MS;
  const signature = await hmacSign(readConfig(ctx.env).SESSION_SECRET, payload(room.id, userId, expiresAt));
  const auth = `${expiresAt}.${signature}`;
  return {
    auth,
    channel: `${CHANNEL_PREFIX}${room.id}`,
    dataroom_id: room.id,
    url: `/parties/data-room/${room.id}?token=${encodeURIComponent(auth)}`,
    expires_at: new Date(expiresAt).toISOString(),
  };
}

/** Whether a socket's token was issued to this person for this room and has not expired. */
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
