import { z } from "zod";

/**
 * The data room socket protocol, shared by the Durable Object, the services that publish events
 * and the browser. Keep-alive is the bare text "ping" answered "pong" by the runtime itself
 * (setWebSocketAutoResponse), so it never wakes a hibernating room.
 */
export const KEEPALIVE_REQUEST = "ping";
export const KEEPALIVE_RESPONSE = "pong";

export const roomEventSchema = z.object({
  name: z.string().min(1).max(100),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type RoomEvent = z.input<typeof roomEventSchema>;

export const serverMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("presence"), connections: z.number().int().nonnegative() }),
  z.object({ type: z.literal("event"), name: z.string(), data: z.record(z.string(), z.unknown()), at: z.number() }),
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** What a client may send besides keep-alive; anything else is answered with an error. */
export const clientMessageSchema = z.discriminatedUnion("type", [z.object({ type: z.literal("presence.request") })]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
