import { Hono } from "hono";
import { getShareLinkAnalytics, shareLinkVisitsCsv } from "~/features/sharing/share-analytics.server";
import { createShareLink, revokeShareLink, updateShareLink } from "~/features/sharing/sharing.server";
import type { AppEnv } from "../types";
import { apiServiceContext, csvHeaders, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/share-links (issue 21): create a link to a file, folder or room, change its options,
 * revoke it; its analytics (visits, files, time per page) as JSON and CSV. A room's links are listed
 * at /api/datarooms/{id}/share-links. Anyone who may not manage a link gets 404 for it.
 */
export const shareLinksApi = new Hono<AppEnv>()
  .use(noStore)
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ link: await createShareLink(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .patch("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ link: await updateShareLink(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .get("/:id/analytics", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getShareLinkAnalytics(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .get("/:id/visits.csv", async (c) => {
    const actor = requireApiActor(c);
    const { filename, csv } = await shareLinkVisitsCsv(apiServiceContext(c), actor.userId, c.req.param("id"));
    return new Response(csv, { status: 200, headers: csvHeaders(filename) });
  })
  .post("/:id/revoke", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ link: await revokeShareLink(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  });
