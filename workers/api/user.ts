import { Hono } from "hono";
import {
  checkMemberPermission,
  userContext,
  userDataBatch,
  userDefaultFolders,
  userReceivePages,
  userScopes,
  userTier,
} from "~/features/access/access-api.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, requireApiActor } from "./require-actor";

/** /api/user/… (spec §7 "User data"): the signed-in member's tier, scopes and permission checks. */
export const userApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/data-batch", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await userDataBatch(apiServiceContext(c), actor.userId, c.req.queries("include")), 200);
  })
  .get("/tier", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await userTier(apiServiceContext(c), actor.userId), 200);
  })
  .get("/default-folders", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await userDefaultFolders(apiServiceContext(c), actor.userId), 200);
  })
  .get("/receive-pages", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await userReceivePages(apiServiceContext(c), actor.userId), 200);
  })
  .get("/scopes", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await userScopes(apiServiceContext(c), actor.userId), 200);
  })
  .get("/context/:scope", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await userContext(apiServiceContext(c), actor.userId, c.req.param("scope")), 200);
  })
  .get("/permissions/check/:permission", async (c) => {
    const actor = requireApiActor(c);
    const result = await checkMemberPermission(apiServiceContext(c), actor.userId, {
      permission: c.req.param("permission"),
      scope: c.req.query("scope"),
      context_type: c.req.query("context_type"),
      context_id: c.req.query("context_id"),
    });
    return c.json(result, 200);
  });
