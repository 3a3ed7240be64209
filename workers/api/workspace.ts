import { Hono } from "hono";
import { chooseWorkspace } from "~/features/teams/workspace.server";
import { updateWorkspacePreferences } from "~/features/workspace/workspace.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/workspace/…: the signed-in member's own workspace: their shell's preferences, and which
 * workspace they work in (their own, or a team's they are in: 404 for any other team).
 */
export const workspaceApi = new Hono<AppEnv>()
  .use(noStore)
  .patch("/preferences", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ preferences: await updateWorkspacePreferences(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 200);
  })
  .put("/current", async (c) => {
    const actor = requireApiActor(c);
    const body = await readJsonBody(c);
    const teamId = body && typeof body === "object" && "teamId" in body ? body.teamId : null;
    const chosen = await chooseWorkspace(apiServiceContext(c), actor.userId, teamId, c.get("isSecure"));
    c.header("Set-Cookie", chosen.setCookie);
    return c.json({ workspace: chosen.name === null ? null : { id: teamId, name: chosen.name } }, 200);
  });
