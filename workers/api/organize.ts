import { Hono } from "hono";
import {
  copyTemplate,
  getDuplicates,
  getRecentUploads,
  getTagIndex,
  getTemplates,
  listFavorites,
  setFavorite,
  setFileMetadata,
  setFileTags,
  setFileTemplate,
} from "~/features/files/organize.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/organize: favorites (personal: any member who can see an item may star it), tags,
 * metadata, document templates, duplicates and recent uploads. Every handler is parse →
 * service (which checks membership, rights and plan) → shape; the GETs are the JSON twins of
 * the pages.
 */
export const organizeApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/favorites", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listFavorites(apiServiceContext(c), actor.userId), 200);
  })
  .put("/favorites/:type/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setFavorite(apiServiceContext(c), actor.userId, c.req.param(), true), 200);
  })
  .delete("/favorites/:type/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setFavorite(apiServiceContext(c), actor.userId, c.req.param(), false), 200);
  })
  .put("/files/:id/tags", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setFileTags(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .put("/files/:id/metadata", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setFileMetadata(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .put("/files/:id/template", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setFileTemplate(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  .get("/tags", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getTagIndex(apiServiceContext(c), actor.userId, c.req.query()), 200);
  })
  .get("/templates", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getTemplates(apiServiceContext(c), actor.userId, c.req.query()), 200);
  })
  .post("/templates/:id/copy", async (c) => {
    const actor = requireApiActor(c);
    const file = await copyTemplate(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c));
    return c.json({ file }, 201);
  })
  .get("/recent", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getRecentUploads(apiServiceContext(c), actor.userId, c.req.query()), 200);
  })
  .get("/duplicates", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getDuplicates(apiServiceContext(c), actor.userId, c.req.query()), 200);
  });
