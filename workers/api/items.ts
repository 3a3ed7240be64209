import { Hono } from "hono";
import { moveItems } from "~/features/files/move.server";
import { deleteItems, restoreItems } from "~/features/files/trash.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/items: files and folders together, as the delete dialog and the trash page select them.
 * POST /delete { items: [{ type, id }], permanent? }, POST /restore { items } and POST /move
 * { items, targetFolderId } (≤ 100 items a call; all or nothing: an item of a space the caller is
 * not in is a 404 and nothing changes).
 */
export const itemsApi = new Hono<AppEnv>()
  .use(noStore)
  .post("/delete", async (c) => {
    const actor = requireApiActor(c);
    const result = await deleteItems(apiServiceContext(c), actor.userId, await readJsonBody(c));
    return c.json(result, 200);
  })
  .post("/restore", async (c) => {
    const actor = requireApiActor(c);
    const result = await restoreItems(apiServiceContext(c), actor.userId, await readJsonBody(c));
    return c.json(result, 200);
  })
  .post("/move", async (c) => {
    const actor = requireApiActor(c);
    const result = await moveItems(apiServiceContext(c), actor.userId, await readJsonBody(c));
    return c.json(result, 200);
  });
