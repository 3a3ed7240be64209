import { Hono } from "hono";
import { listMemberDatarooms } from "~/features/access/access-api.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, requireApiActor } from "./require-actor";

/** /api/datarooms: the member's data rooms (empty until the data-room module, issue 6, adds them). */
export const dataroomsApi = new Hono<AppEnv>().use(noStore).get("/", async (c) => {
  const actor = requireApiActor(c);
  return c.json(await listMemberDatarooms(apiServiceContext(c), actor.userId), 200);
});
