import { Hono } from "hono";
import { prepareFolderZip, prepareSelectionZip, streamFolderZip, zipHeaders } from "~/features/files/content.server";
import type { AppEnv } from "../types";
import { apiServiceContext, requireApiActor } from "./require-actor";

/**
 * /api/zip/folders/:uid: a folder with everything below it as one streamed zip (S16). With
 * `?files=id,id,…`, only those files of the folder (a gallery's selection). The caps are checked
 * before the first byte; the archive's exact length is known up front.
 */
export const zipApi = new Hono<AppEnv>().get("/folders/:uid", async (c) => {
  const actor = requireApiActor(c);
  const ctx = apiServiceContext(c);
  const chosen = c.req.query("files");
  const zip =
    chosen === undefined
      ? await prepareFolderZip(ctx, actor.userId, c.req.param("uid"))
      : await prepareSelectionZip(ctx, actor.userId, c.req.param("uid"), chosen.split(",").map((id) => id.trim()).filter(Boolean));
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers: zipHeaders(zip) });
  return new Response(streamFolderZip(ctx, zip), { status: 200, headers: zipHeaders(zip) });
});
