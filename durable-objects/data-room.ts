import { Server, type Connection, type WSMessage } from "partyserver";
import {
  clientMessageSchema,
  KEEPALIVE_REQUEST,
  KEEPALIVE_RESPONSE,
  roomEventSchema,
  type RoomEvent,
  type ServerMessage,
} from "./data-room.protocol";

/**
 * One SQLite-backed Durable Object per data room: the atom of coordination for its realtime
 * sockets (and, later, its permission table). Hibernation is on: no timers, no in-memory state
 * that the sockets themselves don't carry. Sockets are authenticated before they get here
 * (workers/realtime.ts); services publish through the `publish` RPC.
 */
export class DataRoom extends Server<Env> {
  static override options = { hibernate: true };

  override onStart(): void {
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(KEEPALIVE_REQUEST, KEEPALIVE_RESPONSE));
  }

  override onConnect(connection: Connection): void {
    send(connection, { type: "presence", connections: this.countConnections() });
    this.broadcastMessage({ type: "presence", connections: this.countConnections() }, [connection.id]);
  }

  override onClose(connection: Connection): void {
    this.broadcastMessage({ type: "presence", connections: this.countConnections(connection.id) }, [connection.id]);
  }

  override onMessage(connection: Connection, raw: WSMessage): void {
    const parsed = typeof raw === "string" ? clientMessageSchema.safeParse(safeJson(raw)) : null;
    if (!parsed?.success) {
      send(connection, { type: "error", message: "That message is not understood by this data room." });
      return;
    }
    if (parsed.data.type === "presence.request") {
      send(connection, { type: "presence", connections: this.countConnections() });
    }
  }

  /** RPC: how many sockets are open on this room right now. */
  presence(): { connections: number } {
    return { connections: this.countConnections() };
  }

  /** RPC: validated fan-out of one event to every socket in the room; returns how many got it. */
  publish(event: RoomEvent): { delivered: number } {
    const parsed = roomEventSchema.parse(event);
    const delivered = this.countConnections();
    this.broadcastMessage({ type: "event", name: parsed.name, data: parsed.data, at: Date.now() });
    return { delivered };
  }

  private countConnections(excludingId?: string): number {
    let count = 0;
    for (const connection of this.getConnections()) if (connection.id !== excludingId) count++;
    return count;
  }

  private broadcastMessage(message: ServerMessage, without?: string[]): void {
    this.broadcast(JSON.stringify(message), without);
  }
}

function send(connection: Connection, message: ServerMessage): void {
  connection.send(JSON.stringify(message));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
