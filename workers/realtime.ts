import type { Context } from "hono";
import { routePartykitRequest } from "partyserver";
import { isDataroomId } from "~/features/datarooms/datarooms.schema";
import { AppError } from "~/lib/errors";
import { handleError } from "./error-handler";
import type { AppEnv } from "./types";

export const REALTIME_PREFIX = "parties";

/**
 * Realtime routing: /parties/data-room/<room id> upgrades to a socket on that room's Durable
 * Object. Sockets are authenticated here, before they reach the object: an anonymous visitor
 * is refused with 401 and a malformed room id with 404. Plain HTTP to a room is not exposed.
 */
export async function handleRealtime(c: Context<AppEnv>): Promise<Response> {
  // Refusals are answered by the one error handler, like every other error.
  const refuse = (error: AppError) => handleError(error, c);
  const response = await routePartykitRequest(c.req.raw, c.env, {
    prefix: REALTIME_PREFIX,
    onBeforeConnect: (_request, lobby) => {
      if (lobby.className !== "DATA_ROOM" || !isDataroomId(lobby.name)) return refuse(new AppError("NOT_FOUND"));
      if (!c.get("actor")) return refuse(new AppError("UNAUTHENTICATED", "Sign in to join this data room."));
      return undefined;
    },
    onBeforeRequest: () => refuse(new AppError("NOT_FOUND")),
  });
  if (!response) throw new AppError("NOT_FOUND");
  return response;
}
