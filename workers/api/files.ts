import { Hono, type Context } from "hono";
import { deliverFileContent, type DeliveryMode } from "~/features/files/content.server";
import { contentRequest } from "../content-request";
import { recordPageTime } from "~/features/datarooms/page-time.server";
import { addComment, getFileComments } from "~/features/datarooms/comments.server";
import { renameFile } from "~/features/files/move.server";
import { applyRedaction } from "~/features/redaction/apply-redaction.server";
import { getTextLayer } from "~/features/redaction/redaction-setup.server";
import { downloadEarlierVersion } from "~/features/redaction/earlier-version.server";
import { deliverDerivative } from "~/features/galleries/media-image.server";
import type { DerivedObject } from "~/features/files/derived-objects";
import type { AppEnv } from "../types";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./require-actor";

/**
 * /api/files/:id/download and /api/files/:id/preview: a file's bytes, streamed from R2 with
 * Range (206/416), ETag (304) and HEAD. Downloads are attachments; previews are inline but
 * sandboxed, and anything that could run as a page is sent as text/plain (S15). PATCH /api/files/:id
 * { name } renames the file; POST /api/files/:id/page-time takes the room viewer's time per page;
 * POST /api/files/:id/redact applies redaction marks as a new version.
 */

async function serve(c: Context<AppEnv>, mode: DeliveryMode): Promise<Response> {
  const actor = requireApiActor(c);
  const delivery = await deliverFileContent(apiServiceContext(c), actor.userId, c.req.param("id")!, mode, contentRequest(c));
  return new Response(delivery.body, { status: delivery.status, headers: delivery.headers });
}

// Hono answers HEAD with the GET route (dropping the body); the service sees the HEAD and skips R2.
export const filesApi = new Hono<AppEnv>()
  .get("/:id/download", (c) => serve(c, "download"))
  .get("/:id/preview", (c) => serve(c, "preview"))
  // A picture's thumbnail or screen size (issue 40, galleries): see media-image.server.ts.
  .get("/:id/image/:size{thumb|screen}", async (c) => {
    const actor = requireApiActor(c);
    const delivery = await deliverDerivative(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("size") as DerivedObject, {
      version: c.req.query("v") ?? null,
      ifNoneMatch: c.req.header("if-none-match") ?? null,
      method: c.req.method,
    });
    return new Response(delivery.body, { status: delivery.status, headers: delivery.headers });
  })
  // Time per PDF page from the room's viewer (analytics; bounded per report, see page-time.server.ts).
  .post("/:id/page-time", noStore, async (c) => {
    const actor = requireApiActor(c);
    await recordPageTime(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c));
    return c.body(null, 204);
  })
  // Comments on a room's file (threads, replies, mentions): see comments.server.ts.
  .get("/:id/comments", noStore, async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getFileComments(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .post("/:id/comments", noStore, async (c) => {
    const actor = requireApiActor(c);
    const { comment, notified } = await addComment(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c));
    return c.json({ comment, notified: notified.length }, 201);
  })
  // Redaction (issue 39): the marks applied by the engine Worker, checked, saved as a new version.
  .post("/:id/redact", noStore, async (c) => {
    const actor = requireApiActor(c);
    return c.json(await applyRedaction(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c)), 200);
  })
  // An earlier version (the original of a redacted file), for people who may redact it.
  .get("/:id/versions/:versionId/download", async (c) => {
    const actor = requireApiActor(c);
    const file = await downloadEarlierVersion(apiServiceContext(c), actor.userId, c.req.param("id"), c.req.param("versionId"));
    return new Response(file.body, { status: 200, headers: file.headers });
  })
  .get("/:id/text-layer", noStore, async (c) => {
    const actor = requireApiActor(c);
    return c.json(await getTextLayer(apiServiceContext(c), actor.userId, c.req.param("id")), 200);
  })
  .patch("/:id", noStore, async (c) => {
    const actor = requireApiActor(c);
    const file = await renameFile(apiServiceContext(c), actor.userId, c.req.param("id"), await readJsonBody(c));
    return c.json({ message: "File renamed", file }, 200);
  });
