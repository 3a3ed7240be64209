import { Hono } from "hono";
import { searchWorkspace } from "~/features/search/search.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, requireApiActor } from "./require-actor";

/**
 * GET /api/search?q=&kind=&place=&owner=&date=&limit= : the member's search (the shell's palette
 * asks it as they type; the /search page's loader calls the same service). Only what the member
 * may open comes back, so the only refusal is a visitor who is not signed in (401).
 */
export const searchApi = new Hono<AppEnv>().use(noStore).get("/", async (c) => {
  const actor = requireApiActor(c);
  const results = await searchWorkspace(apiServiceContext(c), actor.userId, c.req.query());
  return c.json({ hits: results.hits }, 200);
});
