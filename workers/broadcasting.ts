import { Hono } from "hono";
import { authorizeChannel } from "~/features/datarooms/realtime.server";
import type { AppEnv } from "./types";
import { apiServiceContext, noStore, requireApiActor } from "./api/require-actor";

/**
 * POST /broadcasting/auth (spec §7, §9): authorises a private data-room channel. The body is JSON
 * or a form (`channel_name=private-dataroom.{id}&socket_id=…`, as Pusher-style clients send it);
 * the CSRF token comes from the page's meta tag like every unsafe request.
 */
export const broadcasting = new Hono<AppEnv>().use(noStore).post("/auth", async (c) => {
  const actor = requireApiActor(c);
  const type = c.req.header("content-type") ?? "";
  const body = type.includes("application/json") ? await c.req.json().catch(() => ({})) : await c.req.parseBody().catch(() => ({}));
  return c.json(await authorizeChannel(apiServiceContext(c), actor.userId, body), 200);
});
