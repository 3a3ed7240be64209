import { Hono } from "hono";
import { prepareFolderZip, streamFolderZip, zipHeaders } from "~/features/files/content.server";
import type { AppEnv } from "../types";
import { apiServiceContext, requireApiActor } from "./require-actor";

/**
 * /api/zip/folders/:uid: a folder with everything below it as one streamed zip (S16). The caps
 * are checked before the first byte; the archive's exact length is known up front.
 */
export const zipApi = new Hono<AppEnv>().get("/folders/:uid", async (c) => {
  const actor = requireApiActor(c);
  const ctx = apiServiceContext(c);
  const zip = await prepareFolderZip(ctx, actor.userId, c.req.param("uid"));
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers: zipHeaders(zip) });
  return new Response(streamFolderZip(ctx, zip), { status: 200, headers: zipHeaders(zip) });
});
