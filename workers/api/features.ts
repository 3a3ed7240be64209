import { Hono } from "hono";
import { checkMemberFeature, tierRequirements } from "~/features/access/access-api.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, requireApiActor } from "./require-actor";

/** /api/features (spec §7 "Permissions and features"). */
export const featuresApi = new Hono<AppEnv>()
  .use(noStore)
  // Public: the upgrade modal may show the plans to anyone.
  .get("/tier-requirements", async (c) => c.json(await tierRequirements(apiServiceContext(c)), 200))
  .get("/check/:feature", async (c) => {
    const actor = requireApiActor(c);
    const result = await checkMemberFeature(apiServiceContext(c), actor.userId, {
      feature: c.req.param("feature"),
      scope: c.req.query("scope"),
    });
    return c.json(result, 200);
  });
