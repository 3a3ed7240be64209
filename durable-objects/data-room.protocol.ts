import { z } from "zod";
import type { DataroomRole } from "~/db/schema";
import type { DataroomPermission } from "~/features/datarooms/datarooms.permissions";
import type { RoomProtection } from "~/features/datarooms/protection";

/**
 * The data room socket protocol, shared by the Durable Object, the services that publish events
 * and the browser. Keep-alive is the bare text "ping" answered "pong" by the runtime itself
 * (setWebSocketAutoResponse), so it never wakes a hibernating room.
 */
export const KEEPALIVE_REQUEST = "ping";
export const KEEPALIVE_RESPONSE = "pong";

export { BREAKER_LIMIT, BREAKER_WINDOW_MS, PERMISSION_DEBOUNCE_MS } from "~/features/datarooms/datarooms.constants";

/** Set by workers/realtime.ts on an authenticated socket's request (never taken from the client). */
export const REALTIME_USER_HEADER = "x-strongroom-user";
/** The person's display name, for presence (set by the Worker from the session, like the id). */
export const REALTIME_NAME_HEADER = "x-strongroom-user-name";

/** A permission decision of the room's authority. */
export type RoomDecision = {
  role: DataroomRole;
  overrides: Record<string, boolean>;
  permissions: Record<DataroomPermission, boolean>;
  /** Time-limited access: when the person's access ends (ms), or null. The caller compares with its clock. */
  accessEndsAt: number | null;
  /** IP restrictions: the ranges the room may be opened from (empty: anywhere). The caller checks its request's address. */
  ipRanges: string[];
  /**
   * The room's watermark, download and print protection. `permissions` already has download
   * protection applied (download is off for everyone it applies to).
   */
  protection: RoomProtection;
  /** The 2FA requirement: only sessions that passed a second factor get in. The caller checks its session. */
  twoFactorRequired: boolean;
};

export const roomEventSchema = z.object({
  name: z.string().min(1).max(100),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type RoomEvent = z.input<typeof roomEventSchema>;

export const serverMessageSchema = z.discriminatedUnion("type", [
  /** Who is in the room now: open sockets, and the people behind them (each once). */
  z.object({
    type: z.literal("presence"),
    connections: z.number().int().nonnegative(),
    people: z.array(z.object({ userId: z.string(), name: z.string() })),
  }),
  z.object({ type: z.literal("event"), name: z.string(), data: z.record(z.string(), z.unknown()), at: z.number() }),
  z.object({ type: z.literal("error"), message: z.string() }),
  /** Sent to a person's sockets right before they are closed because they were removed. */
  z.object({ type: z.literal("removed"), message: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** What a client may send besides keep-alive; anything else is answered with an error. */
export const clientMessageSchema = z.discriminatedUnion("type", [z.object({ type: z.literal("presence.request") })]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
