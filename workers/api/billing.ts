import { Hono } from "hono";
import { getTrial, startTrial } from "~/features/billing/trials.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/billing/…: the member's subscription (issue 43). Today the free trial: what they may start
 * or have running (GET), and starting it (POST { tier }: 201, 409 once used or not above their plan).
 */
export const billingApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/trial", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ trial: await getTrial(apiServiceContext(c), actor.userId) }, 200);
  })
  .post("/trial", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ trial: await startTrial(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  });
