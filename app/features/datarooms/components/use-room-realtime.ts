import { useEffect, useRef, useState } from "react";
import { HttpError, request } from "~/lib/http";

/**
 * The browser's side of a realtime channel (spec §9 "Realtime connection"), a data room's or a
 * member's own: a socket to its Durable Object, authorised by POST /broadcasting/auth (a fresh short-lived token
 * on every (re)connect), TLS on https pages, reconnecting with backoff. Timeouts of the spec:
 * after 120 s without any message the client sends a keep-alive ping; without the pong within
 * 30 s it reconnects; a connection attempt that takes longer than 10 s counts as unavailable.
 */
export const ACTIVITY_TIMEOUT_MS = 120_000;
export const PONG_TIMEOUT_MS = 30_000;
export const UNAVAILABLE_TIMEOUT_MS = 10_000;

export type RealtimeStatus = "connecting" | "connected" | "unavailable" | "closed";

export type RoomRealtimeHandlers = {
  /** The person's own permissions changed (after the room's 300 ms debounce). */
  onPermissionsChanged?: (data: { role: string; permissions: Record<string, boolean> }) => void;
  /** The person was removed (or left elsewhere): the socket is closed for good. */
  onRemoved?: (message: string) => void;
  /** Who is in the room now (each person once), whenever someone arrives or leaves. */
  onPresence?: (people: { userId: string; name: string }[]) => void;
  /** Anything else the room publishes (files, members). */
  onEvent?: (name: string, data: Record<string, unknown>) => void;
};

type Incoming = { type: string; name?: string; data?: Record<string, unknown>; message?: string; people?: { userId: string; name: string }[] };

/** A data room's channel. */
export function useRoomRealtime(roomId: string | null, handlers: RoomRealtimeHandlers): RealtimeStatus {
  return useRealtimeChannel(roomId ? { party: "data-room", name: roomId, channel: `private-dataroom.${roomId}` } : null, handlers);
}

/** A member's own channel (notices outside rooms, such as files sent through their receive pages). */
export function useMemberRealtime(userId: string | null, onEvent: RoomRealtimeHandlers["onEvent"]): RealtimeStatus {
  return useRealtimeChannel(userId ? { party: "member-channel", name: userId, channel: `private-member.${userId}` } : null, { onEvent });
}

type ChannelTarget = { party: "data-room" | "member-channel"; name: string; channel: string };

function useRealtimeChannel(target: ChannelTarget | null, handlers: RoomRealtimeHandlers): RealtimeStatus {
  const [status, setStatus] = useState<RealtimeStatus>("connecting");
  const latest = useRef(handlers);
  latest.current = handlers;
  const party = target?.party ?? null;
  const name = target?.name ?? null;
  const channel = target?.channel ?? null;

  useEffect(() => {
    if (!party || !name || !channel) return;
    let disposed = false;
    let socket: { close: () => void; reconnect: () => void; send: (data: string) => void; addEventListener: WebSocket["addEventListener"] } | null = null;
    let activityTimer: ReturnType<typeof setTimeout> | undefined;
    let pongTimer: ReturnType<typeof setTimeout> | undefined;
    let unavailableTimer: ReturnType<typeof setTimeout> | undefined;

    const stopTimers = () => {
      clearTimeout(activityTimer);
      clearTimeout(pongTimer);
    };
    const armActivity = () => {
      stopTimers();
      activityTimer = setTimeout(() => {
        socket?.send("ping");
        pongTimer = setTimeout(() => socket?.reconnect(), PONG_TIMEOUT_MS);
      }, ACTIVITY_TIMEOUT_MS);
    };
    const armUnavailable = () => {
      clearTimeout(unavailableTimer);
      unavailableTimer = setTimeout(() => {
        if (!disposed) setStatus((current) => (current === "connected" || current === "closed" ? current : "unavailable"));
      }, UNAVAILABLE_TIMEOUT_MS);
    };

    void (async () => {
      const { default: PartySocket } = await import("partysocket");
      if (disposed) return;
      armUnavailable();
      const created = new PartySocket({
        host: window.location.host,
        protocol: window.location.protocol === "https:" ? "wss" : "ws",
        prefix: "parties",
        party,
        room: name,
        connectionTimeout: UNAVAILABLE_TIMEOUT_MS,
        maxRetries: 20,
        query: async () => {
          try {
            const auth = await request<{ auth: string }>("/broadcasting/auth", {
              method: "POST",
              body: { channel_name: channel },
              background: true,
              handleErrors: false,
            });
            return { token: auth.auth };
          } catch (error) {
            // No longer in the room (404/403): stop for good instead of retrying.
            if (error instanceof HttpError && (error.status === 404 || error.status === 403 || error.status === 401)) {
              disposed = true;
              setStatus("closed");
              created.close();
            }
            throw error;
          }
        },
      });
      socket = created;
      created.addEventListener("open", () => {
        clearTimeout(unavailableTimer);
        setStatus("connected");
        armActivity();
      });
      created.addEventListener("close", () => {
        stopTimers();
        if (!disposed) {
          setStatus("connecting");
          armUnavailable();
        }
      });
      created.addEventListener("message", (event: MessageEvent) => {
        armActivity();
        if (event.data === "pong" || typeof event.data !== "string") return;
        let message: Incoming;
        try {
          message = JSON.parse(event.data) as Incoming;
        } catch {
          return;
        }
        if (message.type === "removed") {
          disposed = true;
          setStatus("closed");
          created.close();
          latest.current.onRemoved?.(message.message ?? "You no longer have access to this data room.");
          return;
        }
        if (message.type === "presence") {
          latest.current.onPresence?.(message.people ?? []);
          return;
        }
        if (message.type !== "event" || !message.name) return;
        if (message.name === "permissions.changed") {
          latest.current.onPermissionsChanged?.(message.data as { role: string; permissions: Record<string, boolean> });
          return;
        }
        latest.current.onEvent?.(message.name, message.data ?? {});
      });
    })();

    return () => {
      disposed = true;
      stopTimers();
      clearTimeout(unavailableTimer);
      socket?.close();
    };
  }, [party, name, channel]);

  return status;
}
