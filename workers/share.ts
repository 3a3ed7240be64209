import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import { deliverShareContent } from "~/features/sharing/share-content.server";
import { recordSharePageTime } from "~/features/sharing/share-viewer.server";
import { SHARE_VISIT_COOKIE } from "~/features/sharing/sharing.constants";
import type { DeliveryMode } from "~/features/files/content.server";
import { contentRequest } from "./content-request";
import type { AppEnv } from "./types";
import { apiServiceContext, noStore, readJsonBody } from "./api/require-actor";

/**
 * A share link's documents for its visitor: GET/HEAD /s/{key}/files/{fileId}/preview|download,
 * with the visit the link's page keeps in a cookie scoped to /s/{key} (share-content.server.ts).
 * POST …/page-time takes the viewer's time per page (analytics). Any other /s/ address goes on to
 * the pages: the link's own page (app/routes/share/viewer.tsx) shows its gates and documents.
 */

async function serve(c: Context<AppEnv>, mode: DeliveryMode) {
  const delivery = await deliverShareContent(apiServiceContext(c), c.req.param("key")!, getCookie(c, SHARE_VISIT_COOKIE), c.req.param("fileId"), mode, contentRequest(c));
  // Never from a cache: every request is checked against the link as it is now.
  delivery.headers.set("Referrer-Policy", "no-referrer");
  return new Response(delivery.body, { status: delivery.status, headers: delivery.headers });
}

export const share = new Hono<AppEnv>()
  .get("/:key/files/:fileId/download", (c) => serve(c, "download"))
  .get("/:key/files/:fileId/preview", (c) => serve(c, "preview"))
  .post("/:key/files/:fileId/page-time", noStore, async (c) => {
    await recordSharePageTime(apiServiceContext(c), c.req.param("key"), getCookie(c, SHARE_VISIT_COOKIE), c.req.param("fileId"), await readJsonBody(c));
    return c.body(null, 204);
  });
