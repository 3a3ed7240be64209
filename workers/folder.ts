import { Hono } from "hono";
import { removeFolderIcon, updateFolder } from "~/features/files/folders.server";
import { apiServiceContext, noStore, readJsonBody, requireApiActor } from "./api/require-actor";
import type { AppEnv } from "./types";

/**
 * Spec §7 "Folders": PATCH /folder/{uid} { label, color, icon } and DELETE /folder/{uid}/delete-icon.
 * Kept at the spec's paths (outside /api) so the edit-folder panel calls exactly what it names.
 */
export const folder = new Hono<AppEnv>()
  .use(noStore)
  .patch("/:uid", async (c) => {
    const actor = requireApiActor(c);
    const updated = await updateFolder(apiServiceContext(c), actor.userId, c.req.param("uid"), await readJsonBody(c));
    return c.json({ message: "Folder updated successfully", folder: updated }, 200);
  })
  .delete("/:uid/delete-icon", async (c) => {
    const actor = requireApiActor(c);
    const updated = await removeFolderIcon(apiServiceContext(c), actor.userId, c.req.param("uid"));
    return c.json({ message: "Icon removed successfully", folder: updated }, 200);
  });
