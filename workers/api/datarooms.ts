import { Hono } from "hono";
import { createDataroom, getDataroom, listDatarooms, restoreDataroom, setArchived, trashDataroom, updateDataroom } from "~/features/datarooms/datarooms.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/datarooms (spec §7): the member's rooms (mine and shared with me; ?q, ?filter, ?sort, ?dir),
 * creating one, and one room's profile, archive state and trash. Outsiders get 404 for every room.
 */
export const dataroomsApi = new Hono<AppEnv>()
  .use(noStore)
  .get("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await listDatarooms(apiServiceContext(c), actor.userId, c.req.query()), 200);
  })
  .post("/", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await createDataroom(apiServiceContext(c), actor.userId, await readJsonBody(c)) }, 201);
  })
  .get("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getDataroom(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .patch("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await updateDataroom(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)) }, 200);
  })
  .post("/:id/archive", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await setArchived(apiServiceContext(c), actor.userId, c.req.param("id"), true) }, 200);
  })
  .post("/:id/unarchive", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await setArchived(apiServiceContext(c), actor.userId, c.req.param("id"), false) }, 200);
  })
  // To the trash (the owner; restorable for 30 days), and back.
  .delete("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await trashDataroom(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  })
  .post("/:id/restore", async (c) => {
    const actor = requireApiActor(c);
    return c.json({ dataroom: await restoreDataroom(apiServiceContext(c), actor.userId, c.req.param("id")) }, 200);
  });
