import { Hono } from "hono";
import { createShareLink, revokeShareLink, updateShareLink } from "~/features/sharing/sharing.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/share-links (issue 21): create a link to a file, folder or room, change its options,
 * revoke it. A room's links are listed at /api/datarooms/{id}/share-links. Anyone who may not
 * manage a link gets 404 for it.
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
  .post("/:id/revoke", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ link: await revokeShareLink(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  });
