import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import { deliverGalleryMedia, listPublicGalleryItems, setGalleryFavourite, type GalleryMediaKind } from "~/features/galleries/public-gallery.server";
import { SHARE_VISIT_COOKIE } from "~/features/sharing/sharing.constants";
import { contentRequest } from "./content-request";
import type { AppEnv } from "./types";
import { apiServiceContext, noStore, readJsonBody } from "./api/require-actor";

/**
 * A public gallery's media for its visitor: GET/HEAD /public-gallery/{key}/files/{fileId}/
 * thumb|screen|video|download, with the visit the gallery's page keeps in a cookie scoped to
 * /public-gallery/{key} (public-gallery.server.ts). GET …/items?cursor= is the next page as the
 * visitor scrolls; POST …/files/{fileId}/favourite { favourite } marks or unmarks a picture. Any other address goes on to the pages (app/routes/galleries/public.tsx).
 */

async function serve(c: Context<AppEnv>, kind: GalleryMediaKind) {
  const delivery = await deliverGalleryMedia(apiServiceContext(c), c.req.param("key")!, getCookie(c, SHARE_VISIT_COOKIE), c.req.param("fileId"), kind, contentRequest(c));
  delivery.headers.set("Referrer-Policy", "no-referrer");
  return new Response(delivery.body, { status: delivery.status, headers: delivery.headers });
}

export const publicGallery = new Hono<AppEnv>()
  .get("/:key/items", noStore, async (c) => c.json(await listPublicGalleryItems(apiServiceContext(c), c.req.param("key"), getCookie(c, SHARE_VISIT_COOKIE), c.req.query("cursor") ?? null)))
  .get("/:key/files/:fileId/thumb", (c) => serve(c, "thumb"))
  .get("/:key/files/:fileId/screen", (c) => serve(c, "screen"))
  .get("/:key/files/:fileId/video", (c) => serve(c, "video"))
  .get("/:key/files/:fileId/download", (c) => serve(c, "download"))
  .post("/:key/files/:fileId/favourite", noStore, async (c) => {
    const body = await readJsonBody(c);
    const favourite = typeof body === "object" && body !== null && "favourite" in body ? body.favourite : undefined;
    return c.json(await setGalleryFavourite(apiServiceContext(c), c.req.param("key"), getCookie(c, SHARE_VISIT_COOKIE), { fileId: c.req.param("fileId"), favourite }));
  });
