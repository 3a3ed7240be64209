import { Hono } from "hono";
import { deleteComment, setCommentThreadResolved } from "~/features/datarooms/comments.server";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, requireApiActor } from "./require-actor";

/**
 * /api/comments/:id: resolving and reopening a comment's thread, and deleting a comment. Reading
 * and writing comments is on their file (/api/files/:id/comments). Anyone who cannot see the
 * comment's file gets 404.
 */
export const commentsApi = new Hono<AppEnv>()
  .use(noStore)
  .post("/:id/resolve", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setCommentThreadResolved(apiServiceContext(c), actor.userId, c.req.param("id"), true), 200);
  })
  .post("/:id/reopen", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await setCommentThreadResolved(apiServiceContext(c), actor.userId, c.req.param("id"), false), 200);
  })
  .delete("/:id", async (c) => {
    const actor = requireApiActor(c);
    return c.json(await deleteComment(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  });
