import type { Context } from "hono";
import { routePartykitRequest } from "partyserver";
import { REALTIME_NAME_HEADER, REALTIME_USER_HEADER } from "~durable-objects/data-room.protocol";
import { isDataroomId } from "~/features/datarooms/datarooms.schema";
import { verifyChannelToken } from "~/features/datarooms/realtime.server";
import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import { handleError } from "./error-handler";
import type { AppEnv } from "./types";

export const REALTIME_PREFIX = "parties";

/**
 * Realtime routing: /parties/data-room/<room id>?token=… upgrades to a socket on that room's
 * Durable Object, /parties/member-channel/<user id>?token=… to the member's own channel. Sockets are authenticated here, before they reach the object: a session
 * (401 without), a token from POST /broadcasting/auth for this room and person that has not
 * expired (403), TLS in production (403). The person's id travels to the object in a header set
 * here (any such header from the client is replaced); the object checks membership itself.
 * Plain HTTP to a room is not exposed; a malformed room id is 404.
 */
export async function handleRealtime(c: Context<AppEnv>): Promise<Response> {
  // Refusals are answered by the one error handler, like every other error.
  const refuse = (error: AppError) => handleError(error, c);
  const response = await routePartykitRequest(c.req.raw, c.env, {
    prefix: REALTIME_PREFIX,
    onBeforeConnect: async (request, lobby) => {
      const isMemberChannel = lobby.className === "MEMBER_CHANNEL";
      if (!isMemberChannel && (lobby.className !== "DATA_ROOM" || !isDataroomId(lobby.name))) return refuse(new AppError("NOT_FOUND"));
      const actor = c.get("actor");
      if (!actor) return refuse(new AppError("UNAUTHENTICATED", isMemberChannel ? "Sign in to hear about your notices." : "Sign in to join this data room."));
      // A member's own channel is theirs alone: anyone else's is not found.
      if (isMemberChannel && lobby.name !== actor.userId) return refuse(new AppError("NOT_FOUND"));
      if (readConfig(c.env).isProduction && !c.get("isSecure")) return refuse(new AppError("FORBIDDEN", "Realtime connections need a secure (wss://) connection."));
      const token = new URL(request.url).searchParams.get("token");
      const channelKey = isMemberChannel ? `member:${actor.userId}` : lobby.name;
      if (!(await verifyChannelToken(c.env, { roomId: channelKey, userId: actor.userId, token, now: Date.now() }))) {
        return refuse(new AppError("FORBIDDEN", "This connection was not authorised or its token expired. Reload the page to connect again."));
      }
      const headers = new Headers(request.headers);
      headers.set(REALTIME_USER_HEADER, actor.userId);
      headers.set(REALTIME_NAME_HEADER, encodeURIComponent(c.get("auth")?.user.name ?? ""));
      return new Request(request, { headers });
    },
    onBeforeRequest: () => refuse(new AppError("NOT_FOUND")),
  });
  if (!response) throw new AppError("NOT_FOUND");
  return response;
}
