import { Hono } from "hono";
import { checkPermissionForEntity, memberPermissions } from "~/features/access/access-api.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, requireApiActor } from "./require-actor";

/** /api/permissions (spec §7 "Permissions and features"): the member's permissions, features and matrix. */
export const permissionsApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await memberPermissions(apiServiceContext(c), actor.userId, c.req.query("scope")), 200);
  })
  .post("/check", async (c) => {
    const actor = requireApiActor(c);
    const body: unknown = await c.req.json().catch(() => null);
    return c.json(await checkPermissionForEntity(apiServiceContext(c), actor.userId, body), 200);
  });
