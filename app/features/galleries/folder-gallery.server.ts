import { isReadOnlyRole } from "~/features/files/files.permissions";
import type { DerivedObject } from "~/features/files/derived-objects";
import { PAGE_SIZE } from "~/features/files/files.constants";
import { findFolderWithRole } from "~/features/files/folders.queries.server";
import { toFolderSummary, type FolderSummary } from "~/features/files/folders.server";
import { assertSpaceRight, decodeCursor, encodeCursor, folderNotFound } from "~/features/files/spaces.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { listFolderMedia } from "./media.queries.server";

/**
 * One picture or video of the folder gallery. `thumb` is the address of its thumbnail: with the
 * file's version once the derivatives job made it (the browser may keep it a year), without it
 * while it is still to be made (asking for it starts the job; the grid tries again after 1 s),
 * null for a video or a picture that could not be read. `width` and `height` (the picture as
 * shown) let the grid keep its place while it loads.
 */
export type GalleryItem = {
  id: string;
  name: string;
  type: string;
  kind: "image" | "video";
  createdAt: number;
  takenAt: string | null;
  thumb: string | null;
  /** The screen size the viewer shows (made like the thumbnail), null for videos. */
  screen: string | null;
  width: number | null;
  height: number | null;
};

/** A picture's derivative: versioned once made (cacheable), unversioned while it is to be made; none for a video. */
function derivativeAddress(row: { id: string; contentType: string; status: string | null; version: number }, kind: DerivedObject): string | null {
  if (row.contentType.startsWith("video/")) return null;
  return `/api/files/${row.id}/image/${kind}${row.status === "ready" ? `?v=${row.version}` : ""}`;
}

/** `canPublish`: may publish it as a public gallery (the right to share there: `share` in a room that is not archived, the owner of personal files). */
export type GalleryPage = { folder: FolderSummary; items: GalleryItem[]; nextCursor: string | null; canPublish: boolean };

/** The folder gallery (spec §2 "Folder gallery"): the folder's pictures and videos by the date they were taken (else uploaded), newest first. */
export async function getFolderGallery(ctx: ServiceContext, userId: string, folderId: string, cursor: string | undefined): Promise<GalleryPage> {
  const found = await findFolderWithRole(ctx.db, folderId, userId);
  if (!found) throw folderNotFound();
  const roomPermissions = await assertSpaceRight(ctx, userId, { spaceId: found.folder.spaceId, role: found.role, isDataroom: found.isDataroom }, "files.view");
  const rows = await listFolderMedia(ctx.db, folderId, decodeCursor(cursor), PAGE_SIZE + 1);
  const visible = rows.slice(0, PAGE_SIZE);
  const last = visible.at(-1);
  return {
    folder: toFolderSummary(found.folder),
    items: visible.map((row) => ({
      id: row.id,
      name: row.name,
      type: row.contentType,
      kind: row.contentType.startsWith("video/") ? "video" : "image",
      createdAt: row.createdAt.getTime(),
      takenAt: row.takenAt,
      thumb: row.status === "failed" ? null : derivativeAddress(row, "thumb"),
      screen: derivativeAddress(row, "screen"),
      width: row.width,
      height: row.height,
    })),
    nextCursor: rows.length > PAGE_SIZE && last ? encodeCursor({ value: Number(last.shotAt), id: last.id }) : null,
    canPublish: roomPermissions ? roomPermissions.share && !isReadOnlyRole(found.role) : found.role === "owner",
  };
}
