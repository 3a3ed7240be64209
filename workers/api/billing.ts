import { Hono } from "hono";
import { getTrial, startTrial } from "~/features/billing/trials.server";
import { previewPlanChange } from "~/features/billing/plan-change.server";
import { normalizeTier } from "~/features/access/access.constants";
import { AppError } from "~/lib/errors";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/billing/…: the member's subscription (issue 43). Today the free trial: what they may start
 * or have running (GET), and starting it (POST { tier }: 201, 409 once used or not above their plan);
 * what would be over the limits of another plan (GET /preview?tier=).
 */
export const billingApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/trial", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ trial: await getTrial(apiServiceContext(c), actor.userId) }, 200);
  })
  // What would be over the limits on another plan (?tier=free|basic|pro|business|custom).
  .get("/preview", async (c) => {
    const actor = requireApiActor(c);
    const tier = normalizeTier(c.req.query("tier"));
    if (!tier) throw new AppError("VALIDATION_ERROR", "tier: Say which plan to compare with: free, basic, pro, business or custom.");
    return c.json(await previewPlanChange(apiServiceContext(c), actor.userId, tier), 200);
  })
  .post("/trial", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ trial: await startTrial(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  });
