import { Hono } from "hono";
import { updateWorkspacePreferences } from "~/features/workspace/workspace.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/workspace/…: the signed-in member's own workspace. Nothing here names another member or an
 * object, so the only refusal is a visitor who is not signed in (401).
 */
export const workspaceApi = new Hono<AppEnv>().use(noStore).patch("/preferences", async (c) => {
  const actor = requireApiActor(c);
  return c.json({ preferences: await updateWorkspacePreferences(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 200);
});
