import { Server, type Connection, type ConnectionContext } from "partyserver";
import { z } from "zod";
import { KEEPALIVE_REQUEST, KEEPALIVE_RESPONSE, REALTIME_USER_HEADER } from "./data-room.protocol";

/**
 * One member's own realtime channel (private-member.{user id}): what happens outside data rooms
 * that they should hear about at once, such as files sent through their receive pages. Sockets
 * are authenticated by the Worker (workers/realtime.ts: session, token for this member); the
 * object only fans events out to the member's open tabs. It keeps no state and hibernates.
 */
export const memberEventSchema = z.object({
  name: z.enum(["notification"]),
  data: z.object({ kind: z.string().max(64), title: z.string().max(300), link: z.string().max(500) }),
});
export type MemberEvent = z.infer<typeof memberEventSchema>;

export class MemberChannel extends Server<Env> {
  static override options = { hibernate: true };

  override onStart(): void {
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(KEEPALIVE_REQUEST, KEEPALIVE_RESPONSE));
  }

  override onConnect(connection: Connection, context: ConnectionContext): void {
    // The Worker set the header from the session after checking the token; the name is the member's id.
    if (context.request.headers.get(REALTIME_USER_HEADER) !== this.name) connection.close(4403, "not this member");
  }

  /** Sends one event to every open tab of the member; returns how many got it. */
  publish(event: MemberEvent): { delivered: number } {
    const parsed = memberEventSchema.parse(event);
    let delivered = 0;
    for (const connection of this.getConnections()) {
      connection.send(JSON.stringify({ type: "event", name: parsed.name, data: parsed.data, at: Date.now() }));
      delivered++;
    }
    return { delivered };
  }
}
