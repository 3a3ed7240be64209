import { Hono } from "hono";
import { createReceivePage, deleteReceivePage, getReceivePage, listReceivedSubmissions, listReceivePages, moveReceivePageIntoTeam, updateReceivePage } from "~/features/receive/receive.server";
import { workspaceQuery } from "~/features/teams/workspace.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/** /api/receive-pages (issue 24): the member's receive pages and their teams' (issue 42); anyone else's is 404. */
export const receivePagesApi = new Hono<AppEnv>()
  .use(noStore)
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    // ?team={id}: made in that team's workspace (receive.edit there).
    return c.json({ page: await createReceivePage(apiServiceContext(c), actor.userId, await readJsonBody(c), { teamId: c.req.query("team") || undefined }) }, 201);
  })
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    // ?workspace=personal (pages of no team) or a team's id: one workspace's pages (issue 42).
    return c.json({ pages: await listReceivePages(apiServiceContext(c), actor.userId, { workspace: workspaceQuery(c.req.query("workspace")) }) }, 200);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ page: await getReceivePage(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .get("/:id/submissions", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ submissions: await listReceivedSubmissions(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .post("/:id/team", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ page: await moveReceivePageIntoTeam(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .patch("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ page: await updateReceivePage(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .delete("/:id", async (c) => {
    const actor = requireApiActor(c);
    await deleteReceivePage(apiServiceContext(c), actor.userId, c.req.param("id"));
    return c.body(null, 204);
  });
