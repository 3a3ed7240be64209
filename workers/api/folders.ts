import { Hono } from "hono";
import { createFolder, getAllFolders, getFolderPage, getGlobalBox } from "~/features/files/folders.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/folders: the folder tree, folder pages (JSON twin of the folder page loader), the global
 * inbox/outbox and folder creation. Editing a folder uses the spec's paths (workers/folder.ts).
 */
export const foldersApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ spaces: await getAllFolders(apiServiceContext(c), actor.userId) }, 200);
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    const folder = await createFolder(apiServiceContext(c), actor.userId, await readJsonBody(c));
    return c.json({ folder }, 201);
  })
  .get("/global/:kind{inbox|outbox}", async (c) => {
    const actor = requireApiActor(c);
    const kind = c.req.param("kind") as "inbox" | "outbox";
    return c.json(await getGlobalBox(apiServiceContext(c), actor.userId, kind, c.req.query("cursor")), 200);
  })
  .get("/:uid", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getFolderPage(apiServiceContext(c), actor.userId, c.req.param("uid"), c.req.query()), 200);
  });
